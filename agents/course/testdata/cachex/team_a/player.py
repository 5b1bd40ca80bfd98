import random

import numpy as np

from team_a.board import Board


class Player:
    def __init__(self, player, n):
        self.colour = player
        self.n = n
        self.board = Board(n)
        self.turns = 0
        self.rng = random.Random(n)

    def action(self):
        free = self.board.free()
        if self.turns == 0 and self.n % 2 == 1:
            c = self.n // 2
            free = [cell for cell in free if cell != (c, c)]
        r, q = free[self.rng.randrange(len(free))]
        return ("PLACE", int(r), int(q))

    def turn(self, player, action):
        # Called for both sides' actions, its own included.
        if type(action) is not tuple:
            raise TypeError("action is not a tuple: %r" % (action,))
        if action[0] == "STEAL":
            self.board.steal()
        else:
            self.board.place(player, action[1], action[2])
        self.turns += 1
