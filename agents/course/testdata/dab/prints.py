from helpers import find_legal_moves


def calculate_move(gamestate):
    print("thinking about", len(gamestate["Grid"]), "lines")
    return find_legal_moves(gamestate)[-1]
