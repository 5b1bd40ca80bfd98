import numpy as np

# The twelve capture diamonds around a placement: the opposite corner,
# then the two cells captured (rules: Cachex section 5.1).
DIAMONDS = [
    ((1, -2), (1, -1), (0, -1)), ((2, -1), (1, 0), (1, -1)),
    ((1, 1), (0, 1), (1, 0)), ((-1, 2), (-1, 1), (0, 1)),
    ((-2, 1), (-1, 0), (-1, 1)), ((-1, -1), (0, -1), (-1, 0)),
    ((0, -1), (1, -1), (-1, 0)), ((1, -1), (1, 0), (0, -1)),
    ((1, 0), (0, 1), (1, -1)), ((0, 1), (-1, 1), (1, 0)),
    ((-1, 1), (-1, 0), (0, 1)), ((-1, 0), (0, -1), (-1, 1)),
]


class Board:
    """The board as this player sees it: 0 empty, 1 red, 2 blue, with
    captures and the STEAL applied."""

    def __init__(self, n):
        self.n = n
        self.cells = np.zeros((n, n), dtype=np.int8)

    def free(self):
        return [tuple(int(v) for v in c) for c in np.argwhere(self.cells == 0)]

    def inside(self, r, q):
        return 0 <= r < self.n and 0 <= q < self.n

    def place(self, colour, r, q):
        me = 1 if colour == "red" else 2
        self.cells[r, q] = me
        captured = set()
        for (orr, oq), (ar, aq), (br, bq) in DIAMONDS:
            o, a, b = (r + orr, q + oq), (r + ar, q + aq), (r + br, q + bq)
            if not all(self.inside(*c) for c in (o, a, b)):
                continue
            if self.cells[o] == me and self.cells[a] == 3 - me and self.cells[b] == 3 - me:
                captured.update((a, b))
        for c in captured:
            self.cells[c] = 0

    def steal(self):
        self.cells = np.where(self.cells.T == 0, 0, 3 - self.cells.T).astype(np.int8)
