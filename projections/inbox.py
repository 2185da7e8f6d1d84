"""Each player's inbox: one stream of what concerns the player in any of its
games, which ``GET /v1/players/me/stream`` sends over SSE, resumable by the stream's
entry ids.

The projector fills it as it applies the feed: comparing a game's summary as the read
models last held it with the table now, it notes, for every player holding a seat,

* ``seated``: the player now holds a seat of the game (created in it, joined, claimed);
* ``seat_filled``: another seat of the player's game was filled;
* ``game_started``: the last open seat was filled;
* ``your_turn``: the player's seat is to act;
* ``undo_requested``: another seat asks for an undo the player has not answered;
* ``draw_offered``: another seat offers to end the game with a shared result, and the
  player has not answered;
* ``game_ended``: the game is over (its outcome is in the game);
* ``rematch_offered``: a seat took its seat in the rematch of a game the player played,
  and the player's own seat there waits for it (``of``: the game rematched; ``by``: the
  seat that took its seat).

A notice is noted before the models move, so a projector killed in between notes it
again when it applies the game anew: delivery is at least once, and each notice names
its game and version so that a client can tell a repeat. A rebuild of the read models
notes nothing. The inbox keeps a player's latest ``KEPT`` notices.
"""

from __future__ import annotations

import json
from typing import Any

from events.keys import clustered
from projections.table import Table

KEPT = 1000


def notices(previous: dict[str, Any] | None, table: Table) -> list[tuple[str, dict[str, Any]]]:
    """(player id, notice) for each thing that concerns a seated player between the game
    as ``previous`` (a read-model summary, None if the game is new to the models) and
    ``table``."""
    out: list[tuple[str, dict[str, Any]]] = []
    before_seats = {s["seat"]: s for s in previous["seats"]} if previous else {}
    before_open = sum(1 for s in before_seats.values() if s.get("open"))
    now_open = sum(1 for s in table.seats if s.open)
    to_act = table.to_act() if table.status == "active" else frozenset()
    for seat, held in enumerate(table.seats):
        player = held.player
        if player is None:
            continue
        base = {"game": table.game_id, "kind": table.kind, "version": table.version, "seat": seat}
        had = before_seats.get(seat, {}).get("player") == player
        if not had:
            out.append((player, {"type": "seated", **base}))
        elif now_open < before_open:
            out.append((player, {"type": "seat_filled", **base}))
        if previous is not None and previous.get("status") == "open" and table.status == "active":
            out.append((player, {"type": "game_started", **base}))
        if seat in to_act and held.left is None:  # (a bot plays a seat that left)
            out.append((player, {"type": "your_turn", **base}))
        undo = table.undo
        if undo is not None and undo.by != seat and seat not in undo.accepted and table.status == "active":
            out.append((player, {"type": "undo_requested", **base, "request": undo.id, "by": undo.by}))
        draw = table.draw
        if draw is not None and seat not in draw.accepted and table.status == "active":
            out.append((player, {"type": "draw_offered", **base, "offer": draw.id, "by": draw.by}))
        if table.status == "finished" and (previous is None or previous.get("status") != "finished"):
            out.append((player, {"type": "game_ended", **base, "outcome": table.outcome}))
    if table.rematch_of is not None and table.status == "open":
        # Every human seat of a rematch starts open; one fewer open is one more acceptance.
        taken = [i for i, s in enumerate(table.seats) if s.bot is None and not s.open]
        if previous is not None:
            taken = [i for i in taken if before_seats.get(i, {}).get("open")]
        for seat, held in enumerate(table.seats):
            if taken and held.open and held.reserved_for is not None:
                notice: dict[str, Any] = {"type": "rematch_offered", "game": table.game_id, "kind": table.kind}
                notice |= {"version": table.version, "seat": seat, "of": table.rematch_of, "by": taken[0]}
                out.append((held.reserved_for, notice))
    return out


class Inbox:
    def __init__(self, client: Any, prefix: str = "ts") -> None:
        self.redis = client
        self.prefix = prefix

    def key(self, player_id: str) -> str:
        # Its own slot on a cluster: a player's notices come from games of every partition.
        return (
            f"{self.prefix}:{{pl.{player_id}}}:inbox"
            if clustered(self.redis)
            else f"{self.prefix}:pl:{player_id}:inbox"
        )

    def note(self, previous: dict[str, Any] | None, table: Table) -> list[tuple[str, dict[str, Any]]]:
        """Note each player's notices (``notices``) in its inbox; what was noted, (player,
        notice), for whatever else tells players (webhooks)."""
        found = notices(previous, table)
        if not found:
            return found
        with self.redis.pipeline(transaction=False) as pipe:
            for player, notice in found:
                pipe.xadd(self.key(player), {"n": json.dumps(notice)}, maxlen=KEPT, approximate=True)
            pipe.execute()
        return found

    def read(
        self, player_id: str, after: str, block_ms: int | None, count: int = 100
    ) -> list[tuple[str, dict[str, Any]]]:
        """The notices after entry id ``after`` ("0": from the oldest kept), waiting up to
        ``block_ms`` for one (None: not at all)."""
        reply = self.redis.xread({self.key(player_id): after}, count=count, block=block_ms)
        return [
            (entry_id.decode(), json.loads(fields[b"n"])) for _, entries in reply or [] for entry_id, fields in entries
        ]

    def last_id(self, player_id: str) -> str:
        """The id of the newest notice ("0-0" when there is none): where a new stream starts."""
        last = self.redis.xrevrange(self.key(player_id), count=1)
        return last[0][0].decode() if last else "0-0"

    def push(self, player_id: str, notice: dict[str, Any]) -> str:
        """Note ``notice`` in the player's inbox at once (a chat message, which no game
        event carries); its entry id."""
        entry_id = self.redis.xadd(self.key(player_id), {"n": json.dumps(notice)}, maxlen=KEPT, approximate=True)
        return entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
