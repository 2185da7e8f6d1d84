"""The checks on an action's fields shared by every phase: each refusal names the field."""

from __future__ import annotations

from collections.abc import Mapping

from games.base import JSON, IllegalAction
from games.fortress_royals import combat


def need_fields(action: Mapping[str, JSON], *names: str) -> None:
    extra = sorted(set(action) - {"type", *names})
    missing = [name for name in names if name not in action]
    if extra:
        raise IllegalAction(f"'{action['type']}' takes no field {', '.join(repr(n) for n in extra)}.")
    if missing:
        raise IllegalAction(f"'{action['type']}' needs the field {', '.join(repr(n) for n in missing)}.")


def seat_field(action: Mapping[str, JSON], name: str, players: int) -> int:
    value = action[name]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise IllegalAction(f"'{name}' must be a seat number from 0 to {players - 1}.")
    return value


def end_field(action: Mapping[str, JSON], name: str) -> str:
    value = action[name]
    if value not in combat.SIDES:
        raise IllegalAction(f'\'{name}\' must be "left" or "right".')
    return str(value)
