# Move helpers shared by the test scripts (students kept such helpers in
# their own modules).
import random

import numpy as np

EVEN = [(-1, -1), (0, -1), (-1, 0), (1, 0), (-1, 1), (0, 1)]
ODD = [(0, -1), (1, -1), (-1, 0), (1, 0), (0, 1), (1, 1)]


def step(x, y, d):
    dx, dy = (ODD if y % 2 else EVEN)[d - 1]
    return x + dx, y + dy


def moves(mapStat):
    out = []
    for x in range(12):
        for y in range(12):
            if mapStat[x][y] != 0:
                continue
            out.append([(x, y), 1, 1])
            for d in range(1, 7):
                cx, cy = x, y
                for l in (2, 3):
                    cx, cy = step(cx, cy, d)
                    if not (0 <= cx < 12 and 0 <= cy < 12) or mapStat[cx][cy] != 0:
                        break
                    out.append([(x, y), l, d])
    return out


def check_stats(mapStat, gameStat, made):
    """The board as the course sent it: crossed cells carry the number of
    the move that crossed them; the last move number is the move count."""
    crossed = (mapStat == 1) | (mapStat == 2)
    if not np.array_equal(crossed, gameStat > 0):
        raise RuntimeError("mapStat and gameStat disagree")
    numbers = np.unique(gameStat[gameStat > 0])
    if len(numbers) and not np.array_equal(numbers, np.arange(1, len(numbers) + 1)):
        raise RuntimeError("move numbers are not 1..n: %s" % numbers)
    if len(numbers) < made:
        raise RuntimeError("gameStat misses moves")


def pick(mapStat, rng=random):
    return rng.choice(moves(mapStat))
