import os

from helpers import find_legal_moves

calls = 0


def calculate_move(gamestate):
    global calls
    calls += 1
    if calls == 2:
        os._exit(4)
    return find_legal_moves(gamestate)[0]
