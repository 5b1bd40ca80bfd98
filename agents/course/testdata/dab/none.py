def calculate_move(gamestate):
    return None
