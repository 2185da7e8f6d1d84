"""The two endings, the dragons that flee unscored, and the scoring with both bonuses."""

from __future__ import annotations

import pytest

from games.base import GameEvent
from games.dragon_fortress import GAME
from games.dragon_fortress.cards import ESTATE_BONUS, ESTATE_BONUS_SHARED, FORTRESS_BONUS, TYPE_OF, points_of
from games.dragon_fortress.rules import final_scores
from games.dragon_fortress.state import STEP_OVER
from tests.games.dragon_fortress.tables import given, kinds, table_event, when

STAY = {"type": "stay"}
POINTS = points_of(GAME.rules_revision)


def test_defeating_the_shadow_terror_in_the_estate_move_ends_the_game_at_once() -> None:
    """ "The Shadow Terror is defeated. This will happen during a players Estate Move, which will
    immediately end the game. Take no further actions.\""""
    line = [
        "crop-field-01",
        "war-tower-01",
        "shadow-terror-01",
        "war-tower-02",
        "war-tower-03",
        "guard-tower-01",
    ]
    table = given(table_event(lines={0: line, 2: ["crop-field-02", "spitfire-01"]}))
    assert GAME.view(table, None)["players"][0]["dragon"]["damage"] < TYPE_OF["shadow-terror-01"].strength

    events, after = when(table, 0, STAY)

    assert kinds(events) == ["EstateMoveForgone", "DragonAdvanced", "DragonDefeated", "GameEnded"]
    assert events[-1] == GameEvent("GameEnded", {"reason": "terror", "dispersed": ["spitfire-01"]}, 0)
    assert after.step == STEP_OVER and GAME.to_act(after) == frozenset()
    assert GAME.legal_actions(after, 0) == []
    result = GAME.outcome(after)
    assert result is not None and result["reason"] == "Seat 0 defeated the Shadow Terror"


def test_a_tower_placed_behind_the_shadow_terror_can_end_the_game() -> None:
    """ "New towers that are built behind the dragon (at the front line), will immediately target
    and damage the dragon." (ours: defeating the Shadow Terror that way ends the game too)"""
    hand = ["war-tower-01", "crop-field-01", "crop-field-02", "crop-field-03", "crop-field-04"]
    line = [
        "farmstead-01",
        "farmstead-02",
        "shadow-terror-01",
        "war-tower-02",
        "war-tower-03",
        "watch-tower-01",
    ]
    table = given(table_event(lines={0: line}, hands={0: hand}, supply_top=["crop-field-05"]))

    events, after = when(table, 0, STAY, {"type": "draw", "pile": "common"}, {"type": "place", "card": "war-tower-01"})

    assert kinds(events) == ["CardPlaced", "DragonDefeated", "GameEnded"]
    assert after.step == STEP_OVER


def test_playing_the_last_card_from_hand_ends_the_game_and_dragons_flee_unscored() -> None:
    """ "Any player plays the last card from their hand." ("remove any remaining dragons - they
    will flee the game and no player may score victory points from these dragons. Discard any
    cards still in your hand and total your points.")"""
    lines = {0: ["crop-field-02"], 1: ["crop-field-03", "dread-wyrm-01"]}
    table = given(table_event(lines=lines, hands={0: ["farmstead-01"]}, supply=[], gold=[]))
    _, table = when(table, 0, STAY)

    events, after = when(table, 0, {"type": "place", "card": "farmstead-01"})

    assert kinds(events) == ["CardPlaced", "GameEnded"]
    assert events[-1].data == {"reason": "hand", "dispersed": ["dread-wyrm-01"]}
    assert "dread-wyrm-01" in after.out and after.estates[1].trophies == ()
    result = GAME.outcome(after)
    assert result is not None and result["reason"] == "Seat 0 played the last card from hand"


def test_drawing_stays_mandatory_while_any_supply_lasts() -> None:
    """ "this part of your turn is no longer mandatory ... it is ONLY optional if you can't
    perform one of these tasks.\""""
    table = given(table_event(supply=[], gold=["gold-01"]))

    events, after = when(table, 0, STAY)

    assert "AcquireForgone" not in kinds(events)
    assert GAME.legal_actions(after, 0) == [{"type": "draw", "pile": "gold"}]


def _scores(lines: dict[int, list[str]], trophies: dict[int, list[str]] | None = None) -> list[dict[str, int]]:
    return final_scores(given(table_event(lines=lines, trophies=trophies)))


