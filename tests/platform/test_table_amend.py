"""``projections.table.amend``, the fold's fast copy of a table, gives the table
``dataclasses.replace`` would, leaves the original alone and refuses a field the table
does not have."""

from __future__ import annotations

import dataclasses
from typing import Any

import fakeredis
import pytest

from core.handler import Handler
from events.memory import MemoryEventStore
from projections.snapshots import MemorySnapshots
from projections.table import Table, amend
from projections.tables import Tables
from stores.vault import RedisVault


def _table() -> Table:
    store = MemoryEventStore()
    handler = Handler(store, Tables(store, MemorySnapshots()), RedisVault(fakeredis.FakeRedis()))
    table = handler.create_game("tiny", [{"name": "ann"}, {"name": "bob"}]).table
    seat = min(table.to_act())
    return handler.act(table.game_id, seat, {"type": "add", "amount": 1}, table.version).table


def _other(value: Any) -> Any:
    """A value of the field's kind that differs from ``value``."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, str):
        return value + "-changed"
    if isinstance(value, tuple):
        return (*value, value[0] if value else 1)
    if isinstance(value, frozenset):
        return value | {99}
    return {"changed": True}


@pytest.mark.parametrize("name", [field.name for field in dataclasses.fields(Table)])
def test_amend_gives_what_replace_gives_for_every_field(name: str) -> None:
    table = _table()
    before = dataclasses.asdict(table)
    value = _other(getattr(table, name))
    amended = amend(table, **{name: value})
    assert amended == dataclasses.replace(table, **{name: value})
    assert getattr(amended, name) == value
    assert type(amended) is Table
    assert dataclasses.asdict(table) == before  # the original is untouched


def test_amend_changes_several_fields_at_once() -> None:
    table = _table()
    changes = {"version": table.version + 3, "head_hash": "h", "updated_at": "t", "last_irreversible": 2}
    assert amend(table, **changes) == dataclasses.replace(table, **changes)


def test_amend_refuses_a_field_the_table_does_not_have() -> None:
    table = _table()
    with pytest.raises(TypeError, match="verson"):
        amend(table, verson=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        amend(table, version=3).version = 4  # type: ignore[misc]
