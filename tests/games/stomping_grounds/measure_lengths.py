"""How long games of Stomping Grounds last without a turn limit, for RULINGS.md:

  python -m tests.games.stomping_grounds.measure_lengths [--games N] [--cap ROUNDS]

Greedy bots (``games.bots.greedy_bot``) and uniformly random bots, 2 and 4 players, decks
dealt at random, no ``turn_limit``; a game still going after ``--cap`` rounds is stopped and
counted as unfinished. Prints the distribution of rounds played per table."""

from __future__ import annotations

import argparse
import random
import statistics

from games.bots import greedy_bot, random_bot
from games.play import new_game, step
from games.stomping_grounds import GAME

BOTS = {"greedy": greedy_bot, "random": random_bot}


def rounds_of(bot: str, players: int, index: int, cap: int) -> int | None:
    rng = random.Random(f"lengths-{bot}-{players}-{index}")
    play = new_game(GAME, players, None, rng)
    choose = BOTS[bot]
    while GAME.outcome(play.state) is None:
        if play.state.turn > cap * players:
            return None
        seat = min(GAME.to_act(play.state))
        step(GAME, play, seat, choose(GAME, play.state, seat, rng), rng)
    return (play.state.turn - 1) // players + 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--cap", type=int, default=400)
    args = parser.parse_args()
    for bot in BOTS:
        for players in (2, 4):
            lengths = [rounds_of(bot, players, i, args.cap) for i in range(args.games)]
            done = sorted(r for r in lengths if r is not None)
            cuts = statistics.quantiles(done, n=20) if len(done) > 1 else done
            print(
                f"{bot:6} {players}p: {len(done)}/{args.games} ended; rounds median {statistics.median(done)}, "
                f"5%-95% {cuts[0]:.0f}-{cuts[-1]:.0f}, max {done[-1]}; over 40 rounds: "
                f"{sum(r > 40 for r in done)}; unfinished after {args.cap} rounds: {args.games - len(done)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
