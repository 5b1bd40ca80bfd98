import multiprocessing

from team_a.player import Player as Base


class Player(Base):
    def __init__(self, player, n):
        super().__init__(player, n)
        self.lock = multiprocessing.Lock()

    def action(self):
        with self.lock:
            return super().action()