def test_the_single_highest_estate_power_takes_the_estate_bonus() -> None:
    """ "The player with the highest Estate Power receives 10 points\""""
    scores = _scores({0: ["farmstead-01"], 1: ["crop-field-01"]})
    assert [s["estate_bonus"] for s in scores] == [ESTATE_BONUS, 0, 0, 0] == [10, 0, 0, 0]


def test_a_two_way_tie_splits_the_estate_bonus() -> None:
    """ "if it's a tie the two players each receive 5 points.\""""
    scores = _scores({0: ["farmstead-01"], 2: ["farmstead-02"], 3: ["crop-field-01"]})
    assert [s["estate_bonus"] for s in scores] == [ESTATE_BONUS_SHARED, 0, ESTATE_BONUS_SHARED, 0] == [5, 0, 5, 0]


def test_a_three_way_tie_gives_no_estate_bonus() -> None:
    """ "A three-way tie will result in no bonus.\""""
    scores = _scores({0: ["farmstead-01"], 1: ["farmstead-02"], 3: ["farmstead-03"]})
    assert [s["estate_bonus"] for s in scores] == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "lines, expected",
    [
        ({0: ["guard-tower-01"], 1: ["watch-tower-01"]}, [FORTRESS_BONUS, 0, 0, 0]),
        ({0: ["guard-tower-01"], 1: ["guard-tower-02"]}, [0, 0, 0, 0]),
    ],
)
def test_the_fortress_bonus_goes_to_one_player_and_none_on_a_tie(
    lines: dict[int, list[str]], expected: list[int]
) -> None:
    """ "One player may receive the Fortress bonus. The player with the highest Fortress Power
    will receive 5 points. A tie results in no bonus.\""""
    assert FORTRESS_BONUS == 5
    assert [s["fortress_bonus"] for s in _scores(lines)] == expected


def test_the_score_is_victory_points_plus_bonuses() -> None:
    """ "Add up all of your victory flags. Add up your Estate Power. Add up your Fortress Power."
    (ours: the powers decide the bonuses; the score is victory points and bonuses, "the number
    of victory and bonus points")"""
    lines = {0: ["mill-01", "guard-tower-01"], 1: ["farmstead-01", "war-tower-01"]}
    scores = _scores(lines, trophies={1: ["spitfire-01"]})
    vp = POINTS["mill-01"] + POINTS["guard-tower-01"]
    assert scores[0] == {"victory_points": vp, "estate_bonus": 10, "fortress_bonus": 0, "total": vp + 10}
    vp1 = sum(POINTS[c] for c in ["farmstead-01", "war-tower-01", "spitfire-01"])
    assert scores[1] == {"victory_points": vp1, "estate_bonus": 0, "fortress_bonus": 5, "total": vp1 + 5}


def test_cards_left_in_hand_are_discarded_unscored() -> None:
    """ "Discard any cards still in your hand and total your points.\""""
    hand = ["guard-tower-01", "farmstead-02", "farmstead-03", "crop-field-01", "crop-field-02"]
    lines = {0: ["crop-field-03"], 1: ["crop-field-04"]}
    scores = final_scores(given(table_event(lines=lines, hands={0: hand})))
    assert POINTS["crop-field-01"] > 0
    assert scores[0]["victory_points"] == POINTS["crop-field-03"] == scores[1]["victory_points"]
    assert [s["fortress_bonus"] for s in scores] == [0, 0, 0, 0], "a tower in hand is no Fortress Power"


def test_players_tied_on_points_share_the_win() -> None:
    """ "Become the player with the strongest Estate, which will be determined by the number of
    victory and bonus points." (ours: the rulebook names no tie-break, so tied players share it)"""
    lines = {1: ["farmstead-02"]}
    table = given(table_event(lines=lines, hands={0: ["farmstead-01"]}, supply=[], gold=[]))
    _, table = when(table, 0, STAY)

    _, after = when(table, 0, {"type": "place", "card": "farmstead-01"})

    result = GAME.outcome(after)
    assert result is not None
    each = POINTS["farmstead-01"] + ESTATE_BONUS_SHARED
    assert result["scores"] == [each, each, 0, 0], "a Farmstead's points and half the Estate bonus each"
    assert result["winners"] == [0, 1]
