class Player:
    def __init__(self, player, n):
        pass

    def action(self):
        x = 0
        while True:
            x += 1

    def turn(self, player, action):
        pass
