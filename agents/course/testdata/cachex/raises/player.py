class Player:
    def __init__(self, player, n):
        self.t = 0

    def action(self):
        raise RuntimeError("no idea what to do")

    def turn(self, player, action):
        pass
