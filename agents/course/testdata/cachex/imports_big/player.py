from team_a.player import Player as Base

# Built at import, as packages that load a table or a model at module level
# did: 150 MiB written (so resident), in the referee's baseline, not the
# player's use.
TABLE = b"t" * (150 << 20)


class Player(Base):
    """Plays team_a's moves, holding a large table built at import and
    using 60 MiB more for each action, inside the course's limit."""

    def action(self):
        scratch = b"s" * (60 << 20)
        del scratch
        return super().action()
