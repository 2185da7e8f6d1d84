"""Balance, measured: greedy-bot games of one kind.

  python -m bench.balance <kind> [--games N] [--workers W]

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

Per card, for kinds whose rules name their cards (``card_names``,
``action_cards``): in how many games it was dealt, in what share of those some seat to
act had a legal action using it (playable) and the bots used it (played), and how often
a game; a card playable in under 1% of its games is flagged.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import re
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.bots import greedy_bot
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
        action = greedy_bot(game, run.state, seat, seat_rngs[seat])
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.balance", description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=registry.keys())
    parser.add_argument("--games", type=int, help="games per table (default: the issue's count)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes")
    args = parser.parse_args(argv)
    game = registry.all_games()[args.kind]
    plan = tables(args.kind, args.games)
    for table in plan:  # refuse a wrong deck name before playing anything
        probe = Spec(args.kind, table, 0)
        decks = seat_decks(probe)
        game.validate_options({"decks": list(decks)} if decks else None, table.players)
    started = time.perf_counter()
    specs = [Spec(args.kind, table, i) for table in plan for i in range(table.games)]
    if args.workers <= 1:
        results = [play(spec) for spec in specs]
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(play, specs, chunksize=4))
    grouped = [(table, [r for s, r in zip(specs, results, strict=True) if s.table == table]) for table in plan]
    print(f"# balance of {args.kind}: greedy bots in every seat\n")
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
