"""The command handler: load, check, decide, append. Free of Flask; the API, the
workers and the CLI all act through it.

Every command is appended as one atomic batch: an ``ActionTaken`` (so an audit
can re-decide it) followed by the game's events and, when the game is over, a
``SeedRevealed`` that reveals the seed.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from core.errors import CommandError
from core.vault import Secrets
from events.envelope import Envelope, NewEvent, canonical_json
from events.ledger import Ledger
from events.store import CommandReused, EventStore, VersionConflict
from games import registry
from games.base import Game, GameEvent, IllegalAction, InvalidOptions, State
from games.codec import encode
from games.rng import Draws, commitment, derive_rng
from projections.table import PLATFORM_EVENTS, Table, between_commands
from projections.tables import LogDamaged, Tables
from projections.views import sealed_data

BOT_LEVELS = ("random", "greedy", "ismcts")
MAX_NAME = 64


class Scheduler(Protocol):
    """Told after every append, so bots and timers can be scheduled."""

    def after_append(self, table: Table) -> None: ...


@dataclass(frozen=True)
class Created:
    table: Table
    tokens: dict[int, str]


@dataclass(frozen=True)
class Acted:
    table: Table
    envelopes: tuple[Envelope, ...]
    duplicate: bool = False

    @property
    def version(self) -> int:
        return self.envelopes[-1].version if self.envelopes else self.table.version


class Handler:
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

    # -- creating and joining -------------------------------------------------

    def create_game(
        self,
        kind: str,
        players: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        seed: str | None = None,
        command_id: str | None = None,
        forked_from: Mapping[str, Any] | None = None,
        turn_seconds: int | None = None,
    ) -> Created:
        if command_id is None:
            return self._create_game(kind, players, options, seed, None, forked_from, turn_seconds)
        request = [kind, [dict(p) for p in players], dict(options or {}), seed, forked_from, turn_seconds]
        fingerprint = hashlib.sha256(canonical_json(request).encode()).hexdigest()
        deadline = time.monotonic() + self.vault.CLAIM_SECONDS
        while (record := self.vault.claim_create(command_id, fingerprint)) is not None:
            if record["fingerprint"] != fingerprint:
                raise CommandError(
                    "idempotency_key_reused",
                    "This Idempotency-Key was used for a different request; use a new key for a new game.",
                )
            if record["game"] is not None:
                return Created(self.load(record["game"]), self.vault.created_tokens(command_id, record))
            if time.monotonic() > deadline:
                raise CommandError("request_in_progress", "A request with this Idempotency-Key is still running.")
            time.sleep(0.05)  # the first request with this key is creating the game
        try:
            created = self._create_game(kind, players, options, seed, command_id, forked_from, turn_seconds)
        except BaseException:
            self.vault.abandon_create(command_id)
            raise
        self.vault.finish_create(command_id, fingerprint, created.table.game_id, created.tokens)
        return created

    def _create_game(
        self,
        kind: str,
        players: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None,
        seed: str | None,
        command_id: str | None,
        forked_from: Mapping[str, Any] | None,
        turn_seconds: int | None,
    ) -> Created:
        game = registry.get(kind)
        if game is None:
            known = ", ".join(registry.keys())
            raise CommandError("unknown_kind", f"There is no game kind '{kind}'. Known kinds: {known}.")
        seats = _check_players(players)
        try:
            checked = game.validate_options(options, len(seats))
        except InvalidOptions as error:
            raise CommandError(
                "invalid_options",
                "The game cannot start: " + "; ".join(error.problems) + ".",
                problems=error.problems,
            ) from None
        chosen_seed = seed is not None
        seed = seed if seed is not None else secrets.token_hex(32)
        game_id = secrets.token_urlsafe(9)
        rng = derive_rng(seed, 1)
        opening = game.setup(checked, len(seats), rng)
        created = NewEvent(
            "GameCreated",
            {
                "game": game_id,
                "kind": kind,
                "options": checked,
                "seats": seats,
                "seed_commitment": commitment(seed),
                "fair_deal": game.fair_deal(checked) and not chosen_seed,
                "seed_chosen_by_creator": chosen_seed,
                "forked_from": dict(forked_from) if forked_from else None,
                "turn_seconds": turn_seconds,
                **_draws(rng),
            },
        )
        self.vault.set_seed(game_id, seed)
        events = _sealed(game, seed, [created, *(_new(e, "system") for e in opening)], 1)
        result = self.store.append(game_id, events, 0, command_id)
        table = self.tables.fold(game_id, None, list(result.envelopes))
        self.tables.remember(table)
        self.tables.snapshots.put(table)
        tokens = {i: self.vault.issue_token(game_id, i) for i, s in enumerate(seats) if not s["bot"] and not s["open"]}
        self._scheduled(table)
        return Created(table, tokens)

    def join(self, game_id: str, seat: int, name: str) -> tuple[Table, str]:
        table = self.load(game_id)
        if not 0 <= seat < len(table.seats):
            raise CommandError("not_found", f"Game {game_id} has no seat {seat}.")
        if not table.seats[seat].open:
            raise CommandError("seat_taken", f"Seat {seat} is not open.")
        name = _check_name(name)
        try:
            result = self.store.append(
                game_id,
                self._sealed(table, [NewEvent("SeatTaken", {"seat": seat, "name": name}, seat, "human")]),
                table.version,
                prev_hash=table.head_hash,
            )
        except VersionConflict:
            raise CommandError("seat_taken", f"Seat {seat} was taken by someone else; try another.") from None
        token = self.vault.issue_token(game_id, seat)
        table = self.tables.advance(table, list(result.envelopes))
        self._scheduled(table)
        return table, token

    # -- acting ---------------------------------------------------------------

    def load(self, game_id: str) -> Table:
        try:
            table = self.tables.load(game_id)
        except LogDamaged as damage:
            raise CommandError(
                "log_damaged",
                f"Game {game_id}'s log ends at version {damage.version} but was appended up to version "
                f"{damage.head_version}: events are missing. Nothing is served from it until the operator restores it.",
                version=damage.version,
                head_version=damage.head_version,
            ) from None
        if table is None:
            raise CommandError("not_found", f"There is no game '{game_id}'.")
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
        cached = self.tables.cached(game_id)
        # The table this process last saw at the client's version is the game at that
        # version, so it is decided on without reading the log: when the log has moved on
        # since, the append is refused and the client's version is the stale one.
        table = cached if cached is not None and cached.version == expected_version else self.load(game_id)
        # A client's key is bound to its request; bots and the turn timer share one command
        # id per seat and version whoever of them plays first, so theirs is bound to nothing.
        bound = command_id is not None and actor == "human"
        fingerprint = request_fingerprint(seat, action, expected_version) if bound else None
        try:
            events, after = self._decided(table, seat, action, expected_version, actor)
        except CommandError:
            if command_id is not None:
                try:
                    earlier = self.store.command_result(game_id, command_id, fingerprint)
                except CommandReused:
                    raise _key_reused() from None
                if earlier is not None:  # a retry of a command that was carried out
                    return self._replayed(table, earlier.first_version, earlier.last_version)
            if table is not cached:
                raise
            table = self.load(game_id)  # a refusal is given on the log's latest version
            events, after = self._decided(table, seat, action, expected_version, actor)
        # (a command seen before is answered as a duplicate, not as a conflict)
        return self._appended(
            table,
            events,
            command_id,
            "Someone acted first: the game is at version {}; reload and try again.",
            fingerprint,
            after,
        )

    def _decided(
        self, table: Table, seat: int, action: Mapping[str, Any], expected_version: int, actor: str
    ) -> tuple[list[NewEvent], State]:
        """The events of ``action`` by ``seat`` on ``table`` and the game's state after
        them, or the refusal. The platform checks only what is its own (the game's
        status, the client's version); the game's ``decision`` checks the action."""
        if table.status == "finished":
            raise CommandError("game_over", "The game is over.", version=table.version)
        if table.status == "open":
            raise CommandError("game_not_started", "The game starts when every seat is taken.")
        if expected_version != table.version:
            raise CommandError(
                "stale_version",
                f"The game is at version {table.version}, not {expected_version}; reload and try again.",
                version=table.version,
            )
        game = table.game
        rng = derive_rng(self.vault.seed(table.game_id), table.version + 1, table.recipe)
        try:
            decided = game.decision(table.state, seat, dict(action) if isinstance(action, Mapping) else action, rng)
        except IllegalAction as error:
            # The game's own refusal reaches the client as the game gave it: a code of the
            # platform's set (not_your_turn, game_over) as itself, any other as an illegal
            # action naming the game's code, always with the game's sentence.
            if error.code == "not_your_turn":
                raise CommandError(error.code, error.reason, to_act=sorted(table.to_act())) from None
            if error.code in GAME_CODES:
                raise CommandError(error.code, error.reason) from None
            extra = {} if error.code == "illegal_action" else {"rule": error.code}
            raise CommandError(
                "illegal_action", error.reason, legal_actions=game.legal_actions(table.state, seat), **extra
            ) from None
        events = [NewEvent("ActionTaken", {"action": dict(action), **_draws(rng)}, seat, actor)]
        events += [_new(e, actor) for e in decided.events]
        result = game.outcome(decided.state)
        if result is not None:
            events.append(NewEvent("SeedRevealed", {"outcome": result, "seed": self.vault.seed(table.game_id)}))
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
                self._sealed(table, events),
                table.version,
                command_id,
                prev_hash=table.head_hash,
                fingerprint=fingerprint,
            )
        except VersionConflict as conflict:
            raise CommandError(
                "stale_version", conflict_detail.format(conflict.current), version=conflict.current
            ) from None
        except CommandReused:
            raise _key_reused() from None
        if result.duplicate:
            return self._replayed(table, result.first_version, result.last_version)
        new = self.tables.advance(table, list(result.envelopes), decided)
        if new.status == "finished":
            self.record_finished(new)
        self._scheduled(new)
        return Acted(new, result.envelopes)

    def record_finished(self, table: Table) -> dict[str, Any] | None:
        """Put a finished game's final head on the public ledger (once)."""
        if self.ledger is None or table.status != "finished":
            return None
        return self.ledger.record(table.game_id, table.kind, table.version, table.head_hash, table.updated_at)

    # -- undo, with consent -----------------------------------------------------

    def request_undo(self, game_id: str, seat: int, to_version: int, now: datetime, ttl_seconds: int) -> Acted:
        """Ask to return the game to ``to_version``. Bots agree at once; when no other
        human must agree, the game is rewound in the same command."""
        table = self.load(game_id)
        self._check_undo_target(table, to_version)
        if table.undo is not None and _iso(now) < table.undo.expires_at:
            raise CommandError("undo_pending", "Another undo request is waiting for answers.")
        request_id = secrets.token_urlsafe(6)
        agreed = {seat} | {i for i, s in enumerate(table.seats) if s.bot}
        events = [
            NewEvent(
                "UndoRequested",
                {
                    "id": request_id,
                    "to_version": to_version,
                    "expires_at": _iso(now + timedelta(seconds=ttl_seconds)),
                    "accepted": sorted(agreed),
                },
                seat,
                "human",
            )
        ]
        if agreed >= set(range(len(table.seats))):
            events.append(NewEvent("Rewound", {"to_version": to_version, "request": request_id}))
        return self.append_system(table, events)

    def answer_undo(self, game_id: str, seat: int, request_id: str, accept: bool, now: datetime) -> Acted:
        table = self.load(game_id)
        request = table.undo
        if request is None or request.id != request_id:
            raise CommandError("not_found", "There is no such pending undo request (an action since clears it).")
        if _iso(now) >= request.expires_at:
            raise CommandError("undo_expired", "That undo request has expired.")
        if seat in request.accepted:
            raise CommandError("invalid_request", "Your seat has already agreed to this undo.")
        events = [NewEvent("UndoAnswered", {"id": request_id, "accept": accept}, seat, "human")]
        if accept and request.accepted | {seat} >= set(range(len(table.seats))):
            self._check_undo_target(table, request.to_version)
            events.append(NewEvent("Rewound", {"to_version": request.to_version, "request": request_id}))
        return self.append_system(table, events)

    def _check_undo_target(self, table: Table, to_version: int) -> None:
        if table.status != "active":
            raise CommandError(
                "game_over" if table.status == "finished" else "game_not_started", "Only a game in play can be undone."
            )
        if not 1 <= to_version < table.version:
            raise CommandError("invalid_request", f"to_version must be between 1 and {table.version - 1}.")
        later = self.store.read(table.game_id, after=to_version)
        game = table.game
        for envelope in later:
            if envelope.type in PLATFORM_EVENTS:
                continue
            if game.irreversible(GameEvent(envelope.type, envelope.data, envelope.seat)):
                raise CommandError(
                    "irreversible",
                    f"Undo cannot cross the {envelope.type} at version {envelope.version}: it revealed or drew cards.",
                    irreversible_version=envelope.version,
                    irreversible_type=envelope.type,
                )
        if not between_commands(later[0].type):
            raise CommandError("invalid_request", f"Version {to_version} is in the middle of a command.")

    # -- forks -------------------------------------------------------------------

    def fork(
        self,
        game_id: str,
        at_version: int,
        seat: int | None,
        players: Sequence[Mapping[str, Any]] | None = None,
    ) -> Created:
        """A new game starting from this one's state at ``at_version``. A finished game
        forks exactly; a game in play forks only from ``seat``'s point of view, every
        card hidden from it re-dealt from a fresh seed."""
        table = self.load(game_id)
        if not 1 <= at_version <= table.version:
            raise CommandError("invalid_request", f"at_version must be between 1 and {table.version}.")
        past = self.tables.at(game_id, at_version)
        if past is None or past.state is None:
            raise CommandError("invalid_request", f"Version {at_version} is before the deal.")
        around = self.store.read(game_id, after=at_version - 1, limit=2)
        if not between_commands(around[1].type if len(around) == 2 else None):
            # Inside a command (the deal, an action's effects) the state is half-made: a
            # game forked there may have nobody to act, ever.
            raise CommandError("invalid_request", f"Version {at_version} is in the middle of a command.")
        game = table.game
        seed = secrets.token_hex(32)
        if table.status == "finished":
            state = past.state
            exact = True
        else:
            if seat is None:
                raise CommandError("not_your_seat", "A game in play forks only from a seat's point of view.")
            state = game.determinize(past.state, seat, derive_rng(seed, 0, recipe=1))
            exact = False
        if game.outcome(state) is not None:
            raise CommandError("game_over", f"The game was already over at version {at_version}.")
        source = players if players is not None else [s.as_json() for s in table.seats]
        seats = _check_players(source)
        if len(seats) != len(table.seats):
            raise CommandError("invalid_request", f"A fork keeps the {len(table.seats)} seats of its game.")
        fork_id = secrets.token_urlsafe(9)
        envelope = around[0]
        first = NewEvent(
            "ForkedFrom",
            {
                "id": fork_id,
                "game": game_id,
                "version": at_version,
                "hash": envelope.hash,
                "exact": exact,
                "from_seat": None if exact else seat,
                "kind": table.kind,
                "options": dict(table.options),
                "seats": seats,
                "seed_commitment": commitment(seed),
                "fair_deal": table.fair_deal and not exact,
                "state": encode(state),
            },
        )
        self.vault.set_seed(fork_id, seed)
        result = self.store.append(fork_id, _sealed(game, seed, [first], 1), 0)
        new = self.tables.fold(fork_id, None, list(result.envelopes))
        self.tables.remember(new)
        tokens = {i: self.vault.issue_token(fork_id, i) for i, s in enumerate(seats) if not s["bot"] and not s["open"]}
        self._scheduled(new)
        return Created(new, tokens)

    def _sealed(self, table: Table, events: Sequence[NewEvent]) -> list[NewEvent]:
        """``events`` ready to follow ``table``'s version, hidden values sealed."""
        return _sealed(table.game, self.vault.seed(table.game_id), events, table.version + 1)

    def _replayed(self, table: Table, first: int, last: int) -> Acted:
        envelopes = self.store.read(table.game_id, after=first - 1, limit=last - first + 1)
        current = self.tables.load(table.game_id) or table
        return Acted(current, tuple(envelopes), duplicate=True)

    def _scheduled(self, table: Table) -> None:
        if self.scheduler is not None:
            self.scheduler.after_append(table)


def request_fingerprint(seat: int, action: Any, expected_version: int) -> str:
    """SHA-256 of the canonical JSON of what a client asked: a retry with its key must ask it again.

    NaN is let through (Python's JSON reader accepts it), so that an action holding it is
    refused by the rules, as without a key, rather than failing here."""
    text = json.dumps([seat, action, expected_version], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


# The refusals a game may give with a code of the platform's own.
GAME_CODES = frozenset({"not_your_turn", "game_over"})


def _key_reused() -> CommandError:
    return CommandError(
        "idempotency_key_reused",
        "This Idempotency-Key was already used for a different action or version; "
        "send a new key for a new action (a retry must repeat the first request exactly).",
    )


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _draws(rng: Any) -> dict[str, Any]:
    """The record of the random draws made through ``rng`` (recipe 2), for the log."""
    return {"draws": list(rng.draws)} if isinstance(rng, Draws) and rng.draws else {}


def _sealed(game: Game, seed: str, events: Sequence[NewEvent], first_version: int) -> list[NewEvent]:
    return [
        replace(e, sealed=sealed_data(game, e.type, e.seat, e.data, seed, first_version + offset))
        for offset, e in enumerate(events)
    ]


def _new(event: GameEvent, actor: str) -> NewEvent:
    if event.type in PLATFORM_EVENTS:
        raise ValueError(f"a game may not emit the platform event {event.type}")
    return NewEvent(event.type, dict(event.data), event.seat, actor)


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise CommandError("invalid_request", "A player's name must be a non-empty string.")
    if len(name) > MAX_NAME or any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise CommandError(
            "invalid_request", f"A player's name has at most {MAX_NAME} characters and no control characters."
        )
    return name.strip()


def _check_players(players: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    if not isinstance(players, Sequence) or not players:
        raise CommandError("invalid_request", "A game needs a list of players.")
    seats: list[dict[str, Any]] = []
    for index, player in enumerate(players):
        if not isinstance(player, Mapping):
            raise CommandError("invalid_request", f"Player {index} must be an object.")
        if player.get("open"):
            seats.append({"name": None, "bot": None, "open": True})
            continue
        bot = player.get("bot")
        if bot is not None and bot not in BOT_LEVELS:
            raise CommandError(
                "invalid_request", f"Player {index}: bot must be one of {', '.join(BOT_LEVELS)} or null."
            )
        name = player.get("name") or (f"{bot} bot {index}" if bot else None)
        seats.append({"name": _check_name(name), "bot": bot, "open": False})
    return seats
