"""What one seat may see of a table and of its events.

Before a game ends, the game's ``view``/``redact`` decide what a seat sees; an
``ActionTaken`` shows its action only to the seat that acted, and the random draws
it records to nobody; the cards of a fixed deal and a fork's starting state stay
hidden. ``shown_data`` is that rule. What a spectator is shown is also what the hash
chain commits to in the open: everything else enters it only as a commitment
(``events.commitments``), so every event's hash is public from the moment it is
appended. A seat is also given the *openings* of the commitments whose values it is shown
(``openings``), so that it checks its own cards against the chain as they arrive. Once
the game is over, everything is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.commitments import commitment_paths, located, salt, seal
from events.envelope import Envelope, canonical_json
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


def openings(sealed: Any, full: Any, shown: Any, seed: str, version: int) -> list[dict[str, Any]]:
    """The salts of the commitments in ``sealed`` whose values ``shown`` holds whole, at
    the same place: a seat's own cards, which it may check against the chain. A place
    shown as anything else (a count, a part of a list) gets none."""
    out = []
    for path in commitment_paths(sealed):
        found, value = located(shown, path)
        if found and canonical_json(value) == canonical_json(located(full, path)[1]):
            out.append({"path": list(path), "salt": salt(seed, version, path).hex()})
    return out


def event_for(table: Table, envelope: Envelope, seat: int | None, seed: str | None = None) -> dict[str, Any]:
    """The envelope as ``seat`` may see it, given the table it belongs to (its status
    decides whether secrets are still kept); with the game's ``seed``, a seat's event
    carries the openings of its own hidden values while the game is in play."""
    finished = table.status == "finished"
    data: Any = envelope.data
    opened: list[dict[str, Any]] = []
    if not finished:
        data = shown_data(table.game, envelope.type, envelope.seat, envelope.data, seat)
        if seat is not None and seed is not None and envelope.sealed is not None and envelope.schema >= 2:
            opened = openings(envelope.sealed, envelope.data, data, seed, envelope.version)
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
    if opened:
        out["openings"] = opened
    if table.schema == 1 and not finished:
        # Schema 1 hashed hidden values whole: a game begun under it shows no hash (its
        # later events' prev_hash included) until it is over.
        out["prev_hash"] = out["hash"] = None
    return out
