# A player package in the shape of the COMP30024 2022 skeleton, written for
# the arena's tests.
from .player import Player
