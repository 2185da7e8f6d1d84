"""Fortress (royals in hand), Rulebook v2.0, as the game ``fortress-royals``."""

from games.fortress_royals.game import FortressRoyals

GAME = FortressRoyals()

__all__ = ["GAME", "FortressRoyals"]
