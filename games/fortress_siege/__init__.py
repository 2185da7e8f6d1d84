"""Fortress v1.1 (Carl and Arne Bystrom, *Rules of Fortress*, version 1.1), key
``fortress-siege``, for 2 to 6 players, with the Winds of Fate variant as an option. Each
player's shuffled 54-card deck is both their draw pile and their Fortress; its bottom card,
the Tombstone, is shown to all at the start and the highest one plays first. A turn is
exactly three moves. An attack waits for the attacked player's out-of-turn answer
(defenders and shields, one choice at a time), then resolves in the rulebook's order of
combat. A player is out when their Tombstone is drawn or discarded; the last Fortress
standing wins. ``RULINGS.md`` records how we read the rulebook where it is unclear, and
``README.md`` how to play.
"""

from games.fortress_siege.game import GAME

__all__ = ["GAME"]
