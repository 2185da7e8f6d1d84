"""The command handler's core: load a game, let the game decide, append. Free of
Flask; the API, the workers and the CLI all act through it (``core.handler.Handler``
adds creation, undo and forks on top).

Every command is appended as one atomic batch: an ``ActionTaken`` (so an audit
can re-decide it) followed by the game's events and, when the game is over, a
``SeedRevealed`` that reveals the seed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from core.errors import Code, CommandError, log_damaged
from core.jobs import QueueUnavailable
from core.vault import Secrets
from events.envelope import Envelope, NewEvent
from events.ledger import Ledger, LedgerUnavailable
from events.store import CommandReused, EventStore, LogDamaged, VersionConflict
from games.base import Decision, Game, GameEvent, IllegalAction, State
from games.rng import Draws, derive_rng
from projections.lifecycle import final_outcome, ms
from projections.table import PLATFORM_EVENTS, Table
from projections.tables import Tables
from projections.views import sealed_data

log = logging.getLogger(__name__)


class Scheduler(Protocol):
    """Told after every append, so bots and timers can be scheduled."""

    def after_append(self, table: Table) -> None: ...


@dataclass(frozen=True)
class Created:
    table: Table
    tokens: dict[int, str]
    replicated: bool = True


@dataclass(frozen=True)
class Acted:
    table: Table
    envelopes: tuple[Envelope, ...]
    duplicate: bool = False
    replicated: bool = True
    """False: acknowledged before any replica confirmed it (``Commands.unreplicated``)."""

    @property
    def version(self) -> int:
        return self.envelopes[-1].version if self.envelopes else self.table.version


class Commands:
    """Load, decide, append: the part of the handler every command goes through."""

    def __init__(
        self,
        store: EventStore,
        tables: Tables,
        vault: Secrets,
        scheduler: Scheduler | None = None,
        ledger: Ledger | None = None,
    ) -> None:
        self.store = store
        self.tables = tables
        self.vault = vault
        self.scheduler = scheduler
        self.ledger = ledger
        self.unreplicated = REFUSE
        """What a change that can be asked again gets when fewer replicas than asked confirm
        it in time: ``refuse`` (503, the change written but not acknowledged) or
        ``acknowledge`` (acknowledged, marked unreplicated in the answer and the audit)."""

    def now_ms(self) -> int:
        """Now, by the clock the store stamps events with (game clocks are kept by it)."""
        return ms(self.store.now())

    def confirm(self, game_id: str, first: int, last: int, replicated: bool) -> bool:
        """Whether versions ``first`` to ``last``, a change that can be asked again (a
        command with an id: a client's Idempotency-Key, a bot's or the timer's), are
        acknowledged as replicated. Fewer replicas than asked confirmed them in time:
        refused (``refuse``: its bookkeeping is done, and a retry with the same id answers
        as a duplicate once a replica holds it), or acknowledged on the master alone and
        recorded so, for the answer and the audit (``acknowledge``). A change that cannot
        be asked again (a join, a fork, a create without a key: each hands out tokens only
        once) is answered as written on the master."""
        if replicated:
            return True
        if self.unreplicated != ACKNOWLEDGE:
            raise CommandError(
                Code.UNAVAILABLE,
                "The change was written, but no replica confirmed its copy in time, so it is not acknowledged: "
                "send the same request again with the same Idempotency-Key to learn whether it stands.",
            )
        self.store.note_unreplicated(game_id, first, last)
        return False

    # -- acting ---------------------------------------------------------------

    def load(self, game_id: str) -> Table:
        try:
            table = self.tables.load(game_id)
        except LogDamaged as damage:
            raise log_damaged(game_id, damage.version, damage.head_version) from None
        if table is None:
            raise CommandError(Code.NOT_FOUND, f"There is no game '{game_id}'.")
        return table

    def act(
        self,
        game_id: str,
        seat: int,
        action: Mapping[str, Any],
        expected_version: int,
        command_id: str | None = None,
        actor: str = "human",
    ) -> Acted:
        """Load, decide, append: ``seat``'s ``action`` on the game at ``expected_version``."""
        command = Command(seat, action, expected_version, command_id, actor)
        table, cached = self._table_at(game_id, expected_version)
        try:
            events, after = self._decided(table, command)
        except CommandError:
            done = self._carried_out(table, command)
            if done is not None:
                return done
            if not cached:
                raise
            table = self.load(game_id)  # a refusal is given on the log's latest version
            events, after = self._decided(table, command)
        return self._appended(table, events, command_id, ACTED_FIRST, command.fingerprint, after)

    def _table_at(self, game_id: str, version: int) -> tuple[Table, bool]:
        """The table to decide on, and whether it is this process's cached one. The table
        this process last saw at the client's version is the game at that version, so it
        is decided on without reading the log: when the log has moved on since, the append
        is refused and the client's version is the stale one."""
        cached = self.tables.cached(game_id)
        if cached is not None and cached.version == version:
            return cached, True
        return self.load(game_id), False

    def _carried_out(self, table: Table, command: Command) -> Acted | None:
        """A retry of a command already carried out, answered as it was (a command seen
        before is a duplicate, not a conflict); its key used for another request is refused."""
        if command.id is None:
            return None
        try:
            earlier = self.store.command_result(table.game_id, command.id, command.fingerprint)
        except CommandReused:
            raise _key_reused() from None
        if earlier is None:
            return None
        replicated = self.confirm(table.game_id, earlier.first_version, earlier.last_version, earlier.replicated)
        return replace(self._replayed(table, earlier.first_version, earlier.last_version), replicated=replicated)

    def _decided(self, table: Table, command: Command) -> tuple[list[NewEvent], State]:
        """The events of ``command`` on ``table`` and the game's state after them, or the
        refusal. The platform checks only what is its own; the game's ``decision`` checks
        the action."""
        for check in PLATFORM_CHECKS:
            check(table, command, self.now_ms)
        seed = self.vault.seed(table.game_id)
        rng = derive_rng(seed, table.version + 1, table.recipe)
        decided = game_decision(table, command, rng)
        events = [
            NewEvent("ActionTaken", {"action": dict(command.action), **draws_record(rng)}, command.seat, command.actor)
        ]
        events += [new_event(e, command.actor) for e in decided.events]
        result = table.game.outcome(decided.state)
        if result is not None:
            if table.lifecycle is not None:  # an older game's outcome stays as its rules gave it
                result = final_outcome(table, result, "rules", command.seat, command.actor)
            events.append(NewEvent("SeedRevealed", {"outcome": result, "seed": seed}))
        return events, decided.state

    def append_system(self, table: Table, events: Sequence[NewEvent], command_id: str | None = None) -> Acted:
        """Append platform events (undo, expiry) after ``table``'s version."""
        return self._appended(table, events, command_id, "The game moved on to version {}.")

    def _appended(
        self,
        table: Table,
        events: Sequence[NewEvent],
        command_id: str | None,
        conflict_detail: str,
        fingerprint: str | None = None,
        decided: State | None = None,
    ) -> Acted:
        """Append after ``table``'s version; a log that moved on is ``stale_version``, with
        ``conflict_detail`` naming the current version; ``command_id`` seen with a request
        other than ``fingerprint``'s is ``idempotency_key_reused``. ``decided``: the game's
        state after ``events``, as the decision left it (they are not folded again)."""
        try:
            result = self.store.append(
                table.game_id,
                self.sealed(table, events),
                table.version,
                command_id,
                prev_hash=table.head_hash,
                fingerprint=fingerprint,
            )
        except VersionConflict as conflict:
            raise CommandError(
                Code.STALE_VERSION, conflict_detail.format(conflict.current), version=conflict.current
            ) from None
        except CommandReused:
            raise _key_reused() from None
        if result.duplicate:
            replicated = self.confirm(table.game_id, result.first_version, result.last_version, result.replicated)
            return replace(self._replayed(table, result.first_version, result.last_version), replicated=replicated)
        new = self.tables.advance(table, list(result.envelopes), decided)
        if new.status == "finished":
            self._on_the_ledger(new)
        self.scheduled(new)
        replicated = result.replicated
        if command_id is not None:
            replicated = self.confirm(table.game_id, result.first_version, result.last_version, result.replicated)
        return Acted(new, result.envelopes, replicated=replicated)

    def record_finished(self, table: Table) -> dict[str, Any] | None:
        """Put a finished game's final head on the public ledger (once)."""
        if self.ledger is None or table.status != "finished":
            return None
        return self.ledger.record(table.game_id, table.kind, table.version, table.head_hash, table.updated_at)

    def _on_the_ledger(self, table: Table) -> None:
        """The game that just ended on the ledger, if the ledger can be written now. The
        ledger is one slot, and its node being away must not fail the move that ended the
        game (appended, and answered to its player): the projector records every finished
        game the ledger lacks when it applies it, and tries again until the ledger answers."""
        try:
            self.record_finished(table)
        except LedgerUnavailable as error:
            log.warning("game %s ended; the projector will put it on the ledger: %s", table.game_id, error)

    def sealed(self, table: Table, events: Sequence[NewEvent]) -> list[NewEvent]:
        """``events`` ready to follow ``table``'s version, hidden values sealed."""
        return seal(table.game, self.vault.seed(table.game_id), events, table.version + 1)

    def _replayed(self, table: Table, first: int, last: int) -> Acted:
        envelopes = self.store.read(table.game_id, after=first - 1, limit=last - first + 1)
        current = self.tables.load(table.game_id) or table
        return Acted(current, tuple(envelopes), duplicate=True)

    def scheduled(self, table: Table) -> None:
        """The jobs the append calls for (bot turns, timers). A queue away fails no change:
        the change is written, and the reconcile enqueues its jobs once the queue is back."""
        if self.scheduler is None:
            return
        try:
            self.scheduler.after_append(table)
        except QueueUnavailable as error:
            log.warning("game %s at version %s: jobs left to the reconcile: %s", table.game_id, table.version, error)


class Part:
    """A group of commands built on the core: each loads, decides and appends through it."""

    def __init__(self, core: Commands) -> None:
        self.core = core


@dataclass(frozen=True)
class Command:
    """What a seat (a human, a bot or the turn timer) asks of a game."""

    seat: int
    action: Any
    expected_version: int
    id: str | None = None
    actor: str = "human"

    @property
    def fingerprint(self) -> str | None:
        """A client's key is bound to its request; bots and the turn timer share one command
        id per seat and version whoever of them plays first, so theirs is bound to nothing."""
        if self.id is None or self.actor != "human":
            return None
        return request_fingerprint(self.seat, self.action, self.expected_version)


ACTED_FIRST = "Someone acted first: the game is at version {}; reload and try again."


# -- the platform's own checks, in order: each refuses a command or lets it through -----


def still_in_play(table: Table, command: Command, now_ms: Callable[[], int]) -> None:
    if table.status == "finished":
        raise CommandError(Code.GAME_OVER, "The game is over.", version=table.version)
    if table.status == "open":
        raise CommandError(Code.GAME_NOT_STARTED, "The game starts when every seat is taken.")


def at_the_client_s_version(table: Table, command: Command, now_ms: Callable[[], int]) -> None:
    if command.expected_version != table.version:
        raise CommandError(
            Code.STALE_VERSION,
            f"The game is at version {table.version}, not {command.expected_version}; reload and try again.",
            version=table.version,
        )


def seat_still_held(table: Table, command: Command, now_ms: Callable[[], int]) -> None:
    seat = command.seat
    if command.actor == "human" and 0 <= seat < len(table.seats) and table.seats[seat].left is not None:
        raise CommandError(
            Code.SEAT_LEFT, f"Seat {seat + 1} has left the game ({table.seats[seat].left}): a bot makes its moves."
        )


def time_left(table: Table, command: Command, now_ms: Callable[[], int]) -> None:
    seat = command.seat
    if table.clock is not None and seat in table.to_act() and table.clock.left(seat, now_ms()) <= 0:
        raise CommandError(Code.OUT_OF_TIME, f"Seat {seat + 1}'s clock has run out.", seat=seat)


PLATFORM_CHECKS = (still_in_play, at_the_client_s_version, seat_still_held, time_left)


def game_decision(table: Table, command: Command, rng: Any) -> Decision:
    """The game's decision on the command. The game's own refusal reaches the client as the
    game gave it: a code of the platform's set (not_your_turn, game_over) as itself, any
    other as an illegal action naming the game's code, always with the game's sentence."""
    game, seat = table.game, command.seat
    action = dict(command.action) if isinstance(command.action, Mapping) else command.action
    try:
        return game.decision(table.state, seat, action, rng)
    except IllegalAction as error:
        if error.code == Code.NOT_YOUR_TURN:
            raise CommandError(error.code, error.reason, to_act=sorted(table.to_act())) from None
        if error.code in GAME_CODES:
            raise CommandError(error.code, error.reason) from None
        extra = {} if error.code == Code.ILLEGAL_ACTION else {"rule": error.code}
        raise CommandError(
            Code.ILLEGAL_ACTION, error.reason, legal_actions=game.legal_actions(table.state, seat), **extra
        ) from None


def request_fingerprint(seat: int, action: Any, expected_version: int) -> str:
    """SHA-256 of the canonical JSON of what a client asked: a retry with its key must ask it again.

    NaN is let through (Python's JSON reader accepts it), so that an action holding it is
    refused by the rules, as without a key, rather than failing here."""
    text = json.dumps([seat, action, expected_version], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


# The refusals a game may give with a code of the platform's own.
GAME_CODES = frozenset({Code.NOT_YOUR_TURN, Code.GAME_OVER})


def _key_reused() -> CommandError:
    return CommandError(
        Code.IDEMPOTENCY_KEY_REUSED,
        "This Idempotency-Key was already used for a different action or version; "
        "send a new key for a new action (a retry must repeat the first request exactly).",
    )


def draws_record(rng: Any) -> dict[str, Any]:
    """The record of the random draws made through ``rng`` (recipe 2), for the log."""
    return {"draws": list(rng.draws)} if isinstance(rng, Draws) and rng.draws else {}


def seal(game: Game, seed: str, events: Sequence[NewEvent], first_version: int) -> list[NewEvent]:
    return [
        replace(e, sealed=sealed_data(game, e.type, e.seat, e.data, seed, first_version + offset))
        for offset, e in enumerate(events)
    ]


def new_event(event: GameEvent, actor: str) -> NewEvent:
    if event.type in PLATFORM_EVENTS:
        raise ValueError(f"a game may not emit the platform event {event.type}")
    return NewEvent(event.type, dict(event.data), event.seat, actor)


REFUSE, ACKNOWLEDGE = "refuse", "acknowledge"
"""The policies for a change fewer replicas than asked confirmed (``Commands.unreplicated``)."""


def new_game_id() -> str:
    """A new game's id: 72 random bits, URL-safe, never starting with "-" (a command line
    would read ``tablestream audit -x...`` as an option)."""
    while True:
        game_id = secrets.token_urlsafe(9)
        if not game_id.startswith("-"):
            return game_id
