# A player that guards its move with a multiprocessing lock: a POSIX
# named semaphore, which needs /dev/shm.
from .player import Player
