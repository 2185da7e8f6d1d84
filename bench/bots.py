"""Bot strength and speed: ``python -m bench.bots [--quick] [--workers 2] [--minutes M]``.

Strength: for every game kind, two pairings, each a challenger against
a weaker bot: ISMCTS against greedy, and greedy against random. A kind is played
at its smallest table of two or more seats; the challenger sits alone against
the opponent bot in every other seat, and takes every seat in turn (game ``i``
puts it in seat ``i mod players``). A game scores, for the challenger, its
pairwise finishes against each opponent seat (1 above, 0.5 level, 0 below; ranked
by being among the winners, then by the outcome's score), averaged over the
opponent seats: with two players that is a win, a draw (or an unfinished game)
as a half, or a loss; at dragon-fortress's three it is the share of the other
two seats the challenger finished above, so that even play scores 50% at any
table size.

Games run in a pool of nice'd processes (``--workers``, default 2), in order, and
a pairing stops once the 95% Wilson interval of the games finished so far (a
prefix of the games in their order, so that quick games do not come first) is
within +/-5 points, or at ``--max-games``, or after ``--minutes`` of wall time
(the games then under way finish and count).
ISMCTS plays with a clock (``time.process_time``) at its default budget
(``games.ismcts.MOVE_SECONDS``, or ``--seconds``).

At 300 ms a move a game takes ISMCTS 15-40 s of CPU, and +/-5 points takes
about 270 games at a 77% score: hours per kind, more than one sitting. So every
finished game is appended at once to a ledger, ``bench/strength-games.jsonl``
(committed), under a fingerprint of everything that decides it: the source of
the bots, the search, the game kind's package, the bench's match code, the
budget and the options. A run resumes each pairing where the ledger's games for
the current fingerprint stop, and a change to any of those sources starts that
pairing over (old lines are dropped when the ledger is next written). Deals
depend only on the pairing and the game's index, so resumed runs play the games
a single long run would have.

The table goes to ``bench/strength.md``, from the ledger, for every kind and
pairing (those not played yet show their games so far), with the machine,
budget and per-bot CPU ms per move: the median over games of each game's
median, counting moves with two or more legal actions only (forced moves cost
nothing and would hide the search time); ``strength_markdown()`` returns it for
the report, and ``--table`` rewrites it from the ledger without playing.

Row 6 of ``python -m bench`` is ``move_time_rows``: CPU time per move on sampled
states, worst of three runs.
"""

from __future__ import annotations

import argparse
import datetime
import fcntl
import hashlib
import inspect
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from bench.common import Row, figure, machine_facts, median
from games import ismcts, registry
from games.base import Action, Game, State
from games.bots import BOTS
from games.play import new_game, step

PAIRINGS = (("ismcts", "greedy"), ("greedy", "random"))
WIN_TARGET = {"ismcts": 0.65, "greedy": 0.80}
ISMCTS_MOVE_MS_TARGET = 400.0
HALF_WIDTH = 0.05
MIN_GAMES = 20
MAX_GAMES = 400
MAX_ACTIONS = 5_000
RUNS = 3
STRENGTH_FILE = Path(__file__).with_name("strength.md")
LEDGER = Path(__file__).with_name("strength-games.jsonl")
GAMES_DIR = Path(ismcts.__file__).parent
# Sources outside a kind's package that decide a game's result.
SHARED_SOURCES = ("base.py", "bots.py", "cards.py", "ismcts.py", "play.py", "rng.py")

Chooser = Callable[[Game, State, int, random.Random], Action]


@dataclass(frozen=True)
class Match:
    kind: str
    challenger: str
    opponent: str
    index: int
    seconds: float = ismcts.MOVE_SECONDS
    ismcts_options: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Moves:
    """One bot's timed moves in one game (moves with a real choice): how many, the median
    and the slowest, CPU ms."""

    count: int = 0
    median: float = 0.0
    slowest: float = 0.0

    @classmethod
    def of(cls, times: list[float]) -> Moves:
        return cls(len(times), statistics.median(times), max(times)) if times else cls()


