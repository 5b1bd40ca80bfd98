import os
import sys


class Player:
    """Holds memory where no resident size shows it: a memfd written, never
    mapped, kept open for the rest of the game."""

    def __init__(self, player, n):
        self.fd = None

    def action(self):
        if self.fd is None:
            self.fd = os.memfd_create("held")
            chunk = b"x" * (1 << 20)
            for i in range(600):
                os.write(self.fd, chunk)
            print("memfd: wrote 600 MiB", file=sys.stderr, flush=True)
        return ("PLACE", 0, 0)

    def turn(self, player, action):
        pass
