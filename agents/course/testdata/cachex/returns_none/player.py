class Player:
    def __init__(self, player, n):
        pass

    def action(self):
        return None

    def turn(self, player, action):
        pass
