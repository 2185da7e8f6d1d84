"""The one random-play test every registered game gets, through the rules kit's contract.

Each game's own simulation test (``contract.check_contract``) follows one random action a
state and checks views, secrets, determinize and mutated actions. This test checks what
that one does not, for every game in the registry and every player count:

* the actions ``legal_actions`` lists are accepted by ``decide`` (up to six a state, every
  fifth state), not only the one played; nearby actions it does not list are refused;
* ``decide`` and ``evolve`` are deterministic: the same rng gives the same events, and the
  same events fold to equal states;
* ``determinize`` is a function of the rng (the same seed gives the same deal) and keeps
  what the seat sees;
* a seat that may not act is refused with ``not_your_turn``, any action after the end with
  ``game_over`` (the service answers these with 403 and 409): for the games under ``games/``,
  which take both from the kit's decide template (the platform tests' tiny game does not).
"""

from __future__ import annotations

import random

import pytest

from games import registry
from games.base import Game, IllegalAction
from games.play import fold, new_game, step
from tests.games.contract import assert_view_fits, mutations

SEEDS = range(3)
MAX_ACTIONS = 5_000
CHECK_EVERY = 5
ACTIONS_TRIED = 6

# stomping-grounds has no turn limit by default (the rulebook has none) and random
# play can then last hundreds of rounds; its optional limit keeps these games within MAX_ACTIONS
OPTIONS = {"stomping-grounds": {"turn_limit": 40}}

CASES = [
    (key, players, seed)
    for key, game in sorted(registry.all_games().items())
    for players in range(game.min_players, game.max_players + 1)
    for seed in SEEDS
]


def refusal_code(game: Game, state: object, seat: int, action: dict[str, object]) -> str:
    try:
        game.decide(state, seat, action, random.Random(0))
    except IllegalAction as error:
        assert error.reason, "a refusal needs a sentence"
        return error.code
    raise AssertionError(f"seat {seat} was allowed {action}")


def uses_the_kit(game: Game) -> bool:
    return type(game).__module__.startswith("games.")


@pytest.mark.parametrize(("key", "players", "seed"), CASES)
def test_random_play_keeps_the_contract(key: str, players: int, seed: int) -> None:
    game = registry.all_games()[key]
    rng = random.Random(f"kit-{key}-{players}-{seed}")
    play = new_game(game, players, OPTIONS.get(key), rng)
    assert fold(game, play.events) == play.state, "setup events fold to different states"
    for turn in range(MAX_ACTIONS):
        state = play.state
        if game.outcome(state) is not None:
            break
        acting = sorted(game.to_act(state))
        seat = rng.choice(acting)
        legal = game.legal_actions(state, seat)
        if turn % CHECK_EVERY == 0:
            for action in rng.sample(legal, min(ACTIONS_TRIED, len(legal))):
                events = game.decide(state, seat, action, random.Random(turn))
                assert events == game.decide(state, seat, action, random.Random(turn)), "decide is not deterministic"
                assert fold(game, events, state) == fold(game, events, state), "evolve is not deterministic"
            bystanders = [other for other in range(players) if other not in acting]
            if bystanders and uses_the_kit(game):
                assert refusal_code(game, state, bystanders[0], legal[0]) == "not_your_turn"
            for wrong in mutations(rng.choice(legal), rng):
                if wrong not in legal:
                    assert refusal_code(game, state, seat, wrong) == "illegal_action"
            guess = game.determinize(state, seat, random.Random(turn))
            again = game.determinize(state, seat, random.Random(turn))
            assert guess == again, "determinize depends on more than its rng"
            seen = game.view(state, seat)
            assert game.view(guess, seat) == seen, "determinize changed what the seat sees"
            assert_view_fits(game, seen, f"the view for {seat}")
            assert_view_fits(game, game.view(state, None), "a spectator's view")
        step(game, play, seat, rng.choice(legal), random.Random(turn))
    else:
        raise AssertionError(f"{key} did not end within {MAX_ACTIONS} actions")
    _, last_action = play.actions[-1]
    for viewer in (None, *range(players)):
        assert_view_fits(game, game.final_view(play.state, viewer), f"the final view for {viewer}")
    for seat in range(players):
        assert not game.legal_actions(play.state, seat), "a finished game still lists actions"
        if uses_the_kit(game):
            assert refusal_code(game, play.state, seat, last_action) == "game_over"
