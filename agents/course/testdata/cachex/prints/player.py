from team_a.player import Player as Base


class Player(Base):
    def action(self):
        a = super().action()
        print("my action:", a)
        return a
