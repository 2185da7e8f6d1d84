"""The REFERENCE page at the end of the rulebook, one scenario per line, in its order."""

from __future__ import annotations

import random

import pytest

from games.base import GameEvent, IllegalAction
from games.dragon_fortress import GAME
from games.dragon_fortress.cards import CALL_CARD, PHASES, TYPE_OF, TYPES, in_play
from games.dragon_fortress.state import STEP_ACQUIRE, STEP_PLACE
from games.play import fold
from tests.games.dragon_fortress.tables import given, kinds, table_event, when

FALLOW = PHASES[0]


def test_the_flag_is_in_front_of_the_dragon_and_the_front_line_behind_it() -> None:
    """ "As the dragon moves through your estate line it is always the case that the estate
    flag is in FRONT of the dragon and the front line is always BEHIND the dragon."""
    table = given(table_event(lines={0: ["farmstead-01", "watch-tower-01", "spitfire-01"]}))
    assert GAME.view(table, 0)["players"][0]["dragon"]["damage"] == 0

    events, after = when(table, 0, {"type": "stay"})

    assert GameEvent("DragonAdvanced", {"dragon": "spitfire-01", "passed": "watch-tower-01"}, 0) in events
    assert after.estates[0].line == ("farmstead-01", "spitfire-01", "watch-tower-01")
    dragon = GAME.view(after, 0)["players"][0]["dragon"]
    assert dragon["position"] == 1 and dragon["damage"] == TYPE_OF["watch-tower-01"].shots


def test_a_three_player_game_removes_all_the_listed_cards() -> None:
    """ "If playing a 3-player game, be sure to remove ALL necessary cards." (the list: 10 Crop
    Fields; 3 Farmsteads; 3 Watch Towers; 5 Guard Towers; 4 Gold; 1 Spitfire; 1 Dread Wyrm;
    2 Barns; 1 Mill; 1 Granary; 1 Gate Tower; 1 War Tower; 1 Fallow; 1 Meadow; 1 Pasture)"""
    listed = {
        "crop-field": 10, "farmstead": 3, "watch-tower": 3, "guard-tower": 5, "gold": 4,
        "spitfire": 1, "dread-wyrm": 1, "barn": 2, "mill": 1, "granary": 1, "gate-tower": 1,
        "war-tower": 1, "fallow": 1, "meadow": 1, "pasture": 1,
    }  # fmt: skip
    table = given(*GAME.setup(GAME.validate_options(None, 3), 3, random.Random(1)))

    boxed = [TYPE_OF[card].key for card in table.out]
    for card_type in TYPES:
        if card_type.key == "estate-flag":
            continue
        assert boxed.count(card_type.key) == listed.get(card_type.key, 0), card_type.key
    assert boxed.count("estate-flag") == 1  # three players, three flags
    four = given(*GAME.setup(GAME.validate_options(None, 4), 4, random.Random(1)))
    assert four.out == ()


def test_early_in_the_game_there_is_no_estate_move_to_make() -> None:
    """ "Early in the game you will skip the Estate Move a few times as there will be no
    cards to move.\""""
    table = given(*GAME.setup(GAME.validate_options(None, 4), 4, random.Random(3)))
    assert GAME.legal_actions(table, 0) == [{"type": "stay"}]

    lone = given(table_event(lines={0: ["crop-field-01"]}))
    assert GAME.legal_actions(lone, 0) == [{"type": "stay"}], "a card next to the flag cannot move"

    two = given(table_event(lines={0: ["crop-field-01", "gold-01"]}))
    assert GAME.legal_actions(two, 0) == [{"type": "move", "card": "gold-01"}, {"type": "stay"}]


def test_a_card_directly_behind_a_dragon_never_moves() -> None:
    """ "Any card directly behind a dragon may NEVER move.\""""
    line = ["crop-field-01", "farmstead-01", "spitfire-01", "crop-field-02", "crop-field-03"]
    table = given(table_event(lines={0: line}))

    movable = [a["card"] for a in GAME.legal_actions(table, 0) if a["type"] == "move"]
    assert movable == ["farmstead-01", "crop-field-03"]
    with pytest.raises(IllegalAction, match="directly behind a dragon"):
        GAME.decide(table, 0, {"type": "move", "card": "crop-field-02"}, random.Random(0))


@pytest.mark.parametrize(
    "action, first",
    [({"type": "stay"}, "EstateMoveForgone"), ({"type": "move", "card": "crop-field-02"}, "EstateCardMoved")],
)
def test_the_dragon_moves_whether_or_not_the_estate_move_is_made(action: dict[str, str], first: str) -> None:
    """ "Even though your Estate Move is not mandatory, a dragon MUST move and will move after
    you make or forfeit an Estate Move.\""""
    line = ["watch-tower-01", "crop-field-01", "crop-field-02", "farmstead-01", "spitfire-01"]
    table = given(table_event(lines={0: line}))

    events, after = when(table, 0, action)

    assert kinds(events)[:2] == [first, "DragonAdvanced"]
    assert events[1].data == {"dragon": "spitfire-01", "passed": "farmstead-01"}
    assert after.estates[0].line.index("spitfire-01") == 3


