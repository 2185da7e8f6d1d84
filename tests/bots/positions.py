"""Positions for the bot tests: states reached by random legal play, of every game kind."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import partial

from games import registry
from games.base import Game, State
from games.bots import BOTS, Bot
from games.ismcts import search
from games.play import new_game, step

# The bots as the tests run them: ismcts on a small budget, so the folder stays quick.
SMALL_ISMCTS: Bot = partial(search, iterations=24)
TESTED_BOTS: dict[str, Bot] = {**BOTS, "ismcts": SMALL_ISMCTS}


def game_kinds() -> list[str]:
    return registry.keys()


def player_counts(game: Game) -> list[int]:
    return sorted({game.min_players, game.max_players})


def positions(game: Game, count: int, seed: str, max_steps: int = 300) -> Iterator[tuple[State, int]]:
    """``count`` (state, seat to act) pairs, each after a random number of random moves,
    over every player count the game allows at its ends."""
    rng = random.Random(seed)
    counts = player_counts(game)
    for index in range(count):
        play = new_game(game, counts[index % len(counts)], None, rng)
        for _ in range(rng.randrange(max_steps)):
            if game.outcome(play.state) is not None:
                break
            seat = rng.choice(sorted(game.to_act(play.state)))
            step(game, play, seat, rng.choice(game.legal_actions(play.state, seat)), rng)
        while game.outcome(play.state) is not None:
            play = new_game(game, counts[index % len(counts)], None, rng)
        yield play.state, rng.choice(sorted(game.to_act(play.state)))
