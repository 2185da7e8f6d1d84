"""Random games, measured: how long a whole game takes to decide and fold, and how long it is.

  python -m bench.games [--kind KIND ...] [--players N ...] [--games 100] [--option NAME=JSON ...]

For each kind and player count, ``--games`` games of uniformly random legal actions are
played in memory (``games.play.random_game``: decide, fold and the legal-action lists a
client would ask for). Printed per table: the median CPU time of a whole game, the
median time to fold its events from zero (the baseline, measured on the same games in
the same run; the ratio is decide-and-fold over fold alone), and the median number of
actions and events (the median of 100 games).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from games import registry
from games.play import fold, random_game

DEFAULT_PLAYERS = {"fortress-royals": (2, 3, 4, 5), "fortress-siege": (2, 3, 4)}


def measure(kind: str, players: int, games: int, options: dict[str, Any] | None = None) -> dict[str, float]:
    game = registry.all_games()[kind]
    whole, folds, actions, events, unfinished = [], [], [], [], 0
    for index in range(games):
        rng = random.Random(f"{kind}:{players}:{index}")
        started = time.process_time()
        play = random_game(game, players, rng, options)
        whole.append(time.process_time() - started)
        if game.outcome(play.state) is None:
            unfinished += 1
        started = time.process_time()
        fold(game, play.events)
        folds.append(time.process_time() - started)
        actions.append(len(play.actions))
        events.append(len(play.events))
    return {
        "whole_ms": statistics.median(whole) * 1000,
        "fold_ms": statistics.median(folds) * 1000,
        "actions": statistics.median(actions),
        "events": statistics.median(events),
        "unfinished": unfinished,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.games", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", action="append", help="game kinds (default: every registered kind)")
    parser.add_argument("--players", type=int, action="append", help="player counts (default: per kind)")
    parser.add_argument("--games", type=int, default=100, help="games per table (default 100)")
    parser.add_argument("--option", action="append", default=[], help="a game option, NAME=JSON (repeatable)")
    args = parser.parse_args(argv)
    options = {name: json.loads(value) for name, value in (o.split("=", 1) for o in args.option)} or None
    kinds = args.kind or registry.keys()
    print(
        f"random games: median of {args.games} per table, options {options or 'default'}; "
        "CPU time of one whole game against folding its log"
    )
    print(
        f"{'kind':<18} {'players':>7} {'decide+fold ms':>15} {'fold ms':>9} {'ratio':>6} "
        f"{'actions':>8} {'events':>8} {'unfinished':>10}"
    )
    for kind in kinds:
        game = registry.all_games()[kind]
        counts = args.players or DEFAULT_PLAYERS.get(kind, (max(2, game.min_players),))
        for players in counts:
            if not game.min_players <= players <= game.max_players:
                continue
            row = measure(kind, players, args.games, options)
            print(
                f"{kind:<18} {players:>7} {row['whole_ms']:>15.1f} {row['fold_ms']:>9.2f} "
                f"{row['whole_ms'] / row['fold_ms']:>6.1f} {row['actions']:>8.0f} {row['events']:>8.1f} "
                f"{row['unfinished']:>10}",
                flush=True,
            )


if __name__ == "__main__":
    main()
