"""Balance, measured: greedy-bot games of one kind (or ISMCTS ones, from a ledger).

  python -m bench.balance <kind> [--games N] [--workers W]
  python -m bench.balance <kind> --bots ismcts [--games N] [--workers W] [--until-width 0.03] [--minutes M]
  python -m bench.balance <kind> --bots ismcts --report
  python -m bench.balance dragoborne [--bots ismcts ...] --candidate bench/candidates/<name>.json

Every seat is played by ``games.bots.greedy_bot``, in memory through ``games.play``.
What is read from a finished game is only the public contract: ``outcome(state)``
(winners, scores, reason) and the spectator view ``view(state, None)``. Per kind:

* ``dragon-fortress``: 1,000 games at 3 and at 4 players: how games end
  (the Shadow Terror defeated, or a hand played out), median turns (``turns_played``),
  win rate by seat, and how often the Estate and the Fortress bonus decide the winner
  (the winners would differ without that bonus; from the view's ``scores``). Flags a
  Shadow Terror share under 10%.
* ``dragoborne``: 600 games for every pairing of the pre-built decks, seats
  alternating: win rate of the first player (``first``) and of each deck (``decks``),
  median turns (``turn``).
* ``stomping-grounds``: 600 games for every pairing of the four decks at 2
  players, and 600 at 4 (every deck once, rotated by seat): win rate per deck
  (``players[i].deck_key``) and per seat, median turns (``turn``) and rounds.
* any other kind: 600 games at its smallest table: end reasons, win rate by seat,
  median actions.

Win rates count a shared win as a fraction and give a 95% Wilson interval; a game
still unfinished after 20,000 actions counts for nobody and is reported.
``--games N`` sets every table's game count (to shorten a run). By default each table
has 600 games or more, so that every interval is at most +/-4 points.

Targets, flagged on the point estimate: with 2 players each seat, the first
player and each deck of a pairing win 45-55%; with more, each seat within 5 points of
an even share; every interval at most +/-4 points.

With ``--bots ismcts``, ``games.ismcts.ismcts_bot`` plays every seat at its kind's
fixed iterations a move (no clock, so a game is reproducible: the same tables, decks,
seats and seeds as the greedy games of the same index). A game costs about 16 CPU s at
dragoborne, and the issue's +/-3 points over all take about 1,070, so the games
accumulate across runs in a ledger, ``bench/balance-ismcts.jsonl`` (committed), as
``bench.bots`` does for its strength table: one line per game, appended as the game
finishes, under a fingerprint of the search's budget, the shared game and bot sources,
the kind's package and this module's dealing and playing code. A run plays the games
of ``--games N`` a table (default 360: 1,080 over dragoborne's three tables) that the
ledger lacks under the current fingerprint, lowest index first across the tables, and
stops starting games at ``--until-width`` (the first seat's interval over all),
``--minutes`` or SIGINT/SIGTERM; games under way finish and are recorded. A change of
fingerprint starts over, and the run drops the old lines. The report, also alone with
``--report``, reads every current game of the ledger: the greedy run's tables, then the
first seat against the issue's targets (at most 55% over all with an interval of at
most +/-3 points; in no pairing the first seat or a deck above 58%). ``rows()`` gives
``python -m bench`` its rows (14) from both.

``--candidate PATH`` plays dragoborne with a candidate pool: entries in the form of
``games/dragoborne/revision4.json`` that replace the default revision's of the same key in
this run's processes only, so that a pool can be measured, greedy and ISMCTS, before it
becomes a rules revision. Its ISMCTS games go to a ledger of its own beside it
(``<name>.jsonl``), under a fingerprint that names the candidate's bytes.

Per card, for kinds whose rules name their cards (``card_names``,
``action_cards``): in how many games it was dealt, in what share of those some seat to
act had a legal action using it (playable) and the bots used it (played), and how often
a game; a card playable in under 1% of its games is flagged.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import itertools
import json
import math
import os
import random
import re
import signal
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from bench.bots import append_record, digest_sources, prune_ledger, read_ledger
from bench.common import Row, machine_facts
from games import ismcts, registry
from games.bots import greedy_bot
from games.ismcts import ismcts_bot
from games.play import new_game, step

MAX_ACTIONS = 20_000
GAMES = 600  # a 95% interval of at most +/-4 points at any rate
TARGET = (0.45, 0.55)  # a 2-player seat, first player or deck
SEAT_TOLERANCE = 0.05  # with more players: within 5 points of an even share
WIDTH = 0.04
PLAYABLE_AT_LEAST = 0.01
# The pre-built decks: the options name them only in their description, not as choices.
DECKS = {
    "dragoborne": ("emberguard", "thornwall", "tidecrypt"),
    "stomping-grounds": ("ember", "ivory", "moss", "tide"),
}
SEAT_BOTS = {"greedy": greedy_bot, "ismcts": ismcts_bot}
# ISMCTS in every seat: too slow for one sitting, so its games accumulate in a ledger.
LEDGER = Path(__file__).with_name("balance-ismcts.jsonl")
QUICK_GAMES = 40  # per table, greedy, in ``python -m bench --quick``: for scale only
ISMCTS_GAMES = 360  # per table: 1,080 over dragoborne's three, +/-3 points over all at any rate
CANDIDATE: list[tuple[Path, str]] = []  # the candidate pool this run plays, and its digest


def apply_candidate(path: Path) -> None:
    """Play this process's dragoborne games with a candidate pool: ``path`` holds entries
    (``cards``, ``decks``) in the form of ``games/dragoborne/revision4.json``, each replacing
    the default revision's entry of the same key, for this run only (nothing in ``games``
    changes on disk). The fingerprint of its ISMCTS games names the candidate's bytes, and
    they go to a ledger of its own beside it (``<candidate>.jsonl``)."""
    from games.dragoborne import cards

    data = path.read_bytes()
    raw = json.loads(data)
    cards.CARDS_4.update({entry["key"]: cards._card(entry) for entry in raw.get("cards", ())})
    cards.DECKS_4.update({entry["key"]: entry for entry in raw.get("decks", ())})
    cards.card_of.cache_clear()
    CANDIDATE[:] = [(path, hashlib.sha256(data).hexdigest()[:16])]


def candidate_worker(path: Path | None, quiet: bool) -> None:
    """A worker process's start: the run's candidate pool, and quiet if asked."""
    if path is not None and not CANDIDATE:
        apply_candidate(path)
    if quiet:
        quiet_worker()


def candidate_path() -> Path | None:
    return CANDIDATE[0][0] if CANDIDATE else None


# The targets for the first seat: over all, and in any one pairing (nor either deck).
FIRST_AT_MOST = 0.55
FIRST_WIDTH = 0.03
PAIRING_AT_MOST = 0.58
TURN_FIELD = {
    "dragon-fortress": "turns_played",
    "dragoborne": "turn",
    "stomping-grounds": "turn",
    "fortress-royals": "round",
}


@dataclass(frozen=True)
class Table:
    """One configuration: ``games`` games at ``players`` seats with these options."""

    label: str
    players: int
    games: int
    decks: tuple[str, ...] | None = None
    rotate: bool = False  # seat i gets decks[(i + game) % n]; else pairs alternate seats


@dataclass(frozen=True)
class Spec:
    kind: str
    table: Table
    index: int
    bots: str = "greedy"  # every seat's bot, a name of ``SEAT_BOTS``


@dataclass
class Result:
    finished: bool
    actions: int
    winners: tuple[int, ...] = ()
    reason: str = ""
    turns: float | None = None
    rounds: float | None = None
    first: int | None = None
    decks: tuple[str, ...] = ()
    decided_by: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    cards: frozenset[str] = frozenset()
    playable: frozenset[str] = frozenset()
    played: Counter[str] = field(default_factory=Counter)


def tables(kind: str, games: int | None) -> list[Table]:
    if kind == "dragon-fortress":
        return [Table(f"{n} players", n, games or 1000) for n in (3, 4)]
    if kind == "dragoborne":
        return [Table(f"{a} vs {b}", 2, games or GAMES, (a, b)) for a, b in itertools.combinations(DECKS[kind], 2)]
    if kind == "stomping-grounds":
        pairs = [Table(f"{a} vs {b}", 2, games or GAMES, (a, b)) for a, b in itertools.combinations(DECKS[kind], 2)]
        return [*pairs, Table("4 players, every deck", 4, games or GAMES, DECKS[kind], rotate=True)]
    game = registry.all_games()[kind]
    return [Table(f"{max(2, game.min_players)} players", max(2, game.min_players), games or GAMES)]


def seat_decks(spec: Spec) -> tuple[str, ...] | None:
    decks = spec.table.decks
    if decks is None:
        return None
    n = spec.table.players
    if spec.table.rotate:
        return tuple(decks[(seat + spec.index) % len(decks)] for seat in range(n))
    return decks if spec.index % 2 == 0 else tuple(reversed(decks))


def play(spec: Spec) -> Result:
    game = registry.all_games()[spec.kind]
    decks = seat_decks(spec)
    options = {"decks": list(decks)} if decks else None
    name = f"balance-{spec.kind}-{spec.table.label}-{spec.index}"
    table_rng = random.Random(f"{name}-table")
    seat_rngs = [random.Random(f"{name}-seat{s}") for s in range(spec.table.players)]
    run = new_game(game, spec.table.players, options, table_rng)
    cards = frozenset(game.card_names(run.state))
    playable: set[str] = set()
    played: Counter[str] = Counter()
    actions = 0
    while game.outcome(run.state) is None and actions < MAX_ACTIONS:
        to_act = game.to_act(run.state)
        if cards:  # what every seat to act could use now
            for someone in to_act:
                for legal in game.legal_actions(run.state, someone):
                    playable.update(game.action_cards(run.state, someone, legal))
        seat = min(to_act)
        action = SEAT_BOTS[spec.bots](game, run.state, seat, seat_rngs[seat])
        if cards:
            played.update(game.action_cards(run.state, seat, action))
        step(game, run, seat, action, table_rng)
        actions += 1
    outcome = game.outcome(run.state)
    view = game.view(run.state, None)
    turn_field = TURN_FIELD.get(spec.kind)
    turns = view.get(turn_field) if turn_field else None
    result = Result(
        finished=outcome is not None,
        actions=actions,
        turns=float(turns) if isinstance(turns, int | float) else None,
        rounds=float(view["round"]) if isinstance(view.get("round"), int | float) else None,
        first=view.get("first") if isinstance(view.get("first"), int) else None,
        decks=decks or (),
        cards=cards,
        playable=frozenset(playable),
        played=played,
    )
    if outcome is None:
        return result
    result.winners = tuple(outcome["winners"])
    result.reason = reason_class(spec.kind, str(outcome.get("reason", "")))
    if spec.kind == "dragon-fortress":
        result.decided_by = bonuses_deciding(view.get("scores"), result.winners)
    return result


def reason_class(kind: str, reason: str) -> str:
    """An end reason without its seat numbers and scores, so that like ends group."""
    if kind == "dragon-fortress":
        if "Shadow Terror" in reason:
            return "Shadow Terror defeated"
        if "last card" in reason:
            return "a hand played out"
    return re.sub(r"\d+", "#", reason)


def bonuses_deciding(scores: Any, winners: Sequence[int]) -> tuple[str, ...]:
    """The bonuses without which the winners would differ (from the view's scores)."""
    if not isinstance(scores, list) or not scores or not all(isinstance(s, dict) for s in scores):
        return ()
    decided = []
    for bonus in ("estate_bonus", "fortress_bonus"):
        without = [s["total"] - s.get(bonus, 0) for s in scores]
        best = max(without)
        if tuple(i for i, v in enumerate(without) if v == best) != tuple(sorted(winners)):
            decided.append(bonus.replace("_bonus", ""))
    return tuple(decided)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def share(won: float, games: int) -> str:
    low, high = wilson(won, games)
    rate = won / games if games else 0.0
    return f"{rate:6.1%} [{low:5.1%}, {high:5.1%}]"


def credit(result: Result, seat: int) -> float:
    return 1.0 / len(result.winners) if seat in result.winners else 0.0


def median_of(values: Iterable[float | None]) -> str:
    present = [v for v in values if v is not None]
    return f"{statistics.median(present):g}" if present else "n/a"


def report(kind: str, table: Table, results: list[Result]) -> tuple[list[str], list[str]]:
    """Lines for one table, and the flags it raises against its issue's targets."""
    done = [r for r in results if r.finished]
    n = len(done)
    lines = [f"## {kind}: {table.label} ({len(results)} games, {len(results) - n} unfinished)", ""]
    lines.append(
        f"median turns: {median_of(r.turns for r in done)}    median actions: "
        f"{median_of(float(r.actions) for r in done)}"
        + (f"    median rounds: {median_of(r.rounds for r in done)}" if any(r.rounds for r in done) else "")
    )
    flags: list[str] = []
    lines += ["", "| end reason | share |", "|---|---:|"]
    for reason, count in Counter(r.reason for r in done).most_common():
        lines.append(f"| {reason} | {count / n:.1%} |")
    lines += ["", "| seat | win rate [95% interval] |", "|---|---|"]
    even = 1 / table.players
    low, high = TARGET if table.players == 2 else (even - SEAT_TOLERANCE, even + SEAT_TOLERANCE)
    for seat in range(table.players):
        won = sum(credit(r, seat) for r in done)
        lines.append(f"| {seat} | {share(won, n)} |")
        flags += target_flags(f"{table.label}: seat {seat}", won, n, low, high)
    if any(r.first is not None for r in done):
        firsts = [r for r in done if r.first is not None]
        won = sum(credit(r, r.first) for r in firsts if r.first is not None)
        lines += ["", f"first player wins: {share(won, len(firsts))}"]
        flags += target_flags(f"{table.label}: the first player", won, len(firsts), low, high)
    if table.decks:
        lines += ["", "| deck | games | win rate [95% interval] |", "|---|---:|---|"]
        for deck in table.decks:
            played = [(r, seat) for r in done for seat, d in enumerate(r.decks) if d == deck]
            won = sum(credit(r, seat) for r, seat in played)
            lines.append(f"| {deck} | {len(played)} | {share(won, len(played))} |")
            if table.players == 2:
                flags += target_flags(f"{table.label}: {deck}", won, len(played), *TARGET)
    if kind == "dragon-fortress":
        decided = Counter(b for r in done for b in r.decided_by)
        lines += ["", "| bonus | decides the winner |", "|---|---:|"]
        for bonus in ("estate", "fortress"):
            lines.append(f"| {bonus} | {decided[bonus] / n:.1%} |" if n else f"| {bonus} | n/a |")
        terror = sum(r.reason == "Shadow Terror defeated" for r in done)
        if n and terror / n < 0.10:
            flags.append(f"{table.label}: only {terror / n:.1%} of games end by the Shadow Terror")
    return lines, flags


def target_flags(label: str, won: float, games: int, low: float, high: float) -> list[str]:
    """Flags for a win rate outside ``low``-``high`` or known to less than +/-4 points."""
    if not games:
        return [f"{label}: no finished game"]
    flags = []
    rate = won / games
    if not low <= rate <= high:
        flags.append(f"{label} wins {rate:.1%} (outside {low:.0%}-{high:.0%})")
    bottom, top = wilson(won, games)
    if (top - bottom) / 2 > WIDTH:
        flags.append(f"{label}: interval +/-{(top - bottom) / 2:.1%} over {games} games (more games needed)")
    return flags


def card_table(kind: str, results: list[Result]) -> tuple[list[str], list[str]]:
    """Per card over every game played: dealt, playable, played; flags for dead cards."""
    dealt: Counter[str] = Counter()
    playable: Counter[str] = Counter()
    played_in: Counter[str] = Counter()
    plays: Counter[str] = Counter()
    for r in results:
        dealt.update(r.cards)
        playable.update(r.playable & r.cards)
        played_in.update(card for card in r.played if card in r.cards)
        plays.update({card: count for card, count in r.played.items() if card in r.cards})
    if not dealt:
        return [], []
    lines = [
        f"## {kind}: per card, over every game above",
        "",
        "| card | games dealt | playable in | played in | plays a game |",
        "|---|---:|---:|---:|---:|",
    ]
    flags = []
    for card in sorted(dealt, key=lambda c: (playable[c] / dealt[c], played_in[c] / dealt[c], c)):
        n = dealt[card]
        lines.append(f"| {card} | {n} | {playable[card] / n:.1%} | {played_in[card] / n:.1%} | {plays[card] / n:.2f} |")
        if playable[card] / n < PLAYABLE_AT_LEAST:
            flags.append(f"{card} is playable in {playable[card] / n:.1%} of its games (under 1%)")
    return lines, flags


def deck_summary(kind: str, pairs: list[tuple[Table, list[Result]]]) -> tuple[list[str], list[str]]:
    """Each deck's win rate over every two-player pairing it played, and its flags."""
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for table, results in pairs:
        if table.players != 2 or not table.decks:
            continue
        for r in results:
            if not r.finished:
                continue
            for seat, deck in enumerate(r.decks):
                totals[deck][0] += credit(r, seat)
                totals[deck][1] += 1
    if not totals:
        return [], []
    lines = [
        f"## {kind}: every 2-player pairing, per deck",
        "",
        "| deck | games | win rate [95% interval] |",
        "|---|---:|---|",
    ]
    flags = []
    for deck, (won, games) in sorted(totals.items()):
        lines.append(f"| {deck} | {int(games)} | {share(won, int(games))} |")
        flags += target_flags(f"{deck} over its 2-player games", won, int(games), *TARGET)
    return lines, flags


def play_all(specs: list[Spec], workers: int) -> list[Result]:
    """Every game of ``specs``, in order, in ``workers`` processes."""
    if workers <= 1:
        return [play(spec) for spec in specs]
    with ProcessPoolExecutor(workers, initializer=candidate_worker, initargs=(candidate_path(), False)) as pool:
        return list(pool.map(play, specs, chunksize=4))


# -- the first seat against the targets


@dataclass(frozen=True)
class FirstSeat:
    """The first seat's wins over every finished game of a kind's two-player pairings, and
    the most one-sided pairing: the highest win rate of its first seat or of either deck."""

    won: float
    games: int
    worst: str = ""
    worst_rate: float = 0.0

    @property
    def rate(self) -> float:
        return self.won / self.games if self.games else 0.0

    @property
    def half_width(self) -> float:
        low, high = wilson(self.won, self.games)
        return (high - low) / 2

    @property
    def first_meets(self) -> bool:
        return self.games > 0 and self.rate <= FIRST_AT_MOST and self.half_width <= FIRST_WIDTH

    @property
    def pairings_meet(self) -> bool:
        return self.games > 0 and self.worst_rate <= PAIRING_AT_MOST


def first_seat(grouped: list[tuple[Table, list[Result]]]) -> tuple[FirstSeat, list[str], list[str]]:
    """The first seat over all and per pairing, with their lines and flags against the
    issue's targets: at most 55% over all with an interval of at most +/-3 points, and in
    no pairing the first seat or a deck above 58%."""
    lines = [
        "## the first seat against the issue's targets",
        "",
        "| pairing | games | first seat wins [95% interval] | ± points | highest deck | target | verdict |",
        "|---|---:|---|---:|---|---|---|",
    ]
    flags: list[str] = []
    won, games, worst, worst_rate = 0.0, 0, "", 0.0
    for table, results in grouped:
        if not table.decks or table.players != 2:
            continue
        done = [r for r in results if r.finished and r.first is not None]
        table_won = sum(credit(r, r.first) for r in done if r.first is not None)
        decks = {
            deck: sum(credit(r, seat) for r in done for seat, d in enumerate(r.decks) if d == deck)
            for deck in table.decks
        }
        top = max(decks, key=lambda deck: decks[deck])
        rates = {"the first seat": table_won / len(done) if done else 0.0} | {
            deck: won_by / len(done) if done else 0.0 for deck, won_by in decks.items()
        }
        for what, rate in rates.items():
            if done and (rate > worst_rate or not worst):
                worst, worst_rate = f"{table.label}: {what}", rate
            if rate > PAIRING_AT_MOST:
                flags.append(f"{table.label}: {what} wins {rate:.1%} (above {PAIRING_AT_MOST:.0%})")
        low, high = wilson(table_won, len(done))
        met = bool(done) and max(rates.values()) <= PAIRING_AT_MOST
        lines.append(
            f"| {table.label} | {len(done)} | {share(table_won, len(done))} | ±{(high - low) / 2 * 100:.1f} "
            f"| {top} {rates[top]:.1%} | <= {PAIRING_AT_MOST:.0%} | {'meets' if met else 'MISSES'} |"
        )
        won += table_won
        games += len(done)
    found = FirstSeat(won, games, worst, worst_rate)
    lines.append(
        f"| over all | {games} | {share(won, games)} | ±{found.half_width * 100:.1f} | | "
        f"<= {FIRST_AT_MOST:.0%}, ±{FIRST_WIDTH * 100:.0f} | {'meets' if found.first_meets else 'MISSES'} |"
    )
    if games and found.rate > FIRST_AT_MOST:
        flags.append(f"the first seat wins {found.rate:.1%} over all (above {FIRST_AT_MOST:.0%})")
    if found.half_width > FIRST_WIDTH:
        flags.append(
            f"the first seat's interval over all is ±{found.half_width:.1%} over {games} games (more games needed)"
        )
    return found, lines, flags


# -- ISMCTS in every seat: games accumulated in a ledger across runs


def ledger_path() -> Path:
    """The ledger of this run's games: the committed one, or the candidate pool's own."""
    path = candidate_path()
    return path.with_suffix(".jsonl") if path is not None else LEDGER


def ledger_fingerprint(kind: str, bots: str) -> str:
    """A digest of everything that decides a game of ``kind`` with ``bots`` in every seat:
    the search's budget, the shared game and bot sources and the kind's package (as
    ``bench.bots`` digests them), and the bench's own code that deals, seats and plays it."""
    game = registry.all_games()[kind]
    digest = hashlib.sha256(f"{kind}|{bots}|{ismcts.iterations_of(game)}|{MAX_ACTIONS}".encode())
    digest_sources(digest.update, kind, (seat_decks, play))
    if CANDIDATE:
        digest.update(f"|candidate {CANDIDATE[0][1]}".encode())
    return digest.hexdigest()[:16]


def ledger_line(spec: Spec, result: Result, cpu_seconds: float, fingerprint: str) -> dict[str, object]:
    """The ledger's line for one game."""
    return {
        "kind": spec.kind,
        "bots": spec.bots,
        "fingerprint": fingerprint,
        "table": spec.table.label,
        "index": spec.index,
        "first": result.first,
        "first_share": credit(result, result.first) if result.finished and result.first is not None else None,
        "decks": list(result.decks),
        "deck_shares": [credit(result, seat) for seat in range(len(result.decks))],
        "winners": list(result.winners),
        "reason": result.reason,
        "turns": result.turns,
        "rounds": result.rounds,
        "actions": result.actions,
        "finished": result.finished,
        "cpu_seconds": round(cpu_seconds, 2),
        "cpu": machine_facts().get("cpu", "?"),
        "at": f"{datetime.datetime.now(datetime.UTC):%Y-%m-%dT%H:%M:%SZ}",
    }


def result_of(record: dict[str, Any]) -> Result:
    """A ledger line back as the ``Result`` the tables read (no per-card counts)."""
    return Result(
        finished=bool(record["finished"]),
        actions=int(record["actions"]),
        winners=tuple(record["winners"]),
        reason=str(record["reason"]),
        turns=record["turns"],
        rounds=record.get("rounds"),
        first=record["first"],
        decks=tuple(record["decks"]),
    )


def ledger_games(kind: str, bots: str, path: Path | None = None) -> dict[tuple[str, int], dict[str, Any]]:
    """The ledger's games of ``kind`` and ``bots`` under the current fingerprint, by table
    and index (the first line wins if a game was ever recorded twice)."""
    current = ledger_fingerprint(kind, bots)
    found: dict[tuple[str, int], dict[str, Any]] = {}
    for record in read_ledger(path or ledger_path()):
        if record["kind"] == kind and record["bots"] == bots and record["fingerprint"] == current:
            found.setdefault((str(record["table"]), int(record["index"])), record)  # type: ignore[call-overload]
    return found


def timed_play(spec: Spec) -> tuple[Spec, Result, float]:
    """One game and the CPU seconds it took (in a worker process)."""
    started = time.process_time()
    result = play(spec)
    return spec, result, time.process_time() - started


def quiet_worker() -> None:
    """A worker that yields the cores to everything else and leaves a Ctrl-C to the
    parent, which lets the games under way finish."""
    os.nice(19)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class Progress:
    """A run's count of games, for its progress lines."""

    plan: list[Table]
    done: dict[str, list[float]]  # per table, each finished game's first-seat share
    started: float = field(default_factory=time.perf_counter)
    added: int = 0
    cpu: float = 0.0

    def line(self, spec: Spec, result: Result, cpu_seconds: float, until_width: float | None) -> str:
        target = sum(table.games for table in self.plan)
        total = sum(len(shares) for shares in self.done.values())
        minutes = (time.perf_counter() - self.started) / 60
        per_minute = self.added / minutes if minutes else 0.0
        tables = ", ".join(
            f"{table.label} {len(self.done[table.label])}/{table.games}"
            + (f" ({sum(self.done[table.label]) / len(self.done[table.label]):.0%})" if self.done[table.label] else "")
            for table in self.plan
        )
        won = sum(sum(shares) for shares in self.done.values())
        left = max(0, target - total)
        eta = f"{left / per_minute / 60:.1f} h" if per_minute else "?"
        return (
            f"[{total}/{target}] {spec.table.label} #{spec.index}: {cpu_seconds:.0f} CPU s, {result.actions} actions"
            f" | {tables} | first seat {share(won, total).strip()}, ±{half_width(won, total) * 100:.1f}"
            + (f" (until ±{until_width * 100:g})" if until_width else "")
            + f" | this run {self.added} in {minutes:.1f} min, {per_minute * 60:.1f} games/h,"
            f" {self.cpu / self.added:.0f} CPU s a game | ETA {eta}"
        )


def half_width(won: float, games: int) -> float:
    low, high = wilson(won, games)
    return (high - low) / 2


def play_ledger(
    kind: str,
    bots: str,
    plan: list[Table],
    workers: int,
    until_width: float | None = None,
    minutes: float | None = None,
    path: Path | None = None,
) -> int:
    """Play the games of ``plan`` the ledger lacks under the current fingerprint, lowest
    index first across the tables in turn (so that they fill evenly), appending each
    to the ledger as it finishes; returns how many. Stops starting games once every
    table is full, the first seat's interval over all is within ``until_width``,
    ``minutes`` have passed, or on SIGINT or SIGTERM; the games under way finish and count."""
    path = path or ledger_path()
    fingerprint = ledger_fingerprint(kind, bots)
    kept = {(str(r["kind"]), str(r["bots"])) for r in read_ledger(path) if r["kind"] in registry.keys()}
    prune_ledger({ledger_fingerprint(k, b) for k, b in kept if b in SEAT_BOTS} | {fingerprint}, path)
    recorded = ledger_games(kind, bots, path)
    progress = Progress(plan, {table.label: [] for table in plan})
    for (label, _), record in recorded.items():
        if label in progress.done and record["first_share"] is not None:
            progress.done[label].append(float(record["first_share"]))
    todo = sorted(
        (
            Spec(kind, table, index, bots)
            for table in plan
            for index in range(table.games)
            if (table.label, index) not in recorded
        ),
        key=lambda spec: (spec.index, plan.index(spec.table)),
    )
    stop: list[str] = []

    def on_signal(number: int, frame: FrameType | None) -> None:
        stop.append(signal.Signals(number).name)
        print(f"{signal.Signals(number).name}: no new game; the games under way finish and are recorded", flush=True)

    def finished(spec: Spec, result: Result, cpu_seconds: float) -> None:
        append_record(ledger_line(spec, result, cpu_seconds, fingerprint), path)
        progress.added += 1
        progress.cpu += cpu_seconds
        if result.finished and result.first is not None:
            progress.done[spec.table.label].append(credit(result, result.first))
        print(progress.line(spec, result, cpu_seconds, until_width), flush=True)

    def may_start() -> bool:
        if stop:
            return False
        if minutes is not None and time.perf_counter() - progress.started >= minutes * 60:
            stop.append(f"{minutes:g} minutes")
            return False
        won = sum(sum(shares) for shares in progress.done.values())
        games = sum(len(shares) for shares in progress.done.values())
        if until_width is not None and games and half_width(won, games) <= until_width:
            stop.append(f"the interval within ±{until_width * 100:g} points")
            return False
        return True

    print(
        f"{kind}, {bots} in every seat: {len(recorded)} game(s) in {path.name} under fingerprint {fingerprint}, "
        f"{len(todo)} to play, {workers} worker(s)",
        flush=True,
    )
    previous = {number: signal.signal(number, on_signal) for number in (signal.SIGINT, signal.SIGTERM)}
    queue = iter(todo)
    try:
        if workers <= 1:
            while may_start() and (spec := next(queue, None)) is not None:
                finished(*timed_play(spec))
        else:
            with ProcessPoolExecutor(workers, initializer=candidate_worker, initargs=(candidate_path(), True)) as pool:
                pending: set[Future[tuple[Spec, Result, float]]] = set()
                while True:
                    while len(pending) < workers and may_start() and (spec := next(queue, None)) is not None:
                        pending.add(pool.submit(timed_play, spec))
                    if not pending:
                        break
                    ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in ready:
                        finished(*future.result())
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    print(f"stopped by {stop[0] if stop else 'every table full'}: {progress.added} game(s) added", flush=True)
    return progress.added


def ledger_report(kind: str, bots: str, plan: list[Table], path: Path | None = None) -> tuple[list[str], FirstSeat]:
    """The tables of the greedy run, from the ledger's games under the current fingerprint,
    with the first seat against the issue's targets and their flags."""
    path = path or ledger_path()
    games = ledger_games(kind, bots, path)
    grouped = [
        (table, [result_of(record) for (label, _), record in sorted(games.items()) if label == table.label])
        for table in plan
    ]
    cpu = [float(record["cpu_seconds"]) for record in games.values()]
    days = sorted(str(record["at"])[:10] for record in games.values()) or ["-"]
    lines = [
        f"# balance of {kind}: {bots} in every seat, from the ledger",
        "",
        f"{len(games)} of {sum(table.games for table in plan)} games in `{path.name}` under fingerprint "
        f"{ledger_fingerprint(kind, bots)} (played {days[0]} to {days[-1]}; median {median_of(cpu)} CPU s a game); "
        f"ISMCTS at {ismcts.iterations_of(registry.all_games()[kind])} iterations a move, no clock"
        + (f"; candidate pool `{CANDIDATE[0][0].name}`" if CANDIDATE else ""),
        "",
    ]
    for table, results in grouped:
        lines += [*report(kind, table, results)[0], ""]
    lines += [*deck_summary(kind, grouped)[0], ""]
    found, targets, flags = first_seat(grouped)
    lines += [*targets, ""]
    lines.append("flags: " + ("; ".join(flags) if flags else "none against the issue's targets"))
    lines.append("(a flag is on the point estimate; read it with its interval and the number of games)")
    return lines, found


# -- rows of ``python -m bench``


def rows(quick: bool, kind: str = "dragoborne") -> list[Row]:
    """The first seat's wins at ``kind``: greedy bots played now (the greedy tables' 600
    games a pairing; ``--quick``: 40, for scale), and ISMCTS from the ledger as it stands."""
    plan = tables(kind, QUICK_GAMES if quick else None)
    specs = [Spec(kind, table, index) for table in plan for index in range(table.games)]
    results = play_all(specs, os.cpu_count() or 1)
    grouped = [(table, [r for s, r in zip(specs, results, strict=True) if s.table == table]) for table in plan]
    greedy = first_seat(grouped)[0]
    ismcts_plan = tables(kind, ISMCTS_GAMES)
    _, searched = ledger_report(kind, "ismcts", ismcts_plan)
    target = sum(table.games for table in ismcts_plan)
    greedy_label = f"greedy, {greedy.games} games" + (" (quick)" if quick else "")
    searched_label = f"ISMCTS, ledger's {searched.games} of {target} games"
    return [
        *seat_rows(kind, greedy_label, greedy, not quick),
        *seat_rows(kind, searched_label, searched, searched.games > 0),
    ]


def seat_rows(kind: str, label: str, found: FirstSeat, judged: bool) -> list[Row]:
    """Two rows: the first seat's wins over all, and the most one-sided pairing; judged
    against the issue's targets, or only printed for scale."""
    over_all = Row(
        f"(14) {kind}, {label}: first seat wins, ±{found.half_width * 100:.1f} points",
        found.rate * 100,
        50.0,
        "%",
        f"<= {FIRST_AT_MOST:.0%}, ±{FIRST_WIDTH * 100:.0f}",
        found.rate * 2,
        found.first_meets if judged else None,
        "an even game",
    )
    worst = Row(
        f"(14) {kind}, {label}: most one-sided pairing ({found.worst or 'none'})",
        found.worst_rate * 100,
        50.0,
        "%",
        f"<= {PAIRING_AT_MOST:.0%}",
        found.worst_rate * 2,
        found.pairings_meet if judged else None,
        "an even game",
    )
    return [over_all, worst]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.balance", description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=registry.keys())
    parser.add_argument("--games", type=int, help="games per table (default: the issue's count)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--bots", choices=sorted(SEAT_BOTS), default="greedy", help="every seat's bot")
    parser.add_argument("--until-width", type=float, help="ismcts: stop once the first seat's interval is within it")
    parser.add_argument("--minutes", type=float, help="ismcts: start no game after these minutes")
    parser.add_argument("--report", action="store_true", help="ismcts: print the ledger's tables, play nothing")
    parser.add_argument(
        "--candidate", type=Path, help="dragoborne: a candidate pool (revision4.json's form) over the default one"
    )
    args = parser.parse_args(argv)
    if args.candidate is not None:
        if args.kind != "dragoborne":
            parser.error("--candidate is a dragoborne pool")
        apply_candidate(args.candidate)
    game = registry.all_games()[args.kind]
    plan = tables(args.kind, args.games or (ISMCTS_GAMES if args.bots == "ismcts" else None))
    if args.bots == "greedy" and (args.until_width or args.minutes or args.report):
        parser.error("--until-width, --minutes and --report go with --bots ismcts")
    for table in plan:  # refuse a wrong deck name before playing anything
        probe = Spec(args.kind, table, 0)
        decks = seat_decks(probe)
        game.validate_options({"decks": list(decks)} if decks else None, table.players)
    if args.bots != "greedy":
        if not args.report:
            play_ledger(args.kind, args.bots, plan, args.workers, args.until_width, args.minutes)
        print("\n".join(ledger_report(args.kind, args.bots, plan)[0]))
        return 0
    started = time.perf_counter()
    specs = [Spec(args.kind, table, i) for table in plan for i in range(table.games)]
    results = play_all(specs, args.workers)
    grouped = [(table, [r for s, r in zip(specs, results, strict=True) if s.table == table]) for table in plan]
    named = f", candidate pool {args.candidate.name}" if args.candidate else ""
    print(f"# balance of {args.kind}: greedy bots in every seat{named}\n")
    flags: list[str] = []
    for table, found in grouped:
        lines, raised = report(args.kind, table, found)
        print("\n".join(lines) + "\n")
        flags += raised
    summary, raised = deck_summary(args.kind, grouped)
    if summary:
        print("\n".join(summary) + "\n")
    flags += raised
    per_card, raised = card_table(args.kind, results)
    if per_card:
        print("\n".join(per_card) + "\n")
    flags += raised
    print("flags: " + ("; ".join(flags) if flags else "none against the issue's targets"))
    print("(a flag is on the point estimate; read it with its interval and the number of games)")
    print(f"({len(specs)} games, {time.perf_counter() - started:.0f} s, {args.workers} processes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
