"""Dragons: the Call card, movement, sustained damage, razing, fleeing and the Dragon Tower."""

from __future__ import annotations

import random

import pytest

from games.base import GameEvent, IllegalAction
from games.dragon_fortress import GAME
from games.dragon_fortress.cards import CALL_CARD, TYPE_OF
from games.dragon_fortress.state import STEP_ACQUIRE, STEP_OVER, STEP_SACRIFICE
from tests.games.dragon_fortress.tables import given, kinds, table_event, when

DRAW = {"type": "draw", "pile": "common"}
STAY = {"type": "stay"}


def test_the_call_card_goes_back_as_deep_as_the_next_dragon_says() -> None:
    """ "The call card must then be placed back into the common supply. How many cards down from
    the top is indicated on the next available dragon card in the lower right corner.\""""
    table = given(table_event(supply_top=[CALL_CARD]))
    following = table.dragons[1]

    events, after = when(table, 0, STAY, DRAW)

    depth = TYPE_OF[following].placement
    assert events[0] == GameEvent("DragonCalled", {"dragon": table.dragons[0], "call_returned_at": depth}, 0)
    assert after.supply.index(CALL_CARD) == depth
    assert GAME.view(after, 2)["supply"]["call_depth"] == depth


def test_the_call_card_goes_to_the_bottom_of_a_short_supply() -> None:
    """ "How many cards down from the top is indicated on the next available dragon card" (ours:
    when fewer cards remain, it goes to the bottom)."""
    table = given(table_event(supply=[CALL_CARD, "crop-field-01", "crop-field-02"]))

    events, after = when(table, 0, STAY, DRAW)

    assert events[0].data["call_returned_at"] == 2
    assert after.supply == ("crop-field-01", "crop-field-02", CALL_CARD)


def test_the_call_card_leaves_the_game_with_the_last_dragon() -> None:
    """ "Do this until there are no dragons left." (ours: the Call card then leaves the game)"""
    table = given(table_event(supply_top=[CALL_CARD], dragons=["shadow-terror-01"]))

    events, after = when(table, 0, STAY, DRAW)

    assert events[0].data == {"dragon": "shadow-terror-01", "call_returned_at": None}
    assert CALL_CARD not in after.supply and CALL_CARD in after.out
    assert after.dragons == ()


def test_damage_counts_towers_passed_over_and_immunity_ignores_single_shots() -> None:
    """ "count the number of sustained damage shots from towers that are behind the dragon";
    "The Ice Wyvern is immune to single shot towers.\""""
    wyvern = TYPE_OF["ice-wyvern-01"]
    assert wyvern.immune_to_shots == {1}
    behind = ["watch-tower-01", "watch-tower-02", "watch-tower-03", "guard-tower-01"]
    table = given(table_event(lines={0: ["guard-tower-02", "ice-wyvern-01", *behind]}))
    assert GAME.view(table, None)["players"][0]["dragon"]["damage"] == 2

    events, after = when(table, 0, STAY)

    expected = 2 * TYPE_OF["guard-tower-01"].shots
    assert expected < wyvern.strength
    assert "DragonDefeated" not in kinds(events)
    assert GAME.view(after, None)["players"][0]["dragon"]["damage"] == expected

    spitfire = given(table_event(lines={0: ["guard-tower-02", "spitfire-01", "watch-tower-01"]}))
    events, after = when(spitfire, 0, STAY)
    assert GameEvent("DragonDefeated", {"dragon": "spitfire-01", "damage": 3}, 0) in events


def test_towers_razed_by_a_dragon_no_longer_damage_it() -> None:
    """ "Destroyed towers will no longer be targeting and therefore will not damage a dragon.\""""
    behemoth = TYPE_OF["magma-behemoth-01"]
    assert behemoth.raze_towers
    table = given(table_event(lines={0: ["war-tower-01", "magma-behemoth-01", "war-tower-02"]}))

    events, after = when(table, 0, STAY)

    assert GameEvent("CardRazed", {"card": "war-tower-01", "dragon": "magma-behemoth-01"}, 0) in events
    assert GAME.view(after, None)["players"][0]["dragon"]["damage"] == TYPE_OF["war-tower-02"].shots


def test_a_dragon_razing_gold_takes_it_and_flees() -> None:
    """ "The dragon passes over gold - immediately remove the gold from your estate and send the
    dragon to the next player.\""""
    assert TYPE_OF["cinder-drake-01"].raze_gold
    table = given(table_event(lines={0: ["crop-field-01", "gold-01", "cinder-drake-01"]}))

    events, after = when(table, 0, STAY)

    assert kinds(events) == ["EstateMoveForgone", "DragonAdvanced", "CardRazed", "DragonFled"]
    assert events[3].data == {"dragon": "cinder-drake-01", "to": 3}
    assert after.estates[0].line == ("crop-field-01",)
    assert "gold-01" in after.out
    assert after.estates[3].line[-1] == "cinder-drake-01"


