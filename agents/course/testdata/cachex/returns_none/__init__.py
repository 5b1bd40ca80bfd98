from .player import Player
