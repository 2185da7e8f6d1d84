"""Properties of Dragon Fortress's ``evaluate`` a player would agree with, all else equal."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.dragon_fortress import GAME
from games.dragon_fortress.state import State
from games.play import random_game
from tests.games.dragon_fortress.tables import given, table_event

HAND = ("crop-field-01", "crop-field-02", "farmstead-01", "watch-tower-01", "guard-tower-01")
OTHER_LINE = ("crop-field-10", "farmstead-10", "watch-tower-10")


def table(line: Sequence[str], hand: Sequence[str] = HAND) -> State:
    """Three players; seat 0 holds ``line`` and ``hand``, the others an equal modest line."""
    return given(
        table_event(
            3,
            lines={0: line, 1: OTHER_LINE, 2: ("crop-field-11", "farmstead-11", "watch-tower-11")},
            hands={0: hand},
        )
    )


def value(line: Sequence[str], hand: Sequence[str] = HAND) -> float:
    return GAME.evaluate(table(line, hand), 0)


def test_more_points_on_the_table_rate_higher() -> None:
    base = ("farmstead-02", "watch-tower-02")
    assert value((*base, "crop-field-03")) > value(base)
    assert value((*base, "barn-01")) > value((*base, "crop-field-03"))


def test_towers_are_worth_something() -> None:
    base = ("farmstead-02", "crop-field-03")
    assert value((*base, "guard-tower-02")) > value(base)


def test_a_hand_of_gold_is_worth_less_than_a_hand_of_estate() -> None:
    line = ("farmstead-02", "watch-tower-02")
    golds = ("gold-01", "gold-02", "gold-03", "gold-04", "gold-05")
    assert value(line, HAND) > value(line, golds)


def test_gold_in_the_line_beyond_the_dearest_purchase_adds_little() -> None:
    line = ("farmstead-02", "watch-tower-02")
    three = value((*line, "gold-01", "gold-02", "gold-03"))
    two = value((*line, "gold-01", "gold-02"))
    four = value((*line, "gold-01", "gold-02", "gold-03", "gold-04"))
    assert four - three < (three - two) / 2


def test_a_dragon_that_will_raze_the_estate_rates_lower_than_one_that_will_fall() -> None:
    estate = ("farmstead-02", "farmstead-03", "crop-field-03")
    # The Spitfire (strength 3) razes moons: passing three Guard Towers first, it falls.
    guarded = value((*estate, "guard-tower-02", "guard-tower-03", "spitfire-01"), hand=HAND[:3])
    exposed = value(("guard-tower-02", "guard-tower-03", *estate, "spitfire-01"), hand=HAND[:3])
    assert guarded > exposed


def test_a_tower_placed_behind_a_dragon_is_preferred_to_an_estate_card() -> None:
    dragon_line = ("crop-field-03", "crop-field-04", "crop-field-05", "spitfire-01")
    tower = value((*dragon_line, "guard-tower-02"), hand=HAND[:4])
    estate = value((*dragon_line, "crop-field-06"), hand=HAND[:4])
    assert tower > estate


def test_stays_in_the_unit_interval_and_scores_finished_games() -> None:
    for seed in range(3):
        play = random_game(GAME, 3, random.Random(seed))
        for seat in range(3):
            result = GAME.outcome(play.state)
            assert result is not None
            expected = 1.0 / len(result["winners"]) if seat in result["winners"] else 0.0
            assert GAME.evaluate(play.state, seat) == expected
    play = random_game(GAME, 3, random.Random(9), max_actions=150)
    for seat in range(3):
        assert 0.0 <= GAME.evaluate(play.state, seat) <= 1.0
