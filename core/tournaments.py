"""Tournaments: Swiss rounds of one kind, their pairings and their standings.

A tournament is a log of its own (``TournamentStore``: a stream of events, appended at an
expected length, so two workers never pair one round twice): ``Created`` (kind, rounds,
seats, clock, the bot level that fills empty seats, its creator), ``Registered`` and
``Withdrawn`` (a player, before the start), ``Started`` (the entrants, bots filling the
seats left), ``RoundPaired`` (a round's tables: each a game and its entrants, and the
byes), and ``Finished``. Everything shown is folded from that log and from the games'
own outcomes, so the standings are a read model any process rebuilds.

Rounds are Swiss: entrants in order of standing (points, then Buchholz, then rating, then
entry), each table filled from the top with those who have not met yet where that is
possible (a repeat only when nothing else fits). A kind of more than two seats plays in
pods of its smallest table, by standing. Entrants left over sit out the round with a bye,
worth a win, the lowest-standing who has had none first. A game's winners share a win's
point (a shared result splits it); a game ended by an abort counts for no one.

A worker pairs each round (``workers.tournaments.step``): at the start, and when every
game of the round is over, which it checks every ``CHECK_SECONDS`` while the round is on.
"""

from __future__ import annotations

import abc
import itertools
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from core.errors import Code, CommandError
from events.store import stamp
from games import registry

FORMATS = ("swiss", "arena")
MAX_ROUNDS = 20
MAX_MINUTES = 24 * 60
MAX_SEATS = 256
CHECK_SECONDS = 2.0
BYE = "bye"


class TournamentRunner(Protocol):
    def schedule(self, tournament_id: str, seconds: float = 0.0) -> None:
        """Run the tournament's step (``workers.tournaments.step``) in ``seconds``."""
        ...


class NoTournamentRunner:
    """A platform with no job runner wired: a tournament cannot start, said clearly."""

    def schedule(self, tournament_id: str, seconds: float = 0.0) -> None:
        raise CommandError(Code.UNAVAILABLE, "No job runner is configured for this service; tournaments cannot run.")


def pod_of(kind: str) -> int:
    """The seats of a tournament table of ``kind``: its smallest game, two at least."""
    game = registry.get(kind)
    return max(2, game.min_players) if game is not None else 2


def outcome_reader(load: Callable[[str], Any]) -> Callable[[str], dict[str, Any] | None]:
    """A game's outcome once it is over, None while it is played (``load``: the handler's)."""

    def outcome_of(game_id: str) -> dict[str, Any] | None:
        table = load(game_id)
        return dict(table.outcome) if table.status == "finished" and table.outcome is not None else None

    return outcome_of


class TournamentStore(abc.ABC):
    @abc.abstractmethod
    def append(self, tournament_id: str, expected: int, events: Sequence[dict[str, Any]]) -> bool:
        """Append ``events`` if the log holds ``expected`` events; False (nothing written) if not."""

    @abc.abstractmethod
    def read(self, tournament_id: str) -> list[dict[str, Any]]: ...

    @abc.abstractmethod
    def ids(self, offset: int, limit: int) -> tuple[int, list[str]]:
        """A page of the tournaments, newest first, and their count."""

    @abc.abstractmethod
    def running(self) -> list[str]:
        """The tournaments started and not finished."""


@dataclass
class Entrant:
    id: str  # a player's id, or "bot:<n>"
    name: str
    rating: float
    bot: str | None = None  # the server bot's level playing this entrant


@dataclass
class Tournament:
    id: str
    kind: str
    rounds: int
    seats: int
    creator: str
    created_at: str
    clock: dict[str, Any] | None
    fill: str | None
    format: str = "swiss"
    minutes: int | None = None  # an arena's length
    ends_at: int | None = None  # an arena's end (ms since the epoch), set as it starts
    status: str = "registering"  # then running, finished
    registered: dict[str, Entrant] = field(default_factory=dict)
    entrants: list[Entrant] = field(default_factory=list)
    paired: list[dict[str, Any]] = field(default_factory=list)  # each round: {"round", "tables", "byes"}
    length: int = 0  # events in its log

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "format": self.format,
            "rounds": self.rounds,
            "minutes": self.minutes,
            "ends_at": self.ends_at,
            "seats": self.seats,
            "clock": self.clock,
            "fill": self.fill,
            "creator": self.creator,
            "created_at": self.created_at,
            "status": self.status,
            "round": len(self.paired),
            "registered": [{"id": e.id, "name": e.name} for e in self.registered.values()],
        }