@dataclass(frozen=True)
class Result:
    index: int
    score: float  # the challenger's pairwise finishes, averaged over the opponent seats
    finished: bool
    challenger: Moves = Moves()
    opponent: Moves = Moves()

    def record(self, match: Match, fingerprint: str) -> dict[str, object]:
        """The ledger's line for this game."""
        return {
            "kind": match.kind,
            "pairing": f"{match.challenger}-{match.opponent}",
            "fingerprint": fingerprint,
            "index": self.index,
            "score": self.score,
            "finished": self.finished,
            "challenger": [self.challenger.count, round(self.challenger.median, 3), round(self.challenger.slowest, 3)],
            "opponent": [self.opponent.count, round(self.opponent.median, 3), round(self.opponent.slowest, 3)],
            "cpu": machine_facts().get("cpu", "?"),
            "at": f"{datetime.datetime.now(datetime.UTC):%Y-%m-%dT%H:%M:%SZ}",
        }

    @classmethod
    def from_record(cls, record: dict[str, object]) -> Result:
        mine, theirs = record["challenger"], record["opponent"]
        assert isinstance(mine, list) and isinstance(theirs, list)
        index, score = record["index"], record["score"]
        assert isinstance(index, int) and isinstance(score, int | float)
        return cls(index, float(score), bool(record["finished"]), Moves(*mine), Moves(*theirs))


def players_of(game: Game) -> int:
    return max(2, game.min_players)


def bot(name: str, seconds: float, options: tuple[tuple[str, float], ...] = ()) -> Chooser:
    """``name``'s bot as the bench plays it: ISMCTS on the process clock."""
    if name == "ismcts":
        counts = {"rollout_depth", "prior_samples", "prior_visits"}
        tuned = {key: int(value) if key in counts else value for key, value in options}
        return partial(ismcts.search, clock=time.process_time, seconds=seconds, **tuned)  # type: ignore[arg-type]
    return BOTS[name]


def finish_share(result: dict[str, object], seat: int, players: int) -> float:
    """``seat``'s pairwise finishes against every other seat, averaged: 1 above, 0.5 level."""
    winners = result["winners"]
    scores = result.get("scores")
    assert isinstance(winners, list)

    def rank(other: int) -> tuple[bool, float]:
        score = scores[other] if isinstance(scores, list) and isinstance(scores[other], int | float) else 0
        return (other in winners, float(score))

    mine = rank(seat)
    shares = [1.0 if mine > rank(o) else 0.5 if mine == rank(o) else 0.0 for o in range(players) if o != seat]
    return sum(shares) / len(shares)


def play_match(match: Match) -> Result:
    game = registry.all_games()[match.kind]
    players = players_of(game)
    chosen = match.index % players
    label = f"strength-{match.kind}-{match.challenger}-{match.opponent}-{match.index}"
    table_rng = random.Random(f"{label}-table")
    seat_rngs = [random.Random(f"{label}-seat{seat}") for seat in range(players)]
    bots = {
        True: bot(match.challenger, match.seconds, match.ismcts_options),
        False: bot(match.opponent, match.seconds, match.ismcts_options),
    }
    play = new_game(game, players, None, table_rng)
    times: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(MAX_ACTIONS):
        if game.outcome(play.state) is not None:
            break
        seat = min(game.to_act(play.state))
        mine = seat == chosen
        choice = len(game.legal_actions(play.state, seat)) > 1
        started = time.process_time()
        action = bots[mine](game, play.state, seat, seat_rngs[seat])
        if choice:
            times[mine].append((time.process_time() - started) * 1000)
        step(game, play, seat, action, table_rng)
    result = game.outcome(play.state)
    score = 0.5 if result is None else finish_share(result, chosen, players)
    return Result(match.index, score, result is not None, Moves.of(times[True]), Moves.of(times[False]))


def fingerprint(
    kind: str, challenger: str, opponent: str, seconds: float, options: tuple[tuple[str, float], ...]
) -> str:
    """A digest of everything that decides a game of this pairing: the shared game and bot
    sources, the kind's package (code and card data), the bench's match code, the
    budget (when ISMCTS plays) and the search options."""
    digest = hashlib.sha256(f"{kind}|{challenger}|{opponent}".encode())
    if "ismcts" in (challenger, opponent):
        digest.update(f"|{seconds!r}|{sorted(options)!r}".encode())
    digest_sources(digest.update, kind, (players_of, bot, finish_share, play_match))
    return digest.hexdigest()[:16]


