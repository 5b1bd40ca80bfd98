def calculate_move(gamestate):
    return "up and to the left"
