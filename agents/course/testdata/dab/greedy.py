# A bot in the shape of the AI Gaming Dots-and-Boxes template, written for
# the arena's tests: it takes a box when it can, else a random free line.
# It keeps state in module globals and checks that the platform's view is
# from its own point of view (its own lines are owned by player 0).
import random

import numpy as np

from helpers import find_legal_moves

moves_made = 0


def calculate_move(gamestate):
    global moves_made
    mine = sum(1 for line in gamestate["Grid"] if line[2] == 0)
    if mine != moves_made:
        raise RuntimeError("globals lost or view not mine: %d own lines, %d moves made" % (mine, moves_made))
    if not gamestate["IsMover"] or gamestate["GameStatus"] != "RUNNING":
        raise RuntimeError("bad gamestate flags")
    legal = find_legal_moves(gamestate)
    choice = None
    for square in gamestate["Squares"]:
        sides = square[0]
        undrawn = [s for s in sides if not s[2]]
        if len(undrawn) == 1:
            choice = [undrawn[0][0], undrawn[0][1]]
            break
    if choice is None:
        choice = legal[random.randrange(len(legal))]
    gamestate["Grid"] = None  # bots mutate what they are given
    moves_made += 1
    # Dots as numpy integers, as bots built on numpy return them.
    return [list(np.array(choice[0], dtype=np.int64)), list(np.array(choice[1], dtype=np.int64))]
