"""Running a game without any storage: folding events and playing random games.

Used by the bots (to look ahead), the simulation tests and the benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from games.base import JSON, Action, Game, GameEvent, State


def fold(game: Game, events: Iterable[GameEvent], state: State | None = None) -> State:
    for event in events:
        state = game.evolve(state, event)
    return state


@dataclass
class Playthrough:
    """A game played out in memory: its events and, per action, who did what."""

    events: list[GameEvent] = field(default_factory=list)
    actions: list[tuple[int, Action]] = field(default_factory=list)
    state: State = None


def new_game(game: Game, players: int, options: Mapping[str, JSON] | None, rng: random.Random) -> Playthrough:
    checked = game.validate_options(options, players)
    events = game.setup(checked, players, rng)
    return Playthrough(events=list(events), state=fold(game, events))


def step(game: Game, play: Playthrough, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    decided = game.decision(play.state, seat, action, rng)
    play.events.extend(decided.events)
    play.actions.append((seat, action))
    play.state = decided.state
    return decided.events


def random_game(
    game: Game,
    players: int,
    rng: random.Random,
    options: Mapping[str, JSON] | None = None,
    max_actions: int = 20_000,
) -> Playthrough:
    """Play uniformly random legal actions until the game ends (or ``max_actions``)."""
    play = new_game(game, players, options, rng)
    for _ in range(max_actions):
        if game.outcome(play.state) is not None:
            break
        seats = sorted(game.to_act(play.state))
        seat = rng.choice(seats)
        action = rng.choice(game.legal_actions(play.state, seat))
        step(game, play, seat, action, rng)
    return play