def test_a_second_dragon_sends_the_first_to_the_next_player() -> None:
    """ "If you draw another dragon from the supply, place the new dragon at your front line,
    then immediately move the other dragon to the next player.\""""
    table = given(table_event(lines={0: ["crop-field-01", "spitfire-01"]}, supply_top=[CALL_CARD]))
    newcomer = table.dragons[0]

    events, after = when(table, 0, STAY, DRAW)

    assert kinds(events) == ["DragonCalled", "DragonFled", "TurnPassed"]
    assert events[1].data == {"dragon": "spitfire-01", "to": 3}
    assert after.estates[0].line[-1] == newcomer
    assert after.estates[3].line == ("spitfire-01",)


def test_a_dragon_at_the_flag_flees_on_the_next_turn_not_at_once() -> None:
    """ "The dragon arrives at your estate flag, then on your next turn the dragon will move on
    to the next player.\""""
    table = given(table_event(lines={0: ["farmstead-01", "spitfire-01"]}))

    events, arrived = when(table, 0, STAY)
    assert "DragonFled" not in kinds(events)
    assert arrived.estates[0].line[0] == "spitfire-01"

    later = given(table_event(lines={0: ["spitfire-01", "farmstead-01"]}))
    events, after = when(later, 0, STAY)
    assert kinds(events)[:2] == ["EstateMoveForgone", "DragonFled"]
    assert "DragonAdvanced" not in kinds(events)
    assert after.estates[0].line == ("farmstead-01",)


def test_a_fleeing_dragon_arrives_healed_at_the_very_front() -> None:
    """ "Dragons will be completely healed when arriving at the next player and will start again
    at the front line.\""""
    table = given(
        table_event(
            lines={
                0: ["spitfire-01", "guard-tower-01"],
                3: ["crop-field-01", "watch-tower-01", "gate-tower-01"],
            }
        )
    )
    assert GAME.view(table, None)["players"][0]["dragon"]["damage"] == 2

    _, after = when(table, 0, STAY)

    dragon = GAME.view(after, None)["players"][3]["dragon"]
    assert after.estates[3].line[-1] == "spitfire-01", "in front of the Gate Tower"
    assert dragon["damage"] == 0


@pytest.mark.parametrize("options", [{"rules": 1}, {"flee_home": True}])
def test_under_flee_home_a_dragon_at_the_flag_with_every_other_line_taken_comes_back(
    options: dict[str, object],
) -> None:
    """ "A Dragon will continue to flee counter clockwise until it finds a player with no dragon"
    (revision 1's reading, and the ``flee_home`` option's: all the way round, back to the player
    it left, whose line it has just left)."""
    lines = {
        0: ["spitfire-01", "crop-field-01"],
        1: ["spitfire-02"],
        2: ["dread-wyrm-01"],
        3: ["dread-wyrm-02"],
    }
    table = given(table_event(lines=lines, options=options))

    events, after = when(table, 0, STAY)

    assert GameEvent("DragonFled", {"dragon": "spitfire-01", "to": 0}, 0) in events
    assert after.estates[0].line == ("crop-field-01", "spitfire-01")


def test_with_nowhere_to_go_a_displaced_dragon_flees_the_game() -> None:
    """ "A Dragon will continue to flee counter clockwise until it finds a player with no dragon"
    (ours: when a second dragon arrives and every other line holds one, the first leaves the
    game unscored)."""
    lines = {
        0: ["crop-field-01", "spitfire-01"],
        1: ["spitfire-02"],
        2: ["dread-wyrm-01"],
        3: ["dread-wyrm-02"],
    }
    table = given(table_event(lines=lines, supply_top=[CALL_CARD]))

    events, after = when(table, 0, STAY, DRAW)

    assert GameEvent("DragonFled", {"dragon": "spitfire-01", "to": None}, 0) in events
    assert "spitfire-01" in after.out


def test_a_swift_dragon_moves_two_spaces() -> None:
    """ "Unless specified on the card, dragons will move one space at a time per turn." (our Gale
    Serpent is printed with two)"""
    assert TYPE_OF["gale-serpent-01"].speed == 2
    table = given(table_event(lines={0: ["farmstead-01", "watch-tower-01", "guard-tower-01", "gale-serpent-01"]}))

    events, after = when(table, 0, STAY)

    assert [e.data["passed"] for e in events if e.type == "DragonAdvanced"] == [
        "guard-tower-01",
        "watch-tower-01",
    ]
    assert after.estates[0].line.index("gale-serpent-01") == 1


def test_the_dragon_tower_may_be_sacrificed_as_the_dragon_passes_over_it() -> None:
    """ "When a dragon passes over this card you may sacrifice the card to defeat the dragon."
    ("Sacraficing the card means removing it from the game.")"""
    table = given(table_event(lines={0: ["crop-field-01", "dragon-tower-01", "dread-wyrm-01"]}))

    events, offered = when(table, 0, STAY)

    assert events[-1] == GameEvent(
        "SacrificeOffered", {"dragon": "dread-wyrm-01", "tower": "dragon-tower-01", "steps_left": 0}, 0
    )
    assert offered.step == STEP_SACRIFICE and GAME.to_act(offered) == {0}
    assert GAME.legal_actions(offered, 0) == [{"type": "sacrifice"}, {"type": "spare"}]
    with pytest.raises(IllegalAction, match="sacrifice"):
        GAME.decide(offered, 0, DRAW, random.Random(0))

    events, after = when(offered, 0, {"type": "sacrifice"})

    assert kinds(events)[:2] == ["TowerSacrificed", "DragonDefeated"]
    assert after.estates[0].line == ("crop-field-01",)
    assert after.estates[0].trophies == ("dread-wyrm-01",)
    assert "dragon-tower-01" in after.out
    assert after.step == STEP_ACQUIRE


