# A hex cross-out agent in the NYCU course's shape: a script that imports
# the course's client library, loops GetBoard/SendStep at module level, and
# answers Getstep(mapStat, gameStat) with a Monte Carlo search that stops
# 4.5 s into its 6 s turn by its own wall clock, as course agents did.
import random
import time

import STcpClient_1 as STcpClient

GUARD = 4.5  # seconds of the turn's 6

# (dx, dy) of one step in each direction, from a cell on an even row and
# from one on an odd row (odd rows sit half a cell to the right).
STEP = {
    1: ((-1, -1), (0, -1)),
    2: ((0, -1), (1, -1)),
    3: ((-1, 0), (-1, 0)),
    4: ((1, 0), (1, 0)),
    5: ((-1, 1), (0, 1)),
    6: ((0, 1), (1, 1)),
}


def step(x, y, d):
    dx, dy = STEP[d][y % 2]
    return x + dx, y + dy


def cells(move):
    (x, y), length, d = move
    out = [(x, y)]
    for _ in range(length - 1):
        x, y = step(x, y, d)
        out.append((x, y))
    return out


def moves(free):
    """Each distinct set of cells once: a cell, and the lines of two and
    three free cells that start at it going right or down."""
    out = []
    for (x, y) in free:
        out.append(((x, y), 1, 1))
        for d in (4, 5, 6):
            cx, cy = x, y
            for length in (2, 3):
                cx, cy = step(cx, cy, d)
                if (cx, cy) not in free:
                    break
                out.append(((x, y), length, d))
    return out


def playout(free, rng):
    """Random moves from free, the opponent first: True when the opponent
    crosses out the last cell (whoever does loses)."""
    free = set(free)
    opponent = True
    while True:
        for c in cells(rng.choice(moves(free))):
            free.discard(c)
        if not free:
            return opponent
        opponent = not opponent


def Getstep(mapStat, gameStat):
    start = time.time()
    free = {(x, y) for x in range(12) for y in range(12) if mapStat[x][y] == 0}
    candidates = moves(free)
    wins = [0] * len(candidates)
    plays = [0] * len(candidates)
    rng = random.Random()
    i = 0
    while time.time() - start < GUARD:
        k = i % len(candidates)
        i += 1
        rest = free.difference(cells(candidates[k]))
        plays[k] += 1
        if rest and playout(rest, rng):
            wins[k] += 1
    best = max(range(len(candidates)), key=lambda k: wins[k] / plays[k] if plays[k] else 0)
    (x, y), length, d = candidates[best]
    return [(x, y), length, d]


while True:
    (stop, id_package, mapStat, gameStat) = STcpClient.GetBoard()
    if stop:
        break
    STcpClient.SendStep(id_package, Getstep(mapStat, gameStat))
