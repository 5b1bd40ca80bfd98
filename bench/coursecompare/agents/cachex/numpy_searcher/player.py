import random
import time

import numpy as np

from numpy_searcher.board import Board

TABLE_MB = 120  # live for the whole game, inside the course's 2 x 100 MB
THINK_S = 0.25  # CPU seconds per action, by the agent's own clock


class Player:
    def __init__(self, player, n):
        self.colour = player
        self.n = n
        self.board = Board(n)
        self.turns = 0
        self.rng = random.Random(n)
        self.table = self.make_table()

    def make_table(self):
        return np.ones(TABLE_MB * 1024 * 1024 // 8, dtype=np.float64)

    def think(self):
        end = time.process_time() + THINK_S
        m = np.arange(64 * 64, dtype=np.float64).reshape(64, 64) / 4096
        while time.process_time() < end:
            m = np.tanh(m @ m)
        self.table[self.turns % len(self.table)] = m[0, 0]

    def action(self):
        self.think()
        free = self.board.free()
        if self.turns == 0 and self.n % 2 == 1:
            c = self.n // 2
            free = [cell for cell in free if cell != (c, c)]
        r, q = free[self.rng.randrange(len(free))]
        return ("PLACE", int(r), int(q))

    def turn(self, player, action):
        if action[0] == "STEAL":
            self.board.steal()
        else:
            self.board.place(player, action[1], action[2])
        self.turns += 1


class Hog(Player):
    """The same player with a 260 MB table: over the course's shared
    2 x 100 MB on its own, so the course referee ended its game for space."""

    def make_table(self):
        return np.ones(260 * 1024 * 1024 // 8, dtype=np.float64)
