"""Every view of random games of every kind, at every player count and under every option
a kind takes, fits the contract's ``View_<kind>`` (the schema the kind's view module writes
beside ``view``): a seat's and a spectator's at every move, and every final view.

The contract tests (tests/games/contract.py, test_contract.py) check the views of their own
games, most with the default options; these games turn each option away from its default
in turn (each rules revision and first seat, each boolean, a target or limit at its
smallest), so a field
that only an option fills (``rounds``, a second revision's piles) is seen filled. The card
orders a creator may state (``deck``, ``decks``) are left to the positions' own tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.base import Game, InvalidOptions, Option
from games.play import new_game, step
from games.registry import all_games
from tests.games.contract import assert_view_fits

SEEDS = range(12)
MAX_ACTIONS = 3_000
# Random play in stomping-grounds may last hundreds of rounds with no limit: a limit is
# kept unless the limit is the option under test.
BASE = {"stomping-grounds": {"turn_limit": 12}}
KINDS = sorted(key for key, game in all_games().items() if type(game).__module__.startswith("games."))


def away_from_default(option: Option) -> Iterator[Any]:
    if option.type == "boolean":
        yield not option.default
    elif option.type == "integer":
        low = option.minimum if option.minimum is not None else 0
        high = option.maximum if option.maximum is not None else low
        # A short range (a rules revision, a first seat) whole; a long one (a target
        # score, a round limit) at its smallest, which also keeps the game short.
        values = range(low, high + 1) if high - low <= 8 else [low]
        yield from (value for value in values if value != option.default)


def option_sets(game: Game) -> Iterator[tuple[str, dict[str, Any]]]:
    base = BASE.get(game.key, {})
    yield "defaults", dict(base)
    for option in game.accepted_options:
        for value in away_from_default(option):
            yield f"{option.name}={value}", {**base, option.name: value}


def valid(game: Game, options: dict[str, Any], players: int) -> bool:
    try:
        game.validate_options(options, players)
    except InvalidOptions:
        return False  # first_player past the table's last seat
    return True


CASES = [
    pytest.param(key, players, options, id=f"{key}-{players}-{name}")
    for key in KINDS
    for players in range(all_games()[key].min_players, all_games()[key].max_players + 1)
    for name, options in option_sets(all_games()[key])
    if valid(all_games()[key], options, players)
]


@pytest.mark.parametrize(("key", "players", "options"), CASES)
def test_every_view_of_random_games_fits_the_contract(key: str, players: int, options: dict[str, Any]) -> None:
    game = all_games()[key]
    for seed in SEEDS:
        rng = random.Random(f"views-{key}-{players}-{sorted(options.items())}-{seed}")
        play = new_game(game, players, options, rng)
        for _ in range(MAX_ACTIONS):
            viewer = rng.choice([None, *range(players)])
            assert_view_fits(game, game.view(play.state, viewer), f"the view for {viewer}")
            if game.outcome(play.state) is not None:
                break
            seat = rng.choice(sorted(game.to_act(play.state)))
            step(game, play, seat, rng.choice(game.legal_actions(play.state, seat)), rng)
        else:
            raise AssertionError(f"{key} with {options} did not end within {MAX_ACTIONS} actions")
        for viewer in (None, *range(players)):
            assert_view_fits(game, game.final_view(play.state, viewer), f"the final view for {viewer}")
