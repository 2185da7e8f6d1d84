"""The table: everything known about one game, folded from its log.

The log holds the game's own events (folded by the game's ``evolve``) and a few
platform events that the game never sees:

* ``GameCreated``: kind, options, seats, the seed commitment, whether the deal is fair,
  and for a rematch the game it follows (``rematch_of``).
* ``SeatTaken``: an open seat filled (by a player, when its ``player`` says); the game
  is active once no seat is open.
* ``SeatClaimed``: a player now holds a seat that a seat token held.
* ``ActionTaken``: the action a seat sent (the audit re-decides it); its events follow.
* ``SeedRevealed``: the outcome and the revealed seed.
* ``Rewound``: the state returns to that of an earlier version (undo); nothing is deleted.
* ``ForkedFrom``: this game continues another at a version.
* ``UndoRequested`` / ``UndoAnswered`` / ``UndoExpired``: the undo consent exchange.
* ``DrawOffered`` / ``DrawAnswered`` / ``DrawAgreed``: an offer to end the game with a
  shared result, the other seats' answers, and the agreement (``core.lifecycle``).
* ``Resigned`` / ``FlagFell`` / ``Abandoned``: a seat leaves the game (it resigned, its
  clock ran out, the turn timer played for it too often); ``Aborted``: the game ends
  without a result (``projections.lifecycle``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from events.envelope import Envelope
from games.base import Game, GameEvent
from games.codec import decode
from games.registry import get
from projections.lifecycle import LEAVING_EVENTS, Clock, ms

PLATFORM_EVENTS = frozenset(
    {
        "GameCreated",
        "SeatTaken",
        "SeatClaimed",
        "ActionTaken",
        "SeedRevealed",
        "Rewound",
        "ForkedFrom",
        "UndoRequested",
        "UndoAnswered",
        "UndoExpired",
        "DrawOffered",
        "DrawAnswered",
        "DrawAgreed",
        "Resigned",
        "Aborted",
        "FlagFell",
        "Abandoned",
    }
)

# The events that begin a command. The version just before one (or the head) is between
# two commands, where the state is whole: an undo may go back to it and a fork may start
# from it. Inside a command (the deal, an action's effects) the state is half-made.
# The web client's replay mirrors this set (service/client/replay.js).
COMMAND_STARTS = frozenset(
    {
        "ActionTaken",
        "SeatTaken",
        "SeatClaimed",
        "UndoRequested",
        "UndoAnswered",
        "UndoExpired",
        "DrawOffered",
        "DrawAnswered",
        "Rewound",
        "Resigned",
        "Aborted",
        "FlagFell",
        "Abandoned",
    }
)


def between_commands(following: str | None) -> bool:
    """Whether a version whose next event has type ``following`` (None: it is the head)
    lies between two commands."""
    return following is None or following in COMMAND_STARTS


@dataclass(frozen=True)
class Seat:
    name: str | None
    bot: str | None = None
    open: bool = False
    player: str | None = None  # the id of the player holding the seat (core.players)
    reserved_for: str | None = None  # an open seat only this player may take
    invite: bool = False  # an open seat taken only with its invite code
    # In a rematch, an open seat kept for whoever held this seat of the game rematched
    # (with its seat token; a player's seat is kept with ``reserved_for``).
    rematch_seat: int | None = None
    # How the seat left the game (resignation, time, abandonment); a bot then makes its moves.
    left: str | None = None
    # "bot" for a seat held by a bot account (core.players): a program playing over the API,
    # declared, where ``bot`` is one of the server's own.
    account: str | None = None

    @property
    def public(self) -> bool:
        """An open seat anyone may take (the lobby lists only these)."""
        return self.open and self.reserved_for is None and not self.invite and self.rematch_seat is None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "bot": self.bot, "open": self.open, "player": self.player}
        if self.open:
            out |= {"reserved_for": self.reserved_for, "invite": self.invite}
            if self.rematch_seat is not None:
                out["rematch_seat"] = self.rematch_seat
        if self.left is not None:
            out["left"] = self.left
        if self.account is not None:
            out["account"] = self.account
        return out


@dataclass(frozen=True)
class UndoRequest:
    id: str
    by: int
    to_version: int
    expires_at: str
    accepted: frozenset[int]


@dataclass(frozen=True)
class DrawOffer:
    """A pending offer to end the game with a shared result, and the seats that agree."""

    id: str
    by: int
    accepted: frozenset[int]


@dataclass(frozen=True)
class Table:
    game_id: str
    kind: str
    version: int
    head_hash: str
    seats: tuple[Seat, ...]
    options: Mapping[str, Any]
    seed_commitment: str
    fair_deal: bool
    state: Any
    created_at: str
    updated_at: str
    status: str = "open"  # open | active | finished
    outcome: Mapping[str, Any] | None = None
    seed: str | None = None
    forked_from: Mapping[str, Any] | None = None
    turn_seconds: int | None = None
    undo: UndoRequest | None = None
    last_irreversible: int = 0
    # The envelope schema the game was created under: its draw recipe, and whether its
    # hashes are public while it is in play.
    schema: int = 1
    unlisted: bool = False  # left out of the lobby, the lists and profiles (reachable by its id)
    rated: bool = False  # between players only; its result moves their ratings (projections.ratings)
    rematch_of: str | None = None  # the finished game this one is the rematch of
    lifecycle: Mapping[str, Any] | None = None  # projections.lifecycle.settings; None for older games
    acted: frozenset[int] = frozenset()  # the seats that made a move of their own (not the timer's)
    timeouts: tuple[int, ...] = ()  # per seat: the moves the turn timer made for it
    idle: tuple[int, ...] = ()  # per seat: its turns in a row the timer played, with no move of its own
    last_mover: int | None = None  # the seat of the last action taken: a move by another seat begins a turn
    clock: Clock | None = None
    draw: DrawOffer | None = None  # the pending offer to end with a shared result, until a move

    @property
    def recipe(self) -> int:
        """The draw recipe of this game (``games.rng``): 2 from envelope schema 2 on."""
        return 1 if self.schema < 2 else 2

    @property
    def head(self) -> dict[str, Any]:
        """The version and hash of the last event, which a client keeps to prove a rewrite or a
        truncation later. A game created under schema 1 shows the hash only once it is over:
        that schema's hashes can test a guess about a hidden card."""
        public = self.schema >= 2 or self.status == "finished"
        return {"version": self.version, "hash": self.head_hash if public else None}

    @property
    def game(self) -> Game:
        game = get(self.kind)
        if game is None:
            raise LookupError(f"unknown game kind {self.kind!r}")
        return game

    def to_act(self) -> frozenset[int]:
        if self.status != "active":
            return frozenset()
        return self.game.to_act(self.state)

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.game_id,
            "kind": self.kind,
            "version": self.version,
            "status": self.status,
            "seats": [{"seat": i, **s.as_json()} for i, s in enumerate(self.seats)],
            "options": public_options(self.game, self.options, self.status == "finished"),
            "fair_deal": self.fair_deal,
            "seed_commitment": self.seed_commitment,
            "seed": self.seed,
            "outcome": self.outcome,
            "to_act": sorted(self.to_act()),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "forked_from": self.forked_from,
            "turn_seconds": self.turn_seconds,
            "head": self.head,
            "unlisted": self.unlisted,
            "rated": self.rated,
            "rematch_of": self.rematch_of,
            "lifecycle": dict(self.lifecycle) if self.lifecycle is not None else None,
            "clock": self.clock.as_json() if self.clock is not None else None,
            "timeouts": list(self.timeouts),
        }

    def competing(self) -> list[int]:
        """The seats still playing to win: those that have not left."""
        return [i for i, s in enumerate(self.seats) if s.left is None]

    def may_abort(self) -> bool:
        """A game may be aborted while a seat is open, or until each seat has moved once."""
        return self.status == "open" or (self.status == "active" and len(self.acted) < len(self.seats))


