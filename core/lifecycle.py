"""The endings besides the rules': resign, abort, a clock that runs out, a seat
abandoned to the turn timer, open seats that expire; and the outcome that says how a
game ended. The settings and the clocks are folded in ``projections.lifecycle``.

Every ending is appended as one batch, like an action: the event that names it
(``Resigned``, ``Aborted``, ``FlagFell``, ``Abandoned``) and, when the game is over with
it, the ``SeedRevealed`` whose outcome says so. A seat that leaves a game that goes on
(more than one competitor left) is played from then on by the greedy bot.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from core.commands import Acted, Part
from core.errors import Code, CommandError
from events.envelope import NewEvent
from projections.lifecycle import (
    ON_LEAVE,
    ending_outcome,
    final_outcome,
    leaving_reason,
    ms,
    shared_result_refusal,
)
from projections.table import Table


class Lifecycle(Part):
    """Resign, abort, flag, abandon, expire: the endings a seat or the scheduler asks for."""

    def act(
        self,
        game_id: str,
        seat: int,
        action: Mapping[str, Any],
        expected_version: int,
        command_id: str | None = None,
        actor: str = "human",
    ) -> Acted:
        """As ``Commands.act``; a move whose seat's clock has run out is refused, and the
        flag falls there and then (the scheduler's check may not have run yet)."""
        try:
            return self.core.act(game_id, seat, action, expected_version, command_id, actor)
        except CommandError as error:
            if error.code == Code.OUT_OF_TIME:
                self.flag(game_id, seat)
            raise

    def resign(self, game_id: str, seat: int) -> Acted:
        """``seat`` resigns: with one competitor left, that one wins; with more, the seat
        is out (or its bot plays on, by the game's ``on_leave``). Once only."""
        table = self.core.load(game_id)
        self._playing(table, seat, "resign")
        return self._leave(table, seat, "Resigned", "resignation", {"seat": seat}, actor="human")

    def offer_draw(self, game_id: str, seat: int) -> Acted:
        """``seat`` offers to end the game with a shared result among the seats still in:
        each of the others must accept (``answer_draw``); a move by anyone withdraws it."""
        table = self.core.load(game_id)
        self._playing(table, seat, "offer a draw")
        refusal = shared_result_refusal(table)
        if refusal is not None:
            raise CommandError(Code.NO_SHARED_RESULT, refusal)
        if table.draw is not None:
            raise CommandError(Code.DRAW_PENDING, "An offer to end the game is already waiting for answers.")
        others = [i for i in table.competing() if i != seat]
        if any(table.seats[i].bot is not None for i in others):
            raise CommandError(
                Code.INVALID_REQUEST, "The bots at this table never agree to end the game: they play on to the end."
            )
        offer = secrets.token_urlsafe(6)
        return self.core.append_system(table, [NewEvent("DrawOffered", {"id": offer, "by": seat}, seat, "human")])

    def answer_draw(self, game_id: str, seat: int, offer: str, accept: bool) -> Acted:
        """``seat`` accepts or declines the pending offer (its maker's decline withdraws it);
        the last acceptance ends the game, every seat still in sharing the result."""
        table = self.core.load(game_id)
        self._playing(table, seat, "answer an offer")
        pending = table.draw
        if pending is None or pending.id != offer:
            raise CommandError(Code.NOT_FOUND, "There is no such pending offer (a move since withdraws it).")
        if accept and seat in pending.accepted:
            raise CommandError(Code.INVALID_REQUEST, "Your seat has already agreed to this offer.")
        events = [NewEvent("DrawAnswered", {"id": offer, "accept": accept}, seat, "human")]
        if accept and set(table.competing()) <= pending.accepted | {seat}:
            agreed = replace(table, draw=replace(pending, accepted=pending.accepted | {seat}))
            outcome = ending_outcome(agreed, NewEvent("DrawAgreed", {"id": offer}), None)
            events += [
                NewEvent("DrawAgreed", {"id": offer}),
                NewEvent("SeedRevealed", {"outcome": outcome, "seed": self.core.vault.seed(game_id)}),
            ]
        return self.core.append_system(table, events)

    def abort(self, game_id: str, seat: int | None, reason: str | None = None) -> Acted:
        """End the game with no result: while a seat is open, or before every seat has
        moved once. ``seat`` None: the scheduler (open seats expired)."""
        table = self.core.load(game_id)
        if table.status == "finished":
            raise CommandError(Code.GAME_OVER, "The game is over.", version=table.version)
        if not table.may_abort():
            raise CommandError(
                Code.GAME_IN_PLAY,
                "Every seat has moved: the game can no longer be aborted (a seat may resign).",
            )
        why = reason or (f"Aborted by seat {seat + 1}." if seat is not None else "Aborted.")
        outcome = final_outcome(table, {"winners": [], "scores": [], "reason": why}, "abort")
        events = [
            NewEvent("Aborted", {"by": seat, "reason": why}, seat, "human" if seat is not None else "system"),
            NewEvent("SeedRevealed", {"outcome": outcome, "seed": self.core.vault.seed(game_id)}),
        ]
        return self.core.append_system(table, events)

    def expire_open(self, game_id: str) -> str:
        """The scheduler's check once a game's open seats have had their time: a game still
        open then is aborted."""
        table = self.core.tables.load(game_id)
        if table is None or table.status != "open":
            return "started or gone"
        settings = table.lifecycle or {}
        if ms(table.created_at) + int(settings.get("open_seconds", 0)) * 1000 > self.core.now_ms():
            return "not yet"
        try:
            self.abort(game_id, None, "Aborted: its open seats were not taken in time.")
        except CommandError as error:
            if error.code in (Code.STALE_VERSION, Code.GAME_OVER):
                return "moved on"
            raise
        return "aborted"

    def flag(self, game_id: str, seat: int) -> str:
        """The scheduler's check at a clock's deadline: a seat whose time has run out
        leaves the game (``FlagFell``); one that moved meanwhile keeps playing."""
        table = self.core.tables.load(game_id)
        if table is None or table.status != "active" or table.clock is None or table.seats[seat].left:
            return "moved on"
        if table.clock.since[seat] is None or table.clock.left(seat, self.core.now_ms()) > 0:
            return "time left"
        try:
            self._leave(table, seat, "FlagFell", "time", {"seat": seat}, actor="system")
        except CommandError as error:
            if error.code in (Code.STALE_VERSION, Code.GAME_OVER):
                return "moved on"
            raise
        return "flag fell"

    def out_of_time(self, table: Table, seat: int) -> bool:
        """Whether ``seat``'s clock has run out now (its move is refused: the flag falls)."""
        return (
            table.clock is not None
            and table.status == "active"
            and table.clock.since[seat] is not None
            and table.clock.left(seat, self.core.now_ms()) <= 0
        )

    def abandoned(self, game_id: str, seat: int) -> str:
        """After the turn timer played for ``seat``: a seat whose last ``abandon_after``
        turns the timer played, with no move of its own, has abandoned the game (a turn of
        several moves counts once)."""
        table = self.core.tables.load(game_id)
        limit = (table.lifecycle or {}).get("abandon_after") if table is not None else None
        if table is None or table.status != "active" or not limit or table.seats[seat].left:
            return "playing"
        if table.idle[seat] < int(limit):
            return "playing"
        try:
            self._leave(table, seat, "Abandoned", "abandonment", {"seat": seat, "timeouts": table.idle[seat]}, "system")
        except CommandError as error:
            if error.code in (Code.STALE_VERSION, Code.GAME_OVER):
                return "moved on"
            raise
        return "abandoned"

    def _playing(self, table: Table, seat: int, what: str) -> None:
        if table.status == "finished":
            raise CommandError(Code.GAME_OVER, "The game is over.", version=table.version)
        if table.status == "open":
            raise CommandError(Code.GAME_NOT_STARTED, f"The game has not started: abort it rather than {what}.")
        if table.seats[seat].left is not None:
            raise CommandError(Code.SEAT_LEFT, f"Seat {seat + 1} has already left the game ({table.seats[seat].left}).")

    def _leave(self, table: Table, seat: int, event: str, ending: str, data: dict[str, Any], actor: str) -> Acted:
        events = [NewEvent(event, data, seat, actor)]
        staying = [s for s in table.competing() if s != seat]
        if len(staying) <= 1:
            result = {
                "winners": staying,
                "scores": [],
                "reason": leaving_reason(ending, seat, staying),
            }
            outcome = final_outcome(table, result, ending, left=[seat])
            events.append(NewEvent("SeedRevealed", {"outcome": outcome, "seed": self.core.vault.seed(table.game_id)}))
        return self.core.append_system(table, events)


def check_lifecycle(
    turn_seconds: int | None,
    clock: Mapping[str, Any] | None,
    on_leave: str,
    open_seconds: int | None,
) -> None:
    """Refuse settings that cannot hold (the schema checks types and ranges)."""
    if clock is not None and turn_seconds:
        raise CommandError(Code.INVALID_REQUEST, "A game has a clock or a per-turn limit, not both.")
    if on_leave not in ON_LEAVE:
        raise CommandError(Code.INVALID_REQUEST, f"on_leave must be one of {', '.join(ON_LEAVE)}.")
    if clock is not None and (int(clock["initial"]) <= 0 or int(clock["increment"]) < 0):
        raise CommandError(Code.INVALID_REQUEST, "A clock needs a positive initial time and an increment of 0 or more.")
    if open_seconds is not None and open_seconds <= 0:
        raise CommandError(Code.INVALID_REQUEST, "open_seconds must be positive.")
