import os

from team_a.player import Player as Base


class Player(Base):
    def action(self):
        if self.turns >= 2:
            os._exit(5)
        return super().action()
