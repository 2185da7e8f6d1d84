"""Stomping Grounds (``stomping-grounds``), after the *Stomping Grounds* rulebook, for 2 to
4 players: dragons, each one of our four 60-card decks (``decks/``; rules revision 2 lays
``revision2.json`` over them), share a map of realm cards laid edge to edge. They fly over it,
complete challenges and duel one another to burn their own decks away; the first dragon with
no cards left in deck, stash and junk at the end of its turn wins. ``RULINGS.md`` records how
we read the rulebook where it is unclear, and ``README.md`` how to play."""

from games.stomping_grounds.game import GAME

__all__ = ["GAME"]