def test_purchasing_and_advancing_must_meet_their_requirements() -> None:
    """ "Purchasing and Advancing must meet certain requirements." ("In order to purchase a Barn
    or Gate Tower, you must have a Fallow and at least one gold in your Estate Line"; "If you
    meet the requirements indicated at the bottom of these three phase cards, you may take it")"""
    no_fallow = given(table_event(lines={0: ["gold-01", "crop-field-01"]}))
    _, no_fallow = when(no_fallow, 0, {"type": "stay"})
    assert not [a for a in GAME.legal_actions(no_fallow, 0) if a["type"] == "purchase"]
    with pytest.raises(IllegalAction, match="needs a Fallow"):
        GAME.decide(no_fallow, 0, {"type": "purchase", "card": "barn"}, random.Random(0))

    ready = given(table_event(lines={0: ["fallow-01", "gold-01"]}, reached={0: 1}))
    _, ready = when(ready, 0, {"type": "stay"})
    assert {"type": "purchase", "card": "barn"} in GAME.legal_actions(ready, 0)
    assert {"type": "purchase", "card": "gate-tower"} in GAME.legal_actions(ready, 0)
    assert {"type": "purchase", "card": "mill"} not in GAME.legal_actions(ready, 0)

    estate_cards = _estate_cards(FALLOW.requires_estate)
    towers = _towers(FALLOW.requires_fortress)
    short = given(table_event(lines={0: estate_cards[:-1] + towers}))
    _, short = when(short, 0, {"type": "stay"})
    assert not [a for a in GAME.legal_actions(short, 0) if a["type"] == "advance"]
    with pytest.raises(IllegalAction, match="Advancing to Fallow needs"):
        GAME.decide(short, 0, {"type": "advance", "phase": "fallow"}, random.Random(0))

    enough = given(table_event(lines={0: estate_cards + towers}))
    events, after = when(enough, 0, {"type": "stay"}, {"type": "advance", "phase": "fallow"})
    assert kinds(events) == ["PhaseAdvanced", "TurnPassed"]
    assert after.estates[0].line[-1] == events[0].data["card"] and after.estates[0].reached == 1


def test_the_hand_is_five_after_a_turn_until_the_supplies_run_out() -> None:
    """ "You must always end your turn with five cards in hand. Later, as supply piles deplete,
    this becomes obsolete.\""""
    hand = ["crop-field-01", "crop-field-02", "farmstead-01", "watch-tower-01", "guard-tower-01"]
    table = given(table_event(hands={0: hand}, supply_top=["crop-field-03"]))
    _, after = when(table, 0, {"type": "stay"}, {"type": "draw", "pile": "common"}, {"type": "place", "card": hand[0]})
    assert len(after.estates[0].hand) == 5 and after.turn == 1

    dry = given(table_event(hands={0: hand}, supply=[], gold=[]))
    events, dry = when(dry, 0, {"type": "stay"})
    assert kinds(events)[-1] == "AcquireForgone" and dry.step == STEP_PLACE
    _, dry = when(dry, 0, {"type": "place", "card": hand[0]})
    assert len(dry.estates[0].hand) == 4 and dry.turn == 1


def test_new_cards_enter_behind_gate_towers_and_dragons_at_the_very_front() -> None:
    """ "All new cards entering your Estate Line must be placed at the Front Line or behind Gate
    Towers. Dragons ALWAYS enter at the Front Line.\""""
    hand = ["farmstead-01", "crop-field-01", "crop-field-02", "crop-field-03", "watch-tower-01"]
    table = given(
        table_event(
            lines={0: ["crop-field-04", "gate-tower-01", "gate-tower-02"]},
            hands={0: hand},
            supply_top=["crop-field-05", CALL_CARD],
        )
    )
    events, table = when(
        table,
        0,
        {"type": "stay"},
        {"type": "draw", "pile": "common"},
        {"type": "place", "card": "farmstead-01"},
    )
    assert events[0].data == {"card": "farmstead-01", "at": 1}
    assert table.estates[0].line == ("crop-field-04", "farmstead-01", "gate-tower-01", "gate-tower-02")

    table = fold(GAME, [GameEvent("TurnPassed", {"to": 0}, 3)], table)
    _, table = when(table, 0, {"type": "stay"}, {"type": "draw", "pile": "common"})
    assert table.estates[0].line[-1] == "spitfire-01"
    assert table.estates[0].line[:-1] == ("crop-field-04", "farmstead-01", "gate-tower-01", "gate-tower-02")