HIDDEN_OPTION = "hidden until the game ends"


def public_options(game: Game, options: Mapping[str, Any], finished: bool) -> dict[str, Any]:
    """The options as anyone may see them. An option that fixed the cards (a tutorial or
    scenario deck) would show their order, so its value is hidden until the game ends;
    ``fair_deal`` already says that one was set."""
    if finished:
        return dict(options)
    return {name: value if game.fair_deal({name: value}) else HIDDEN_OPTION for name, value in options.items()}


PastLookup = Callable[[int], "Table"]


def fold(table: Table | None, envelopes: Iterable[Envelope], past: PastLookup | None = None) -> Table:
    """Fold envelopes into the table. ``past(v)`` gives the table at an earlier version
    (needed only for ``Rewound``)."""
    for envelope in envelopes:
        table = evolve(table, envelope, past)
    if table is None:
        raise ValueError("a table needs at least its GameCreated event")
    return table


def evolve(table: Table | None, e: Envelope, past: PastLookup | None = None) -> Table:
    if table is None:
        return clocked(_created(e), e)
    if table.clock is None:
        return _evolve(table, e, past)
    clock = table.clock.moved(e.seat, ms(e.at)) if e.type == "ActionTaken" and e.seat is not None else table.clock
    return clocked(_evolve(amend(table, clock=clock), e, past), e)


