import notthere_arena_test_module


class Player:
    pass
