"""Undo with consent: a seat asks to return the game to an earlier version, the other
humans agree (bots agree at once), and the game is rewound, never across an event that
revealed or drew cards."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from core.commands import Acted, Part
from core.errors import Code, CommandError
from events.envelope import NewEvent
from events.store import stamp
from games.base import GameEvent
from projections.table import PLATFORM_EVENTS, Table, between_commands


class Undo(Part):
    def request_undo(self, game_id: str, seat: int, to_version: int, now: datetime, ttl_seconds: int) -> Acted:
        """Ask to return the game to ``to_version``. Bots agree at once; when no other
        human must agree, the game is rewound in the same command."""
        table = self.core.load(game_id)
        self._check_undo_target(table, to_version)
        if table.undo is not None and stamp(now) < table.undo.expires_at:
            raise CommandError(Code.UNDO_PENDING, "Another undo request is waiting for answers.")
        request_id = secrets.token_urlsafe(6)
        agreed = {seat} | {i for i, s in enumerate(table.seats) if s.bot}
        events = [
            NewEvent(
                "UndoRequested",
                {
                    "id": request_id,
                    "to_version": to_version,
                    "expires_at": stamp(now + timedelta(seconds=ttl_seconds)),
                    "accepted": sorted(agreed),
                },
                seat,
                "human",
            )
        ]
        if agreed >= set(range(len(table.seats))):
            events.append(NewEvent("Rewound", {"to_version": to_version, "request": request_id}))
        return self.core.append_system(table, events)

    def answer_undo(self, game_id: str, seat: int, request_id: str, accept: bool, now: datetime) -> Acted:
        table = self.core.load(game_id)
        request = table.undo
        if request is None or request.id != request_id:
            raise CommandError(Code.NOT_FOUND, "There is no such pending undo request (an action since clears it).")
        if stamp(now) >= request.expires_at:
            raise CommandError(Code.UNDO_EXPIRED, "That undo request has expired.")
        if seat in request.accepted:
            raise CommandError(Code.INVALID_REQUEST, "Your seat has already agreed to this undo.")
        events = [NewEvent("UndoAnswered", {"id": request_id, "accept": accept}, seat, "human")]
        if accept and request.accepted | {seat} >= set(range(len(table.seats))):
            self._check_undo_target(table, request.to_version)
            events.append(NewEvent("Rewound", {"to_version": request.to_version, "request": request_id}))
        return self.core.append_system(table, events)

    def undo_offer(self, table: Table, seat: int, now: datetime) -> dict[str, object]:
        """Whether ``seat`` could ask to undo its last move now, so a client offers undo
        only when the request can succeed: ``{"to_version": n}`` (the version before that
        move), or ``{"to_version": None, "reason": ...}`` in words. Reads the log from
        the last event undo cannot cross, which is as far back as an undo can go."""
        if table.status != "active":
            return {"to_version": None, "reason": "Only a game in play can be undone."}
        if table.seats[seat].left is not None:
            return {"to_version": None, "reason": "Your seat has left the game."}
        if table.undo is not None and stamp(now) < table.undo.expires_at:
            return {"to_version": None, "reason": "An undo request is already waiting for answers."}
        moves: list[int] = []
        for envelope in self.core.store.read(table.game_id, after=table.last_irreversible):
            if envelope.type == "Rewound":
                moves = [v for v in moves if v <= envelope.data["to_version"]]
            elif envelope.type == "ActionTaken" and envelope.seat == seat and envelope.actor != "timeout":
                moves.append(envelope.version)
        if not moves:
            reason = (
                "Your moves so far cannot be undone: a card was drawn or revealed since your last one."
                if seat in table.acted
                else "You have no move to undo yet."
            )
            return {"to_version": None, "reason": reason}
        return {"to_version": moves[-1] - 1}

    def _check_undo_target(self, table: Table, to_version: int) -> None:
        if table.status != "active":
            raise CommandError(
                Code.GAME_OVER if table.status == "finished" else Code.GAME_NOT_STARTED,
                "Only a game in play can be undone.",
            )
        if not 1 <= to_version < table.version:
            raise CommandError(Code.INVALID_REQUEST, f"to_version must be between 1 and {table.version - 1}.")
        later = self.core.store.read(table.game_id, after=to_version)
        game = table.game
        for envelope in later:
            if envelope.type in PLATFORM_EVENTS:
                continue
            if game.irreversible(GameEvent(envelope.type, envelope.data, envelope.seat)):
                raise CommandError(
                    Code.IRREVERSIBLE,
                    f"Undo cannot cross the {envelope.type} at version {envelope.version}: it revealed or drew cards.",
                    irreversible_version=envelope.version,
                    irreversible_type=envelope.type,
                )
        if not between_commands(later[0].type):
            raise CommandError(Code.INVALID_REQUEST, f"Version {to_version} is in the middle of a command.")
