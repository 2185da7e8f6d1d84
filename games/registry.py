"""The registry of game kinds. Each game package exposes ``GAME`` and is found here.

A game package registers itself simply by existing under ``games/`` with a
module-level ``GAME``; nothing else names it.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from functools import cache

from games.base import Game
from games.codec import allow

_registered: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game that lives outside ``games/`` (the platform tests' tiny game)."""
    _registered[game.key] = game
    allow(type(game).__module__)
    return game


def all_games() -> dict[str, Game]:
    return {**_packaged(), **_registered}


@cache
def _packaged() -> dict[str, Game]:
    found: dict[str, Game] = {}
    for module in sorted(pkgutil.iter_modules([os.path.dirname(__file__)]), key=lambda m: m.name):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"games.{module.name}")
        game = getattr(package, "GAME", None)
        if game is None:
            continue
        if game.key in found:
            raise RuntimeError(f"game key {game.key!r} registered twice")
        found[game.key] = game
    return found


def get(key: str) -> Game | None:
    return all_games().get(key)


def keys() -> list[str]:
    return sorted(all_games())
