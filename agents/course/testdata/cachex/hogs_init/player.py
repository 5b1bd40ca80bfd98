class Player:
    def __init__(self, player, n):
        # 300 MiB built in the constructor, over the course's space limit:
        # the course referee measured __init__ as it measured every call,
        # so this player lost for space, not as a player that never came.
        self.table = b"x" * (300 << 20)

    def action(self):
        return ("PLACE", 0, 0)

    def turn(self, player, action):
        pass
