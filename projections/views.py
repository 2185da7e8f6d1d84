"""What one seat may see of a table and of its events.

Before a game ends, the game's ``view``/``redact`` decide what a seat sees; an
``ActionTaken`` shows its action only to the seat that acted, and the random draws
it records to nobody; the cards of a fixed deal and a fork's starting state stay
hidden. ``shown_data`` is that rule. What a spectator is shown is also what the hash
chain commits to in the open: everything else enters it only as a commitment
(``events.commitments``), so every event's hash is public from the moment it is
appended. Once the game is over, everything is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.commitments import seal
from events.envelope import Envelope
from games.base import Game, GameEvent
from projections.table import PLATFORM_EVENTS, Table, public_options


def board(table: Table, seat: int | None) -> dict[str, Any]:
    """``seat``'s view, with its ``kind`` (the contract's View tells kinds apart by it);
    once the game is over, with every hand shown (the seed is out, so nothing is secret
    any more, and a spectator wants to see how it ended)."""
    if table.status == "finished":
        return {"kind": table.kind, **table.game.final_view(table.state, seat)}
    return {"kind": table.kind, **table.game.view(table.state, seat)}


def shown_data(game: Game, type_: str, event_seat: int | None, data: Mapping[str, Any], seat: int | None) -> Any:
    """An event's data as ``seat`` (None: a spectator) may see it while the game is in play."""
    if type_ == "ActionTaken":
        return {"action": data["action"]} if seat is not None and seat == event_seat else {}
    if type_ == "ForkedFrom":
        shown = {k: v for k, v in data.items() if k not in ("state", "draws")}
        shown["options"] = public_options(game, data["options"], finished=False)
        return shown
    if type_ == "GameCreated":
        shown = {k: v for k, v in data.items() if k != "draws"}
        shown["options"] = public_options(game, data["options"], finished=False)
        return shown
    if type_ in PLATFORM_EVENTS:
        return data
    return game.redact(GameEvent(type_, data, event_seat), seat).data


def sealed_data(
    game: Game, type_: str, event_seat: int | None, data: Mapping[str, Any], seed: str, version: int
) -> dict[str, Any] | None:
    """What the chain hashes in place of ``data`` (None: the data itself, nothing in it hidden)."""
    return seal(data, shown_data(game, type_, event_seat, data, None), seed, version)


def event_for(table: Table, envelope: Envelope, seat: int | None) -> dict[str, Any]:
    """The envelope as ``seat`` may see it, given the table it belongs to (its status
    decides whether secrets are still kept)."""
    finished = table.status == "finished"
    data: Any = envelope.data
    if not finished:
        data = shown_data(table.game, envelope.type, envelope.seat, envelope.data, seat)
    out: dict[str, Any] = {
        "schema": envelope.schema,
        "version": envelope.version,
        "type": envelope.type,
        "seat": envelope.seat,
        "actor": envelope.actor,
        "data": data,
        "at": envelope.at,
        "command_id": envelope.command_id,
        "prev_hash": envelope.prev_hash,
        "hash": envelope.hash,
    }
    if envelope.sealed is not None:
        out["sealed"] = envelope.sealed
    if table.schema == 1 and not finished:
        # Schema 1 hashed hidden values whole: a game begun under it shows no hash (its
        # later events' prev_hash included) until it is over.
        out["prev_hash"] = out["hash"] = None
    return out
