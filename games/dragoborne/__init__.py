"""Dragoborne -Rise To Supremacy-: our own starter card pool and decks on the decider contract."""

from games.dragoborne.game import GAME, Dragoborne

__all__ = ["GAME", "Dragoborne"]
