"""Fortress (royals in hand), after its Rulebook v2.0, as the game ``fortress-royals``: two
to five players each build a hidden ten-card hand one card at a time, each card going to
the left or right end, then attack the next player's hand from either end. Royals score
when captured or kept; rounds are played to a target score, the direction of play
alternating, and with two players every other round (the Even Round) is played on the
cards left in the deck. ``RULINGS.md`` records how we read the rulebook where it is
unclear, and ``README.md`` how to play.
"""

from games.fortress_royals.game import GAME

__all__ = ["GAME"]
