"""Bot strength and speed: ``python -m bench.bots [--quick] [--games N] [--calibrate]``.

For each game kind that two can play, ``--games`` games (200; ``--quick``: 20) of
ismcts against random and of greedy against random, the bot's seat alternating,
played in memory through ``games.play``. Prints each pairing's win rate with its
95% Wilson interval (a draw counts half), the median milliseconds the bot took
per move where it had a real choice (two or more legal actions; forced moves are
free and would hide the search time), and a pass/miss column against the targets
of issue 6.

``--calibrate`` instead times the ISMCTS search on states from random games and
prints, per kind, the iterations that make a move take about 300 ms here: the
numbers for ``games.ismcts.ITERATIONS``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from bench.common import Row, figure, median
from games import ismcts, registry
from games.base import Game, State
from games.bots import BOTS, Bot
from games.play import new_game, step

OPPONENT = "random"
CHALLENGERS = ("ismcts", "greedy")
WIN_TARGET = {"ismcts": 0.80, "greedy": 0.65}
ISMCTS_MOVE_MS_TARGET = 400.0
MOVE_MS_GOAL = 300.0
MAX_ACTIONS = 5_000


@dataclass(frozen=True)
class Match:
    kind: str
    bot: str
    index: int
    iterations: int | None = None


@dataclass(frozen=True)
class Result:
    kind: str
    bot: str
    score: float  # 1 win, 0.5 shared win or unfinished, 0 loss
    finished: bool
    move_ms: tuple[float, ...]


def two_player_kinds() -> list[str]:
    return [key for key, game in sorted(registry.all_games().items()) if game.min_players <= 2 <= game.max_players]


def challenger(match: Match) -> Bot:
    if match.bot == "ismcts" and match.iterations is not None:
        return partial(ismcts.search, iterations=match.iterations)
    return BOTS[match.bot]


def play_match(match: Match) -> Result:
    game = registry.all_games()[match.kind]
    bot = challenger(match)
    bot_seat = match.index % 2
    table_rng = random.Random(f"bench-{match.kind}-{match.bot}-{match.index}-table")
    seat_rngs = [random.Random(f"bench-{match.kind}-{match.bot}-{match.index}-seat{s}") for s in range(2)]
    play = new_game(game, 2, None, table_rng)
    move_ms: list[float] = []
    for _ in range(MAX_ACTIONS):
        if game.outcome(play.state) is not None:
            break
        seat = min(game.to_act(play.state))
        if seat == bot_seat:
            choice = len(game.legal_actions(play.state, seat)) > 1
            started = time.process_time()
            action = bot(game, play.state, seat, seat_rngs[seat])
            if choice:
                move_ms.append((time.process_time() - started) * 1000)
        else:
            action = BOTS[OPPONENT](game, play.state, seat, seat_rngs[seat])
        step(game, play, seat, action, table_rng)
    result = game.outcome(play.state)
    if result is None:
        score = 0.5
    elif bot_seat in result["winners"]:
        score = 1.0 / len(result["winners"])
    else:
        score = 0.0
    return Result(match.kind, match.bot, score, result is not None, tuple(move_ms))


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def run(
    kind: str,
    games: int,
    pool: ProcessPoolExecutor | None,
    iterations: int | None = None,
    bots: tuple[str, ...] = CHALLENGERS,
) -> list[Result]:
    matches = [Match(kind, bot, index, iterations) for bot in bots for index in range(games)]
    if pool is None:
        return [play_match(match) for match in matches]
    return list(pool.map(play_match, matches, chunksize=1))


HEADER = (
    f"{'kind':<18} {'bot':<7} {'vs':<7} {'games':>5} {'win':>6} {'95% interval':>15} "
    f"{'unfinished':>10} {'ms/move':>8} {'target':<22} {'':<4}"
)


def rows(results: list[Result]) -> list[str]:
    """One table row per (kind, bot) in ``results``."""
    lines = []
    for kind in sorted({r.kind for r in results}):
        for bot in CHALLENGERS:
            played = [r for r in results if r.kind == kind and r.bot == bot]
            if not played:
                continue
            score = sum(r.score for r in played)
            rate = score / len(played)
            low, high = wilson(score, len(played))
            moves = [ms for r in played for ms in r.move_ms]
            median = statistics.median(moves) if moves else 0.0
            unfinished = sum(not r.finished for r in played)
            met = rate >= WIN_TARGET[bot]
            target = f"win >= {WIN_TARGET[bot]:.0%}"
            if bot == "ismcts":
                met = met and median <= ISMCTS_MOVE_MS_TARGET
                target += f", <= {ISMCTS_MOVE_MS_TARGET:.0f} ms"
            lines.append(
                f"{kind:<18} {bot:<7} {OPPONENT:<7} {len(played):>5} {rate:>6.1%} "
                f"{f'[{low:.1%}, {high:.1%}]':>15} {unfinished:>10} {median:>8.1f} {target:<22} "
                f"{'pass' if met else 'MISS':<4}"
            )
    return lines


def sample_states(game: Game, count: int, seed: int = 0) -> list[tuple[State, int]]:
    """States from random games of the fewest players the kind allows (two, for most)
    where the seat to act has a real choice."""
    rng = random.Random(f"calibrate-{game.key}-{seed}")
    found: list[tuple[State, int]] = []
    while len(found) < count:
        play = new_game(game, game.min_players, None, rng)
        stop = rng.randrange(1, 400)
        for _ in range(stop):
            if game.outcome(play.state) is not None:
                break
            seat = min(game.to_act(play.state))
            step(game, play, seat, rng.choice(game.legal_actions(play.state, seat)), rng)
        if game.outcome(play.state) is None:
            seat = min(game.to_act(play.state))
            if len(game.legal_actions(play.state, seat)) > 1:
                found.append((play.state, seat))
    return found


def calibrate(kinds: Iterable[str], states: int = 30, probe: int = 100) -> str:
    lines = [f"iterations per move for a {MOVE_MS_GOAL:.0f} ms median (probe: {probe} iterations, {states} states)"]
    for kind in kinds:
        game = registry.all_games()[kind]
        per_iteration = []
        for index, (state, seat) in enumerate(sample_states(game, states)):
            started = time.process_time()
            ismcts.search(game, state, seat, random.Random(index), iterations=probe)
            per_iteration.append((time.process_time() - started) * 1000 / probe)
        median = statistics.median(per_iteration)
        lines.append(f"    {kind!r}: {int(MOVE_MS_GOAL / median)},  # {median:.3f} ms per iteration")
    return "\n".join(lines)


# -- row 6 of the report: CPU ms per move on sampled states


def runner_states(kind: str, count: int) -> list[tuple[object, int]]:
    """States from random games of ``kind`` (at its smallest table of two or more) where
    the seat to act has a real choice."""
    game = registry.all_games()[kind]
    players = max(2, game.min_players)
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
    """Median CPU ms per move of each bot at its default budget, per kind, against the
    random bot on the same states (the floor: one ``legal_actions`` and a choice)."""
    states_per_kind = 5 if quick else 30
    rows = []
    for kind in registry.keys():
        game = registry.all_games()[kind]
        states = runner_states(kind, states_per_kind)
        times: dict[str, list[float]] = {name: [] for name in BOTS}
        for index, (state, seat) in enumerate(states):
            for name, bot in BOTS.items():
                rng = random.Random(index)
                started = time.process_time()
                bot(game, state, seat, rng)
                times[name].append((time.process_time() - started) * 1000)
        floor = median(times["random"])
        for name in BOTS:
            if name == "random":
                continue
            ms = median(times[name])
            label = f"(6) {kind}: {name} bot, median CPU ms/move ({len(states)} states)"
            if name == "ismcts":
                ratio = ms / floor if floor else float("inf")
                rows.append(
                    Row(
                        label,
                        ms,
                        floor,
                        "ms",
                        f"<= {ISMCTS_MOVE_MS_TARGET:.0f} ms",
                        ratio,
                        ms <= ISMCTS_MOVE_MS_TARGET,
                        "random bot, same states",
                    )
                )
            else:
                rows.append(figure(label, ms, floor, "ms", "random bot, same states"))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 games per pairing")
    parser.add_argument("--games", type=int, help="games per pairing (default 200; 20 with --quick)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes")
    parser.add_argument("--kind", action="append", help="only these game kinds (repeatable)")
    parser.add_argument("--iterations", type=int, help="ismcts iterations per move (default: its calibrated budget)")
    parser.add_argument("--calibrate", action="store_true", help="print ISMCTS iterations for 300 ms a move")
    parser.add_argument("--bot", action="append", choices=CHALLENGERS, help="only these bots (repeatable)")
    args = parser.parse_args(argv)
    kinds = args.kind or two_player_kinds()
    if args.calibrate:
        print(calibrate(kinds))
        return
    games = args.games or (20 if args.quick else 200)
    budget = f"ismcts at {args.iterations} iterations a move" if args.iterations else "ismcts at its default budget"
    print(f"bots vs {OPPONENT}: {games} games per pairing, seats alternated, {budget}, {args.workers} process(es)")
    print("ms/move: median CPU time of the bot's moves with two or more legal actions")
    print(HEADER, flush=True)
    started = time.perf_counter()
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for kind in kinds:
            print("\n".join(rows(run(kind, games, pool, args.iterations, tuple(args.bot or CHALLENGERS)))), flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
