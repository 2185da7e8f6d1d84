"""Boards drawn as text for the terminal (``tablestream replay``).

Each game package draws its own board (its ``drawing.py``, made with the kit in
``games.drawing``); this module finds them through the registry, by kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import registry
from games.base import GameBase
from games.drawing import Drawing, Sheet, draw_board, tree

__all__ = ["DRAWINGS", "Sheet", "draw", "tree"]

DRAWINGS: dict[str, Drawing] = {
    kind: game.drawing_module.draw
    for kind, game in registry.all_games().items()
    if isinstance(game, GameBase) and game.drawing_module is not None
}
"""Each kind's drawing, for the kinds that have one."""


def draw(kind: str, view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    """The board of a ``kind`` game as lines of text; the tree for a kind with no
    drawing, or a view its drawing cannot read."""
    return draw_board(kind, DRAWINGS.get(kind), view, sheet)