def test_a_spared_dragon_tower_shoots_and_the_dragon_moves_on() -> None:
    """ "This is optional, however, if you intend to sacrafice this tower it must be done as the
    dragon passes over it - never at any other time.\""""
    line = ["crop-field-01", "dragon-tower-01", "gale-serpent-01"]
    table = given(table_event(lines={0: line}))
    events, offered = when(table, 0, STAY)
    assert offered.pending is not None and offered.pending.steps_left == 1

    events, after = when(offered, 0, {"type": "spare"})

    assert kinds(events)[:3] == ["SacrificeDeclined", "DragonAdvanced", "CardRazed"]
    assert after.estates[0].line == ("gale-serpent-01", "dragon-tower-01")
    assert after.step == STEP_ACQUIRE
    assert not [a for a in GAME.legal_actions(after, 0) if a["type"] in ("sacrifice", "spare")]
    assert GAME.view(after, None)["players"][0]["dragon"]["damage"] == TYPE_OF["dragon-tower-01"].shots


def test_sacrificing_against_the_shadow_terror_ends_the_game() -> None:
    """ "The Shadow Terror is defeated. ... which will immediately end the game.\""""
    table = given(table_event(lines={0: ["crop-field-01", "dragon-tower-01", "shadow-terror-01"]}))
    _, offered = when(table, 0, STAY)

    events, after = when(offered, 0, {"type": "sacrifice"})

    assert kinds(events) == ["TowerSacrificed", "DragonDefeated", "GameEnded"]
    assert after.step == STEP_OVER
    assert "shadow-terror-01" in after.estates[0].trophies


def test_defeated_dragons_are_kept_for_their_points() -> None:
    """ "When defeating a dragon, set it aside and add it's victory points to your total at the
    end of the game.\""""
    table = given(table_event(lines={0: ["guard-tower-02", "spitfire-01", "watch-tower-01"]}))
    before = GAME.view(table, None)["players"][0]["victory_points"]

    _, after = when(table, 0, STAY)

    assert after.estates[0].trophies == ("spitfire-01",)
    points = GAME.view(after, None)["players"][0]["victory_points"]
    assert points == before + TYPE_OF["spitfire-01"].victory_points


def test_under_revision_1_a_card_placed_while_a_dragon_stands_before_the_gate_towers_enters_behind_it() -> None:
    """ "As a dragon terrorizes your Estate, new Estate cards may be placed at the Front Line
    (behind the dragon)" (revision 1's reading: a dragon that has come back to the very front,
    before the Gate Towers, still has new cards placed behind it; this buries the Gate Tower,
    which revision 2 fixes)."""
    hand = ["farmstead-01", "crop-field-02", "crop-field-03", "crop-field-04", "crop-field-05"]
    lines = {
        0: ["spitfire-01", "crop-field-01", "gate-tower-01"],
        1: ["spitfire-02"],
        2: ["dread-wyrm-01"],
        3: ["dread-wyrm-02"],
    }
    table = given(table_event(lines=lines, hands={0: hand}, supply_top=["crop-field-06"], options={"rules": 1}))
    _, table = when(table, 0, STAY, DRAW)
    assert table.estates[0].line == ("crop-field-01", "gate-tower-01", "spitfire-01")

    events, after = when(table, 0, {"type": "place", "card": "farmstead-01"})

    assert events[0] == GameEvent("CardPlaced", {"card": "farmstead-01", "at": 3}, 0)
    assert after.estates[0].line == ("crop-field-01", "gate-tower-01", "spitfire-01", "farmstead-01")


def test_a_tower_purchased_behind_a_dragon_targets_it_at_once() -> None:
    """ "Remember: New towers that are built behind the dragon (at the front line), will
    immediately target and damage the dragon.\""""
    line = ["fallow-01", "gold-01", "crop-field-01", "spitfire-01", "guard-tower-01"]
    table = given(table_event(lines={0: line}, reached={0: 1}))
    _, table = when(table, 0, STAY)
    assert GAME.view(table, None)["players"][0]["dragon"]["damage"] < TYPE_OF["spitfire-01"].strength

    events, after = when(table, 0, {"type": "purchase", "card": "gate-tower"})

    assert kinds(events) == ["StructurePurchased", "DragonDefeated", "TurnPassed"]
    dealt = TYPE_OF["guard-tower-01"].shots + TYPE_OF["gate-tower-01"].shots
    assert events[1].data == {"dragon": "spitfire-01", "damage": dealt}
    assert after.estates[0].trophies == ("spitfire-01",)