def digest_sources(update: Callable[[bytes], object], kind: str, functions: tuple[Callable[..., object], ...]) -> None:
    """Feed to ``update`` (a digest's) the sources that decide a game of ``kind`` between bots: the shared
    game and bot modules, the kind's package (code and card data), then ``functions``, the
    bench's own code that plays it."""
    package = Path(inspect.getfile(type(registry.all_games()[kind]))).parent
    files = [GAMES_DIR / name for name in SHARED_SOURCES]
    files += sorted(path for path in package.iterdir() if path.suffix in {".py", ".json"})
    for path in files:
        update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for function in functions:
        update(inspect.getsource(function).encode())


def read_ledger(path: Path | None = None) -> list[dict[str, object]]:
    """The ledger's complete lines (a line still being written, without its newline yet,
    is left for the next read); ``path``, another ledger of the same shape."""
    path = path or LEDGER
    if not path.exists():
        return []
    return _records(path.read_text())


def _records(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.split("\n")[:-1] if line.strip()]


def ledger_results(kind: str, pairing: str, print_: str) -> dict[int, Result]:
    """The ledger's games of this pairing under fingerprint ``print_``, by index (the
    first line wins if a game was ever recorded twice)."""
    found: dict[int, Result] = {}
    for record in read_ledger():
        if record["kind"] == kind and record["pairing"] == pairing and record["fingerprint"] == print_:
            result = Result.from_record(record)
            found.setdefault(result.index, result)
    return found


def record_game(result: Result, match: Match, print_: str) -> None:
    """Append one finished game to the ledger, in one write, under the ledger's lock (so
    that a prune never drops it)."""
    append_record(result.record(match, print_))


def append_record(record: dict[str, object], path: Path | None = None) -> None:
    """Append one line to the ledger (or the ledger at ``path``), in one write, under its lock."""
    with (path or LEDGER).open("a") as ledger:
        fcntl.flock(ledger, fcntl.LOCK_EX)
        ledger.write(json.dumps(record, separators=(",", ":")) + "\n")


def prune_ledger(current: set[str], path: Path | None = None) -> int:
    """Drop the ledger's lines whose fingerprint no pairing has any more, in place under
    the ledger's lock (a run adding games meanwhile waits, then appends after); returns
    how many. ``path``: another ledger of the same shape."""
    path = path or LEDGER
    if not path.exists():
        return 0
    with path.open("r+") as ledger:
        fcntl.flock(ledger, fcntl.LOCK_EX)
        records = _records(ledger.read())
        kept = [record for record in records if record["fingerprint"] in current]
        if len(kept) != len(records):
            ledger.seek(0)
            ledger.write("".join(json.dumps(record, separators=(",", ":")) + "\n" for record in kept))
            ledger.truncate()
    return len(records) - len(kept)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def settled(results: list[Result]) -> bool:
    if len(results) < MIN_GAMES:
        return False
    low, high = wilson(sum(r.score for r in results), len(results))
    return (high - low) / 2 <= HALF_WIDTH


@dataclass
class Pairing:
    kind: str
    challenger: str
    opponent: str
    results: list[Result] = field(default_factory=list)
    seconds: float = ismcts.MOVE_SECONDS
    options: tuple[tuple[str, float], ...] = ()
    wall: float = 0.0
    added: int = 0  # games this run played
    stopped_by: str = ""
    record: bool = True  # False: fresh games, the ledger neither read nor written

    @property
    def name(self) -> str:
        return f"{self.challenger}-{self.opponent}"

    @property
    def recorded(self) -> bool:
        """Whether this pairing's games go to the ledger: only at the table's own settings
        (the default budget, no tuning options), unless told not to."""
        return self.record and self.seconds == ismcts.MOVE_SECONDS and not self.options

    def fingerprint(self) -> str:
        return fingerprint(self.kind, self.challenger, self.opponent, self.seconds, self.options)

    def row(self) -> str:
        game = registry.all_games()[self.kind]
        played = len(self.results)
        score = sum(r.score for r in self.results)
        rate = score / played if played else 0.0
        low, high = wilson(score, played)
        mine = [r.challenger.median for r in self.results if r.challenger.count]
        theirs = [r.opponent.median for r in self.results if r.opponent.count]
        mine_ms = statistics.median(mine) if mine else 0.0
        theirs_ms = statistics.median(theirs) if theirs else 0.0
        target = WIN_TARGET[self.challenger]
        met = rate >= target
        goal = f">= {target:.0%}"
        if self.challenger == "ismcts":
            met = met and mine_ms <= ISMCTS_MOVE_MS_TARGET
            goal += f", <= {ISMCTS_MOVE_MS_TARGET:.0f} ms"
        sure = "settled" if played and (low >= target or high < target) else "not settled"
        cells = [
            self.kind,
            str(players_of(game)),
            f"{self.challenger} vs {self.opponent}",
            str(played),
            f"{rate:.1%}" if played else "-",
            f"[{low:.1%}, {high:.1%}]",
            f"±{(high - low) / 2 * 100:.1f}",
            str(sum(not r.finished for r in self.results)),
            f"{mine_ms:.2f}",
            f"{theirs_ms:.2f}",
            goal.replace(">", "&gt;").replace("<", "&lt;"),
            f"{'pass' if met else 'MISS'} ({sure})" if played else "not played",
            "yes" if settled(self.results) else "no: more games",
        ]
        return "| " + " | ".join(cells) + " |"

    def progress(self) -> str:
        """This run's share: games added, why it stopped, minutes."""
        minutes = self.wall / 60
        return f"{self.kind} {self.name}: {self.added} game(s) added, stopped by {self.stopped_by}, {minutes:.1f} min"


