# The opponent on the course's side: random legal placements (no steal),
# as the arena's builtin:random plays on its side.
from .player import Player