_TABLE_FIELDS = frozenset(field.name for field in fields(Table))


def amend(table: Table, **changes: Any) -> Table:
    """``dataclasses.replace(table, **changes)`` for the fold's hot path, about four times
    faster (it is called once or twice per command folded): the table's fields copied,
    ``changes`` over them. ``Table`` has no ``__post_init__`` and caches nothing derived
    from its fields, so the result is the table ``replace`` would give."""
    unknown = changes.keys() - _TABLE_FIELDS
    if unknown:
        raise TypeError(f"Table has no field {', '.join(sorted(unknown))}")
    new: Table = object.__new__(Table)
    new.__dict__.update(table.__dict__)
    new.__dict__.update(changes)
    return new


def clocked(table: Table, e: Envelope) -> Table:
    """The table with its clocks following the seats to act after ``e``."""
    if table.clock is None or table.state is None:  # (no state yet: the deal follows)
        return table
    to_act = sorted(table.to_act()) if table.status == "active" else []
    return amend(table, clock=table.clock.follow(to_act, ms(e.at)))


def _evolve(table: Table, e: Envelope, past: PastLookup | None = None) -> Table:
    moved: dict[str, Any] = {"version": e.version, "head_hash": e.hash, "updated_at": e.at}
    if e.type not in PLATFORM_EVENTS:
        game_event = GameEvent(e.type, e.data, e.seat)
        changes: dict[str, Any] = {"state": table.game.evolve(table.state, game_event)}
        if table.game.irreversible(game_event):
            changes["last_irreversible"] = e.version
        return amend(table, **moved, **changes)
    match e.type:
        case "SeatTaken":
            seats = list(table.seats)
            seats[e.data["seat"]] = Seat(
                e.data["name"], None, False, e.data.get("player"), account=e.data.get("account")
            )
            status = "active" if not any(s.open for s in seats) else table.status
            return replace(table, **moved, seats=tuple(seats), status=status)
        case "SeatClaimed":
            seats = list(table.seats)
            seats[e.data["seat"]] = replace(
                seats[e.data["seat"]], player=e.data["player"], account=e.data.get("account")
            )
            return replace(table, **moved, seats=tuple(seats))
        case "SeedRevealed":
            return replace(
                table, **moved, status="finished", outcome=e.data["outcome"], seed=e.data["seed"], undo=None, draw=None
            )
        case "Rewound":
            if past is None:
                raise ValueError("folding a Rewound event needs the table's past")
            earlier = past(e.data["to_version"])
            return replace(
                table,
                **moved,
                state=earlier.state,
                status=earlier.status,
                outcome=earlier.outcome,
                undo=None,
                last_irreversible=earlier.last_irreversible,
                acted=earlier.acted,
                timeouts=earlier.timeouts,
                idle=earlier.idle,
            )
        case "UndoRequested":
            request = UndoRequest(
                e.data["id"],
                e.seat if e.seat is not None else -1,
                e.data["to_version"],
                e.data["expires_at"],
                frozenset(e.data.get("accepted", [])),
            )
            return replace(table, **moved, undo=request)
        case "UndoAnswered":
            if table.undo is None or table.undo.id != e.data["id"]:
                return replace(table, **moved)
            if e.data["accept"]:
                accepted = table.undo.accepted | ({e.seat} if e.seat is not None else set())
                return replace(table, **moved, undo=replace(table.undo, accepted=accepted))
            return replace(table, **moved, undo=None)
        case "UndoExpired":
            return replace(table, **moved, undo=None)
        case "DrawOffered":
            offer = DrawOffer(e.data["id"], e.data["by"], frozenset(e.data.get("accepted", [e.data["by"]])))
            return replace(table, **moved, draw=offer)
        case "DrawAnswered":
            if table.draw is None or table.draw.id != e.data["id"]:
                return replace(table, **moved)
            if e.data["accept"] and e.seat is not None:
                return replace(table, **moved, draw=replace(table.draw, accepted=table.draw.accepted | {e.seat}))
            return replace(table, **moved, draw=None)
        case "ActionTaken":
            seat = e.seat
            if seat is None or not table.timeouts:
                return replace(table, **moved, undo=None, draw=None)
            timer = e.actor == "timeout"
            timeouts = tuple(n + (timer and i == seat) for i, n in enumerate(table.timeouts))
            # A turn counts as idle when the timer made its first move and the seat none of
            # its own: a turn of several moves the timer played is one turn, not several.
            turn_begins = table.last_mover != seat
            idle = tuple(
                (n + (timer and turn_begins) if timer else 0) if i == seat else n for i, n in enumerate(table.idle)
            )
            acted = table.acted if timer else table.acted | {seat}
            return replace(
                table, **moved, undo=None, draw=None, timeouts=timeouts, idle=idle, acted=acted, last_mover=seat
            )
        case "Resigned" | "FlagFell" | "Abandoned":
            seats = list(table.seats)
            leaving = e.data["seat"]
            seats[leaving] = replace(seats[leaving], left=LEAVING_EVENTS[e.type], bot=seats[leaving].bot or "greedy")
            return replace(table, **moved, seats=tuple(seats), undo=None, draw=None, last_irreversible=e.version)
        case _:
            return replace(table, **moved)


