import time

from team_a.player import Player as Base


class Player(Base):
    """Burns CPU while the opponent is on move: the course charged the time
    of turn() to the receiving player."""

    def turn(self, player, action):
        end = time.process_time() + 0.02
        while time.process_time() < end:
            pass
        super().turn(player, action)
