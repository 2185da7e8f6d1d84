"""Dragoborne -Rise To Supremacy- for two players, after its rulebook, on our own starter
card pool and pre-built decks: creatures on three forts, dice rolled each turn as
Dragoshields or Dragocrosses, and face-down barriers that break into their owner's hand
(or fire a Fort Burst); destroy every enemy fort to win. ``RULINGS.md`` records how we
read the rulebook where it is unclear, and ``README.md`` how to play.
"""

from games.dragoborne.game import GAME

__all__ = ["GAME"]