def test_a_new_tower_at_the_front_line_damages_the_dragon_at_once() -> None:
    """ "Any new tower placed at the front line will target and deal damage to a dragon in your
    Estate Line.\""""
    hand = ["watch-tower-01", "crop-field-01", "crop-field-02", "crop-field-03", "crop-field-04"]
    line = ["farmstead-01", "spitfire-01", "guard-tower-01"]  # 2 shots behind a strength-3 dragon
    table = given(table_event(lines={0: line}, hands={0: hand}, supply_top=["crop-field-05"], gold=[]))
    assert TYPE_OF["spitfire-01"].strength == 3

    events, after = when(
        table,
        0,
        {"type": "stay"},
        {"type": "draw", "pile": "common"},
        {"type": "place", "card": "watch-tower-01"},
    )

    assert kinds(events) == ["CardPlaced", "DragonDefeated", "TurnPassed"]
    assert events[1].data == {"dragon": "spitfire-01", "damage": 3}
    assert after.estates[0].trophies == ("spitfire-01",)


def test_towers_and_fortress_cards_are_the_same_thing() -> None:
    """ "In this base game, Tower and Fortress Card are interchangeable terms." Every tower
    counts toward Fortress Power and shoots a dragon it is behind."""
    towers = ["watch-tower-01", "guard-tower-01", "gate-tower-01", "war-tower-01", "dragon-tower-01"]
    shots = sum(TYPE_OF[t].shots for t in towers)
    table = given(table_event(lines={0: ["crop-field-01", "shadow-terror-01", *towers]}))

    player = GAME.view(table, None)["players"][0]
    assert player["fortress_power"] == shots
    assert player["dragon"]["damage"] == shots
    assert all(TYPE_OF[t].kind == "tower" and TYPE_OF[t].shots > 0 for t in towers)


def test_a_dragon_attack_ends_the_turn() -> None:
    """ "When a dragon attacks you it instantly fulfills the remainder of your turn - place the
    dragon at your Front Line, then your turn ends.\""""
    table = given(table_event(supply_top=[CALL_CARD]))
    hand = table.estates[0].hand

    events, after = when(table, 0, {"type": "stay"}, {"type": "draw", "pile": "common"})

    assert kinds(events) == ["DragonCalled", "TurnPassed"]
    assert after.estates[0].line == ("spitfire-01",)
    assert after.estates[0].hand == hand
    assert after.turn == 1


def test_moon_sun_and_full_sun_are_worth_one_two_and_three() -> None:
    """ "Estate cards are often referred to as Moon, Sun and Full Sun and are worth 1, 2 and 3
    Estate Power respectfully." ("two moons, two suns and a single full sun equals 9")"""
    assert {t.estate_power for t in TYPES if t.kind == "estate"} <= {1, 2, 3}
    line = ["crop-field-01", "crop-field-02", "farmstead-01", "farmstead-02", "mill-01"]
    assert [TYPE_OF[c].estate_power for c in line] == [1, 1, 2, 2, 3]
    table = given(table_event(lines={0: line}))
    assert GAME.view(table, None)["players"][0]["estate_power"] == 9


@pytest.mark.parametrize(
    "dragon, razed, spared",
    [
        ("spitfire-01", ["crop-field-01"], ["farmstead-01", "mill-01"]),
        ("ice-wyvern-01", ["crop-field-01", "farmstead-01"], ["mill-01"]),
        ("bone-colossus-01", ["crop-field-01", "farmstead-01", "mill-01"], []),
    ],
)
def test_sun_razes_moons_and_full_sun_razes_every_estate_card(dragon: str, razed: list[str], spared: list[str]) -> None:
    """ "If a sun symbol is indicated in the Raze Line, the dragon will also destroy moon cards. If
    a Full Sun is indicated, it destroys ALL Estate cards." (Spitfire: moon, Ice Wyvern: sun,
    Bone Colossus: full sun, in our manifest)"""
    for card in razed + spared:
        table = given(table_event(lines={0: [card, dragon]}))
        events, after = when(table, 0, {"type": "stay"})
        was_razed = GameEvent("CardRazed", {"card": card, "dragon": dragon}, 0) in events
        assert was_razed == (card in razed), card
        assert (card in after.out) == (card in razed)


def test_a_fleeing_dragon_goes_counter_clockwise_to_the_first_player_without_one() -> None:
    """ "A Dragon will continue to flee counter clockwise until it finds a player with no
    dragon in it's Estate Line.\""""
    # the dragon is next to seat 0's flag: it arrived there on an earlier turn
    table = given(table_event(lines={0: ["spitfire-01"], 3: ["crop-field-01", "spitfire-02"]}))

    events, after = when(table, 0, {"type": "stay"})

    assert GameEvent("DragonFled", {"dragon": "spitfire-01", "to": 2}, 0) in events
    assert after.estates[2].line[-1] == "spitfire-01"
    assert "spitfire-01" not in after.estates[0].line