def fold(tournament_id: str, events: Sequence[dict[str, Any]]) -> Tournament | None:
    """The tournament its log tells of (None for an empty log)."""
    if not events:
        return None
    first = events[0]
    t = Tournament(
        tournament_id,
        first["kind"],
        first["rounds"],
        first["seats"],
        first["creator"],
        first["at"],
        first.get("clock"),
        first.get("fill"),
        first.get("format", "swiss"),
        first.get("minutes"),
    )
    for event in events[1:]:
        match event["type"]:
            case "Registered":
                t.registered[event["player"]] = Entrant(event["player"], event["name"], event["rating"])
            case "Withdrawn":
                t.registered.pop(event["player"], None)
            case "Started":
                t.status = "running"
                t.ends_at = event.get("ends_at")
                t.entrants = [Entrant(e["id"], e["name"], e["rating"], e.get("bot")) for e in event["entrants"]]
            case "RoundPaired":
                t.paired.append({"round": event["round"], "tables": event["tables"], "byes": event["byes"]})
            case "Finished":
                t.status = "finished"
    t.length = len(events)
    return t


Outcome = Callable[[str], dict[str, Any] | None]  # a game's outcome, None while it is played


def standings(t: Tournament, outcome_of: Outcome) -> list[dict[str, Any]]:
    """Each entrant's points, Buchholz and games, best first (the order pairings use)."""
    points = {e.id: 0.0 for e in t.entrants}
    met: dict[str, list[str]] = {e.id: [] for e in t.entrants}
    played = {e.id: 0 for e in t.entrants}
    for paired in t.paired:
        for bye in paired["byes"]:
            points[bye] += 1.0
        for table in paired["tables"]:
            ids = table["entrants"]
            for one in ids:
                met[one] += [other for other in ids if other != one]
            outcome = outcome_of(table["game"])
            if outcome is None or not outcome.get("counts", True):
                continue
            winners = [ids[seat] for seat in outcome.get("winners", []) if seat < len(ids)]
            for one in ids:
                played[one] += 1
            for winner in winners:
                points[winner] += 1.0 / len(winners)
    buchholz = {one: sum(points[other] for other in met[one]) for one in points}
    order = {e.id: index for index, e in enumerate(t.entrants)}
    ratings = {e.id: e.rating for e in t.entrants}
    ranked = sorted(points, key=lambda one: (-points[one], -buchholz[one], -ratings[one], order[one]))
    names = {e.id: e.name for e in t.entrants}
    return [
        {
            "rank": rank,
            "entrant": one,
            "name": names[one],
            "points": points[one],
            "buchholz": buchholz[one],
            "played": played[one],
        }
        for rank, one in enumerate(ranked, start=1)
    ]


def pair(
    ranked: Sequence[str], met: Mapping[str, set[str]], had_bye: set[str], size: int
) -> tuple[list[list[str]], list[str]]:
    """Tables of ``size`` from ``ranked`` (best first), each filled from the top with those
    who have not met yet where possible; the remainder sit out with a bye, the lowest
    without one first."""
    pool = list(ranked)
    byes: list[str] = []
    for _ in range(len(pool) % size):
        candidates = [one for one in reversed(pool) if one not in had_bye] or list(reversed(pool))
        byes.append(candidates[0])
        pool.remove(candidates[0])
    tables: list[list[str]] = []
    while pool:
        top = pool.pop(0)
        table = [top]
        for _ in range(size - 1):
            fresh = [one for one in pool if all(one not in met.get(sat, set()) for sat in table)]
            chosen = (fresh or pool)[0]
            table.append(chosen)
            pool.remove(chosen)
        tables.append(table)
    return tables, byes


