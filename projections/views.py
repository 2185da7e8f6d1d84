"""What one seat may see of a table and of its events.

Before a game ends, the game's ``view``/``redact`` decide what a seat sees; an
``ActionTaken`` is shown only to the seat that acted; and an event's hashes are
shown only when the seat sees its data whole (a hash over a hidden card could be
brute-forced back to the card). Once the game is over, everything is public.
"""

from __future__ import annotations

from typing import Any

from events.envelope import Envelope
from games.base import GameEvent
from projections.table import PLATFORM_EVENTS, Table, public_options


def board(table: Table, seat: int | None) -> dict[str, Any]:
    return table.game.view(table.state, seat)


def event_for(table: Table, envelope: Envelope, seat: int | None) -> dict[str, Any]:
    """The envelope as ``seat`` may see it, given the table it belongs to (its status
    decides whether secrets are still kept)."""
    data: Any = envelope.data
    if table.status != "finished":
        if envelope.type == "ActionTaken":
            if seat is None or seat != envelope.seat:
                data = {}
        elif envelope.type == "ForkedFrom":
            data = {k: v for k, v in envelope.data.items() if k != "state"}
            data["options"] = public_options(table.game, envelope.data["options"], finished=False)
        elif envelope.type == "GameCreated":
            data = {**envelope.data, "options": public_options(table.game, envelope.data["options"], finished=False)}
        elif envelope.type not in PLATFORM_EVENTS:
            event = GameEvent(envelope.type, envelope.data, envelope.seat)
            data = table.game.redact(event, seat).data
    out: dict[str, Any] = {
        "version": envelope.version,
        "type": envelope.type,
        "seat": envelope.seat,
        "actor": envelope.actor,
        "data": data,
        "at": envelope.at,
    }
    if data is envelope.data or data == envelope.data:
        out["prev_hash"] = envelope.prev_hash
        out["hash"] = envelope.hash
    return out