def test_new_estate_cards_behind_the_dragon_are_safe() -> None:
    """ "As a dragon terrorizes your Estate, new Estate cards may be placed at the Front Line
    (behind the dragon) during your turn." ("new Estate or Gold cards placed behind a dragon
    will not be destroyed (the dragon never passed over them)")"""
    hand = ["crop-field-02", "crop-field-03", "crop-field-04", "crop-field-05", "crop-field-06"]
    table = given(
        table_event(
            lines={0: ["crop-field-01", "crop-field-07", "spitfire-01"]},
            hands={0: hand},
            supply_top=["farmstead-01"],
        )
    )
    _, table = when(
        table,
        0,
        {"type": "stay"},
        {"type": "draw", "pile": "common"},
        {"type": "place", "card": "crop-field-02"},
    )
    assert table.estates[0].line == ("crop-field-01", "spitfire-01", "crop-field-02")

    table = fold(GAME, [GameEvent("TurnPassed", {"to": 0}, 3)], table)
    events, table = when(table, 0, {"type": "stay"})
    assert GameEvent("CardRazed", {"card": "crop-field-01", "dragon": "spitfire-01"}, 0) in events
    assert table.estates[0].line == ("spitfire-01", "crop-field-02")


def test_gold_is_never_placed_the_turn_it_is_drawn() -> None:
    """ "Gold can never be placed in your Estate Line the same turn it is drawn from the supply.\""""
    hand = ["gold-02", "crop-field-01", "crop-field-02", "crop-field-03", "crop-field-04"]
    table = given(table_event(hands={0: hand}, gold=["gold-01", "gold-03"]))

    _, table = when(table, 0, {"type": "stay"}, {"type": "draw", "pile": "gold"})

    placeable = [a["card"] for a in GAME.legal_actions(table, 0)]
    assert "gold-01" in table.estates[0].hand and "gold-01" not in placeable
    assert "gold-02" in placeable, "gold drawn on an earlier turn may be placed"
    with pytest.raises(IllegalAction, match="same turn it is drawn"):
        GAME.decide(table, 0, {"type": "place", "card": "gold-01"}, random.Random(0))


def test_each_phase_is_reached_once_and_a_lost_fallow_does_not_stop_meadow() -> None:
    """ "You may only advance to a phase once, if you lose your Fallow, you may still advance to
    Meadow and so forth.\""""
    meadow = PHASES[1]
    line = _estate_cards(meadow.requires_estate) + _towers(meadow.requires_fortress)
    table = given(table_event(lines={0: line}, reached={0: 1}))  # Fallow reached, then razed
    assert not any(TYPE_OF[c].rank for c in line)

    _, table = when(table, 0, {"type": "stay"})

    advances = [a for a in GAME.legal_actions(table, 0) if a["type"] == "advance"]
    assert advances == [{"type": "advance", "phase": "meadow"}]
    with pytest.raises(IllegalAction):
        GAME.decide(table, 0, {"type": "advance", "phase": "fallow"}, random.Random(0))


def test_never_purchase_two_turns_in_a_row() -> None:
    """ "You may never purchase two turns in a row.\""""
    table = given(table_event(lines={0: ["fallow-01", "gold-01", "gold-02"]}, reached={0: 1}, call_at=99))
    _, table = when(table, 0, {"type": "stay"}, {"type": "purchase", "card": "barn"})
    for seat in (1, 2, 3):
        table = _quiet_turn(table, seat)

    _, table = when(table, 0, {"type": "stay"})

    assert table.step == STEP_ACQUIRE
    assert not [a for a in GAME.legal_actions(table, 0) if a["type"] == "purchase"]
    with pytest.raises(IllegalAction, match="two turns in a row"):
        GAME.decide(table, 0, {"type": "purchase", "card": "gate-tower"}, random.Random(0))


def _quiet_turn(table, seat):  # type: ignore[no-untyped-def]
    _, table = when(table, seat, {"type": "stay"}, {"type": "draw", "pile": "common"})
    _, table = when(table, seat, GAME.legal_actions(table, seat)[0])
    return table


def _estate_cards(power: int) -> list[str]:
    """Crop Fields worth ``power`` Estate Power."""
    crops = in_play(TYPE_OF["crop-field-01"], 4)
    assert TYPE_OF[crops[0]].estate_power == 1
    return crops[10 : 10 + power]


def _towers(power: int) -> list[str]:
    """Watch Towers worth ``power`` Fortress Power."""
    watch = in_play(TYPE_OF["watch-tower-01"], 4)
    assert TYPE_OF[watch[0]].shots == 1
    return watch[10 : 10 + power]
