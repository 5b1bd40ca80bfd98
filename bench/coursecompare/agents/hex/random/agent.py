# The course side's opponent: a random legal move at once, in the course's
# script shape (the arena side plays builtin:random).
import random

import STcpClient_1 as STcpClient

STEP = {4: ((1, 0), (1, 0)), 5: ((-1, 1), (0, 1)), 6: ((0, 1), (1, 1))}


def Getstep(mapStat, gameStat):
    free = {(x, y) for x in range(12) for y in range(12) if mapStat[x][y] == 0}
    options = []
    for (x, y) in free:
        options.append([(x, y), 1, 1])
        for d, deltas in STEP.items():
            cx, cy = x, y
            for length in (2, 3):
                dx, dy = deltas[cy % 2]
                cx, cy = cx + dx, cy + dy
                if (cx, cy) not in free:
                    break
                options.append([(x, y), length, d])
    return random.choice(options)


while True:
    (stop, id_package, mapStat, gameStat) = STcpClient.GetBoard()
    if stop:
        break
    STcpClient.SendStep(id_package, Getstep(mapStat, gameStat))
