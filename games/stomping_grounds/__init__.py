"""Stomping Grounds (``stomping-grounds``): our four 60-card dragon decks on a realm map."""

from .game import GAME, StompingGrounds

__all__ = ["GAME", "StompingGrounds"]
