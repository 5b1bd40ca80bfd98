import random

from numpy_searcher.board import Board


class Player:
    def __init__(self, player, n):
        self.n = n
        self.board = Board(n)
        self.first = True
        self.rng = random.Random(7)

    def action(self):
        free = self.board.free()
        if self.first and self.n % 2 == 1:
            free.remove((self.n // 2, self.n // 2))
        return ("PLACE",) + self.rng.choice(free)

    def turn(self, player, action):
        self.first = False
        if action[0] == "STEAL":
            self.board.steal()
        else:
            self.board.place(player, action[1], action[2])