TABLE_HEAD = (
    "| kind | seats | pairing | games | challenger's score | 95% interval | ± points | unfinished "
    "| challenger ms/move | opponent ms/move | target | verdict | ±5 reached |\n"
    "|---|---:|---|---:|---:|---|---:|---:|---:|---:|---|---|---|"
)


def play_pairing(
    pairing: Pairing,
    pool: ProcessPoolExecutor | None,
    workers: int,
    max_games: int,
    minutes: float | None,
) -> Pairing:
    """Play ``pairing``'s games in order until its interval is narrow enough, ``max_games``
    or ``minutes``; only a prefix of the games in order counts. At the table's settings
    it starts from the ledger's games and records each game it finishes there at once."""
    started = time.perf_counter()
    print_ = pairing.fingerprint()
    done: dict[int, Result] = ledger_results(pairing.kind, pairing.name, print_) if pairing.recorded else {}
    prefix: list[Result] = []

    def extend() -> None:
        while len(prefix) in done:
            prefix.append(done.pop(len(prefix)))

    def matches() -> Iterator[Match]:
        for index in range(len(prefix), max_games):
            if index not in done:
                yield Match(pairing.kind, pairing.challenger, pairing.opponent, index, pairing.seconds, pairing.options)

    def finished(match: Match, result: Result) -> None:
        if pairing.recorded:
            record_game(result, match, print_)
        pairing.added += 1
        done[result.index] = result
        extend()

    def out_of_time() -> bool:
        return minutes is not None and time.perf_counter() - started >= minutes * 60

    extend()
    pairing.stopped_by = f"{max_games} games"
    if settled(prefix):
        pairing.stopped_by = "interval (from the ledger)"
    elif pool is None:
        for match in matches():
            finished(match, play_match(match))
            if settled(prefix):
                pairing.stopped_by = "interval"
                break
            if out_of_time():
                pairing.stopped_by = "time"
                break
    else:
        pending: dict[int, tuple[Match, Future[Result]]] = {}
        queue = matches()
        while True:
            while len(pending) < workers * 2:
                upcoming = next(queue, None)
                if upcoming is None:
                    break
                pending[upcoming.index] = (upcoming, pool.submit(play_match, upcoming))
            if not pending:
                break
            result = next(_as_completed([future for _, future in pending.values()]))
            match, _ = pending.pop(result.index)
            finished(match, result)
            reason = "interval" if settled(prefix) else "time" if out_of_time() else None
            if reason:
                pairing.stopped_by = reason
                # Games already under way finish and count: left running, they would only
                # hold the pool's workers from the next pairing.
                for match, future in pending.values():
                    if not future.cancel():
                        finished(match, future.result())
                break
    pairing.results = prefix
    pairing.wall = time.perf_counter() - started
    return pairing


def _as_completed(pending: list[Future[Result]]) -> Iterator[Result]:
    from concurrent.futures import FIRST_COMPLETED, wait

    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
    for future in finished:
        yield future.result()


