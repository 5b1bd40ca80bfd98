class Player:
    def __init__(self, player, n):
        self.held = None

    def action(self):
        # 300 MiB held past the call, over the course's space limit: the
        # referee's check after the call sees the peak.
        self.held = b"x" * (300 << 20)
        return ("PLACE", 0, 0)

    def turn(self, player, action):
        pass
