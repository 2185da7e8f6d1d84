"""Options that keep a kind's games short where a test needs a whole game but not a long
one: stomping-grounds has no turn limit by default (its rulebook sets none), and random or
greedy play can then go on for hundreds of rounds. Every other kind ends soon enough."""

from __future__ import annotations

from typing import Any

SHORT: dict[str, dict[str, Any]] = {"stomping-grounds": {"turn_limit": 10}}


def short(kind: str) -> dict[str, Any] | None:
    """The options of a short game of ``kind`` (None: the kind's defaults are short)."""
    return SHORT.get(kind)
