"""Bots that play any game through the contract alone (pure: no I/O, no clock).

* ``random``: uniform over the actions a bot considers (``games.ismcts.considered``:
  ``legal_actions``, less any the kind's bot module leaves out by a policy of its own).
* ``greedy``: one-ply lookahead; decides each legal action with the rng it is
  handed and keeps the one whose resulting state ``evaluate`` likes best.
* ``ismcts``: see ``games.ismcts``; its budget is a number of iterations, or a time
  on a clock that the caller hands in (``choose(..., clock=time.process_time)``).

A bot sees only what its seat may see: it is handed the true state, but the
greedy bot first determinizes it, so its choice cannot depend on hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.base import Action, Game, IllegalAction, State
from games.ismcts import Clock, considered, ismcts_bot, search

Bot = Callable[[Game, State, int, random.Random], Action]


def random_bot(game: Game, state: State, seat: int, rng: random.Random) -> Action:
    return rng.choice(considered(game, state, seat))


def greedy_bot(game: Game, state: State, seat: int, rng: random.Random) -> Action:
    guess = game.determinize(state, seat, rng)
    legal = considered(game, guess, seat)
    best: list[Action] = []
    best_value = float("-inf")
    for action in legal:
        try:
            after = game.decision(guess, seat, action, rng).state
        except IllegalAction:
            continue
        value = game.evaluate(after, seat)
        if value > best_value + 1e-12:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-12:
            best.append(action)
    return rng.choice(best or legal)


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "ismcts": ismcts_bot}


def choose(
    level: str,
    game: Game,
    state: State,
    seat: int,
    rng: random.Random,
    deadline: Callable[[], bool] | None = None,
    clock: Clock | None = None,
) -> Action:
    """``level``'s action for ``seat``. From a caller that owns a clock: ``clock`` (seconds,
    e.g. ``time.process_time``) gives ISMCTS its budget of ``MOVE_SECONDS`` a move, and
    ``deadline`` stops it earlier; the other bots are far faster than either."""
    if level == "ismcts" and (deadline is not None or clock is not None):
        return search(game, state, seat, rng, deadline=deadline, clock=clock)
    return BOTS[level](game, state, seat, rng)
