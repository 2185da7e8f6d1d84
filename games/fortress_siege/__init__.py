"""Fortress v1.1 (Bystrom): siege card game, key ``fortress-siege``. See ``game``."""

from games.fortress_siege.game import GAME

__all__ = ["GAME"]