def strength_markdown() -> str:
    """The strength table of the last ``python -m bench.bots`` run, for the report."""
    if not STRENGTH_FILE.exists():
        return "Bot strength (`python -m bench.bots`): not run yet on this checkout.\n"
    return STRENGTH_FILE.read_text()


def ledger_pairings() -> list[Pairing]:
    """Every kind's two pairings at the table's settings, with the ledger's games (the
    prefix of consecutive games from the first) under their current fingerprints."""
    pairings = []
    for kind in registry.keys():
        for challenger, opponent in PAIRINGS:
            pairing = Pairing(kind, challenger, opponent)
            found = ledger_results(kind, pairing.name, pairing.fingerprint())
            index = 0
            while index in found:
                pairing.results.append(found[index])
                index += 1
            pairings.append(pairing)
    return pairings


def write_strength(command: str) -> str:
    """Rewrite ``strength.md`` from the ledger (dropping the ledger's stale lines first)."""
    pairings = ledger_pairings()
    prune_ledger({pairing.fingerprint() for pairing in pairings})
    records = read_ledger()
    cpus = sorted({str(record.get("cpu", "?")) for record in records}) or ["?"]
    days = sorted(str(record.get("at", "?"))[:10] for record in records) or ["?"]
    facts = machine_facts()
    lines = [
        "# Bot strength",
        "",
        f"Written by `{command}` on {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC from the ledger "
        f"`{LEDGER.name}` ({len(records)} games, played {days[0]} to {days[-1]}); regenerated by every run, "
        "never edited by hand.",
        "",
        f"- machine: {'; '.join(cpus)}, {facts['cores']} cores, Python {facts['python']}; games run in nice'd "
        "worker processes; ISMCTS's budget is process CPU time, so the machine's load changes its play less "
        "than a wall-clock budget would (a busy machine still runs fewer iterations a CPU second)",
        f"- ISMCTS budget: {ismcts.MOVE_SECONDS * 1000:.0f} ms of process CPU time a move "
        "(`games.ismcts.MOVE_SECONDS`)",
        f"- a pairing's games accumulate across runs in the ledger until its 95% Wilson interval is within "
        f"±{HALF_WIDTH * 100:.0f} points (at least {MIN_GAMES} games); a change to the bots, the search or the "
        "kind's rules starts it over",
        "- score: the challenger's pairwise finishes against each opponent seat (1 above, 0.5 level or "
        "unfinished, 0 below; ranked by winning, then by the outcome's score), averaged per game: "
        "at two seats a win rate with draws as half; dragon-fortress plays at three seats, one "
        "challenger against two opponents, and 50% is even play",
        "- ms/move: the median over games of each game's median CPU ms, counting moves with two or more legal actions",
        "- verdict: the score against the target (and ISMCTS's ms/move); settled when the whole "
        "interval lies on one side of the target",
        "",
        TABLE_HEAD,
        *(pairing.row() for pairing in pairings),
        "",
    ]
    text = "\n".join(lines)
    STRENGTH_FILE.write_text(text)
    return text


# -- row 6 of the report: CPU ms per move on sampled states, worst of three runs


def runner_states(kind: str, count: int) -> list[tuple[object, int]]:
    """States from random games of ``kind`` (at its smallest table of two or more) where
    the seat to act has a real choice."""
    game = registry.all_games()[kind]
    players = players_of(game)
    rng = random.Random(f"bench-moves-{kind}")
    found: list[tuple[object, int]] = []
    while len(found) < count:
        play = new_game(game, players, None, rng)
        for _ in range(rng.randrange(1, 300)):
            if game.outcome(play.state) is not None:
                break
            seat = min(game.to_act(play.state))
            step(game, play, seat, rng.choice(game.legal_actions(play.state, seat)), rng)
        if game.outcome(play.state) is None:
            seat = min(game.to_act(play.state))
            if len(game.legal_actions(play.state, seat)) > 1:
                found.append((play.state, seat))
    return found