def _created(e: Envelope) -> Table:
    """The table from a log's first event: ``GameCreated``, or ``ForkedFrom``, which
    also carries the state the fork starts from (encoded with ``games.codec``)."""
    data = e.data
    seats = tuple(
        Seat(
            s.get("name"),
            s.get("bot"),
            bool(s.get("open", False)),
            s.get("player"),
            s.get("reserved_for"),
            bool(s.get("invite", False)),
            s.get("rematch_seat"),
            account=s.get("account"),
        )
        for s in data["seats"]
    )
    state = decode(data["state"]) if e.type == "ForkedFrom" else None
    return Table(
        game_id=data["id"] if e.type == "ForkedFrom" else data["game"],
        kind=data["kind"],
        version=e.version,
        head_hash=e.hash,
        seats=seats,
        options=data["options"],
        seed_commitment=data["seed_commitment"],
        fair_deal=data["fair_deal"],
        state=state,
        created_at=e.at,
        updated_at=e.at,
        status="open" if any(s.open for s in seats) else "active",
        forked_from=data.get("forked_from")
        or ({k: data[k] for k in ("game", "version", "hash")} if e.type == "ForkedFrom" else None),
        turn_seconds=data.get("turn_seconds"),
        schema=e.schema,
        unlisted=bool(data.get("unlisted", False)),
        rated=bool(data.get("rated", False)),
        rematch_of=data.get("rematch_of"),
        lifecycle=data.get("lifecycle"),
        timeouts=(0,) * len(seats),
        idle=(0,) * len(seats),
        clock=Clock.start(data["lifecycle"]["clock"], len(seats))
        if data.get("lifecycle") and data["lifecycle"].get("clock")
        else None,
    )