def next_round(t: Tournament, outcome_of: Outcome, pod: int) -> tuple[list[list[str]], list[str]]:
    """The tables and byes of ``t``'s next round, from the standings."""
    ranked = [row["entrant"] for row in standings(t, outcome_of)]
    met: dict[str, set[str]] = {e.id: set() for e in t.entrants}
    had_bye: set[str] = set()
    for paired in t.paired:
        had_bye.update(paired["byes"])
        for table in paired["tables"]:
            for one, other in itertools.permutations(table["entrants"], 2):
                met[one].add(other)
    return pair(ranked, met, had_bye, pod)


def new_id() -> str:
    return "tn_" + secrets.token_urlsafe(9).replace("-", "x")


def created(
    kind: str,
    rounds: int,
    seats: int,
    creator: dict[str, Any],
    clock: dict[str, Any] | None,
    fill: str | None,
    now: datetime | None = None,
    format: str = "swiss",
    minutes: int | None = None,
) -> dict[str, Any]:
    """The ``Created`` event: a Swiss tournament of ``rounds``, or an arena of ``minutes``
    (its ``rounds`` then 0: as many as its time holds)."""
    if format == "swiss" and not 1 <= rounds <= MAX_ROUNDS:
        raise CommandError(Code.INVALID_REQUEST, f"rounds must be 1 to {MAX_ROUNDS}.")
    if format == "arena" and (minutes is None or not 1 <= minutes <= MAX_MINUTES):
        raise CommandError(Code.INVALID_REQUEST, f"An arena lasts minutes: 1 to {MAX_MINUTES}.")
    if not 2 <= seats <= MAX_SEATS:
        raise CommandError(Code.INVALID_REQUEST, f"seats must be 2 to {MAX_SEATS}.")
    return {
        "type": "Created",
        "kind": kind,
        "format": format,
        "minutes": minutes if format == "arena" else None,
        "rounds": rounds if format == "swiss" else 0,
        "seats": seats,
        "creator": creator["id"],
        "clock": clock,
        "fill": fill,
        "at": stamp(now or datetime.now(UTC)),
    }


def starting(t: Tournament, pod: int, now_ms: int = 0) -> dict[str, Any]:
    """The ``Started`` event: the registered entrants in order of entry, then bots of the
    fill level up to the seats (none without one); an arena's end, its minutes from ``now_ms``."""
    if t.status != "registering":
        raise CommandError(Code.GAME_IN_PLAY, "The tournament has started already.")
    entrants = [{"id": e.id, "name": e.name, "rating": e.rating} for e in t.registered.values()]
    if t.fill:
        for number in range(len(entrants), t.seats):
            entrants.append(
                {
                    "id": f"bot:{number + 1}",
                    "name": f"{t.fill.capitalize()} bot {number + 1}",
                    "rating": 1500.0,
                    "bot": t.fill,
                }
            )
    if len(entrants) < pod:
        raise CommandError(
            Code.INVALID_REQUEST,
            f"A round needs at least {pod} entrants; {len(entrants)} registered and no bots fill seats.",
        )
    started: dict[str, Any] = {"type": "Started", "entrants": entrants}
    if t.format == "arena" and t.minutes:
        started["ends_at"] = now_ms + t.minutes * 60_000
    return started


def arena_wave(t: Tournament, outcome_of: Outcome, pod: int) -> list[list[str]]:
    """An arena's next tables: the entrants not in a game now, in order of standing, seated
    from the top, each table avoiding the opponents its entrants just met where it can;
    those left over wait for the next look (no bye: an arena scores games played)."""
    busy = {
        one
        for paired in t.paired
        for table in paired["tables"]
        if outcome_of(table["game"]) is None
        for one in table["entrants"]
    }
    waiting = [row["entrant"] for row in standings(t, outcome_of) if row["entrant"] not in busy]
    last: dict[str, set[str]] = {}
    for paired in t.paired:  # in order: each entrant's latest table wins
        for table in paired["tables"]:
            for one in table["entrants"]:
                last[one] = set(table["entrants"]) - {one}
    seated = waiting[: len(waiting) - len(waiting) % pod]
    tables, _ = pair(seated, last, set(), pod)
    return tables
