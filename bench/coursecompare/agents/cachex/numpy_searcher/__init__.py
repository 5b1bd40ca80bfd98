# A player package in the shape of the COMP30024 2022 skeleton: numpy,
# a large table built in __init__, a CPU budget kept with process_time.
from .player import Player, Hog