def move_time_rows(quick: bool) -> list[Row]:
    """Per kind, the median CPU ms per move of greedy and of ISMCTS (on the process clock
    at its default budget) over sampled states, measured three times and the worst run
    reported, and ISMCTS's slowest move of all three; baseline: the random bot on the same
    states (one ``legal_actions`` and a choice)."""
    states_per_kind = 2 if quick else 20
    movers: dict[str, Chooser] = {"random": BOTS["random"], "greedy": BOTS["greedy"]}
    movers["ismcts"] = bot("ismcts", ismcts.MOVE_SECONDS)
    rows = []
    for kind in registry.keys():
        game = registry.all_games()[kind]
        states = runner_states(kind, states_per_kind)
        runs: dict[str, list[list[float]]] = {name: [] for name in movers}
        for run in range(RUNS):
            for name, mover in movers.items():
                times = []
                for index, (state, seat) in enumerate(states):
                    rng = random.Random(f"{run}-{index}")
                    started = time.process_time()
                    mover(game, state, seat, rng)
                    times.append((time.process_time() - started) * 1000)
                runs[name].append(times)
        floor = max(median(times) for times in runs["random"])
        where = f"{len(states)} states x {RUNS} runs"
        greedy_ms = max(median(times) for times in runs["greedy"])
        rows.append(figure(f"(6) {kind}: greedy, median CPU ms/move, worst run ({where})", greedy_ms, floor, "ms"))
        ismcts_ms = max(median(times) for times in runs["ismcts"])
        slowest = max(max(times) for times in runs["ismcts"])
        for label, ms in ((f"median CPU ms/move, worst run ({where})", ismcts_ms), ("slowest move (max)", slowest)):
            rows.append(
                Row(
                    f"(6) {kind}: ismcts, {label}",
                    ms,
                    floor,
                    "ms",
                    f"<= {ISMCTS_MOVE_MS_TARGET:.0f} ms",
                    ms / floor if floor else float("inf"),
                    ms <= ISMCTS_MOVE_MS_TARGET,
                    "random bot, same states",
                )
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"at most {MIN_GAMES} games per pairing")
    parser.add_argument("--max-games", type=int, help=f"games per pairing at most (default {MAX_GAMES})")
    parser.add_argument("--minutes", type=float, help="wall-clock minutes per pairing at most")
    parser.add_argument("--workers", type=int, default=2, help="nice'd processes (default 2)")
    parser.add_argument("--kind", action="append", help="only these game kinds (repeatable)")
    parser.add_argument("--pairing", action="append", choices=[f"{a}-{b}" for a, b in PAIRINGS])
    parser.add_argument("--seconds", type=float, default=ismcts.MOVE_SECONDS, help="ISMCTS CPU seconds a move")
    parser.add_argument("--ismcts", action="append", default=[], help="a search option, NAME=VALUE (tuning)")
    parser.add_argument(
        "--no-write",
        action="store_true",
        help="fresh games, printed only: the ledger and the table are left alone",
    )
    parser.add_argument("--table", action="store_true", help=f"only rewrite {STRENGTH_FILE.name} from the ledger")
    args = parser.parse_args(argv)
    command = " ".join(["python -m bench.bots", *(sys.argv[1:] if argv is None else argv)])
    if args.table:
        print(write_strength(command))
        return
    kinds = args.kind or registry.keys()
    max_games = args.max_games or (MIN_GAMES if args.quick else MAX_GAMES)
    chosen = [(a, b) for a, b in PAIRINGS if not args.pairing or f"{a}-{b}" in args.pairing]
    options = tuple((name, float(value)) for name, value in (option.split("=", 1) for option in args.ismcts))
    tuning = bool(options) or args.seconds != ismcts.MOVE_SECONDS or args.no_write
    print(
        f"up to {max_games} games per pairing, {args.workers} worker(s), ismcts {args.seconds * 1000:.0f} ms a move"
        + (f", {args.minutes} min per pairing at most" if args.minutes else "")
        + (f", options {options}" if options else "")
        + ("; fresh games, no ledger, no table" if tuning else f"; resuming from {LEDGER.name}")
    )
    print(TABLE_HEAD, flush=True)
    pool = ProcessPoolExecutor(args.workers, initializer=os.nice, initargs=(19,)) if args.workers > 1 else None
    pairings = []
    try:
        for kind in kinds:
            for challenger, opponent in chosen:
                pairing = Pairing(kind, challenger, opponent, seconds=args.seconds, options=options, record=not tuning)
                play_pairing(pairing, pool, args.workers, max_games, args.minutes)
                pairings.append(pairing)
                print(pairing.row(), flush=True)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    for pairing in pairings:
        print(pairing.progress())
    if not tuning:
        write_strength(command)


if __name__ == "__main__":
    main()
