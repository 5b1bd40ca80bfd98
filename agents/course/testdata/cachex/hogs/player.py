import time


class Player:
    def __init__(self, player, n):
        self.held = None

    def action(self):
        # 300 MiB written (so resident), over the course's 100 MB limit,
        # held while the referee looks.
        self.held = b"x" * (300 << 20)
        time.sleep(2)
        return ("PLACE", 0, 0)

    def turn(self, player, action):
        pass
