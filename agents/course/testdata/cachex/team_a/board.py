import numpy as np


class Board:
    """Which cells this player has seen filled (captures are not modelled:
    a cell it thinks is empty always is)."""

    def __init__(self, n):
        self.cells = np.zeros((n, n), dtype=np.int8)

    def free(self):
        return [tuple(int(v) for v in c) for c in np.argwhere(self.cells == 0)]

    def place(self, colour, r, q):
        self.cells[r, q] = 1 if colour == "red" else 2

    def steal(self):
        self.cells = np.where(self.cells.T == 0, 0, 3 - self.cells.T).astype(np.int8)
