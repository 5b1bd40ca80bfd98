import time

from helpers import find_legal_moves

calls = 0


def calculate_move(gamestate):
    global calls
    calls += 1
    # Hangs on its second move, asleep: the verdict is the wall clock's,
    # and a spinning script would only take a core from the tests beside it.
    while calls == 2:
        time.sleep(1)
    return find_legal_moves(gamestate)[0]
