"""Scenarios of the rules' second pass: the readings a player would dispute, played
under the rulebook's literal words (rules revision 2, the default), under the option that
keeps our first reading, and under revision 1 (games stored before the change)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.fortress_siege import GAME
from games.play import new_game

from .scenario import (
    DONE,
    Scene,
    act,
    armor,
    attack_character,
    attack_fortress,
    character,
    deck,
    defender,
    deploy,
    discard,
    draws,
    equip,
    of_type,
    scene,
    script,
    shield,
    types,
)

DONE_ATTACKING = {"type": "done_attacking"}
FIRST_READING = {"one_attacker_per_move": True}
RULES_1 = {"rules": 1}


def two_attackers(**options: Any) -> Scene:
    """Seat 0 arms a King (armor 9, weapon 7) and a Jack (armor 8, weapon 5); seat 1 has an
    armored King (armor 8) and holds a pair of Threes. Seat 0 is to move, three moves left."""
    decks = [deck(0, ["KH", "9H", "7H", "JH", "8H", "5H"], "JK1"), deck(1, ["KD", "8D", "3C", "3D", "4C"], "10S")]
    play = scene(new_game(GAME, 2, {"decks": decks, **options}, random.Random(0)))
    script(play, *draws(3))
    script(play, *draws(3))
    script(play, deploy("KH.0"), armor("9H.0", "KH.0"), equip("7H.0", "KH.0"))
    script(play, deploy("KD.1"), armor("8D.1", "KD.1"), {"type": "draw"})
    script(play, *draws(3))
    script(play, {"type": "draw"}, discard("4C.1"), {"type": "draw"})
    script(play, deploy("JH.0"), armor("8H.0", "JH.0"), equip("5H.0", "JH.0"))
    script(play, *draws(2))
    act(play, discard(play.state.players[1].hand[-1]))
    assert play.state.active == 0 and play.state.moves_left == 3
    assert {"3C.1", "3D.1"} <= set(play.state.players[1].hand)
    return play


def test_one_attack_move_sends_several_characters_each_with_its_target() -> None:
    """Combat: "The attacking player must declare a target for each attacking character" reads
    as one attack made by several characters. The King goes for the Fortress and the Jack for
    the enemy King in one move; seat 1 answers each in turn (a pair of Threes against the
    first), then both resolve in the order declared."""
    play = two_attackers()
    declared = act(play, attack_fortress("KH.0", 1))
    assert types(declared) == ["AttackDeclared"] and play.state.moves_left == 2
    offered = GAME.legal_actions(play.state, 0)
    assert DONE_ATTACKING in offered and attack_character("JH.0", "KD.1") in offered
    assert all(action.get("attacker") != "KH.0" for action in offered)
    assert {"type": "draw"} not in offered
    joined = act(play, attack_character("JH.0", "KD.1"))
    assert types(joined) == ["AttackDeclared", "AttackersDeclared"], "nobody else could join"
    assert play.state.moves_left == 2, "the whole attack is one move"
    assert GAME.to_act(play.state) == {1}
    assert [a["attacker"] for a in GAME.view(play.state, 1)["charge"]] == ["JH.0"]
    fortress = play.state.players[1].fortress
    act(play, shield("3C.1", "3D.1"))
    assert types(act(play, DONE)) == ["AttackAnswered"]
    assert play.state.attack is not None and play.state.attack.attacker == "JH.0"
    events = act(play, DONE)
    resolved = of_type(events, "AttackResolved")
    assert [r.data["attacker"] for r in resolved] == ["KH.0", "JH.0"]
    assert play.state.players[1].fortress == fortress[4:]
    king = character(play.state, 1, "KD.1")
    assert king is not None and king.armor_left == 3
    assert play.state.active == 0 and play.state.moves_left == 2
    assert GAME.view(play.state, 0)["charge"] == []


def test_the_attacker_may_stop_declaring_and_attack_again_in_another_move() -> None:
    """Combat: "The attacking player must declare a target for each attacking character"; the
    player chooses which characters attack: the King alone, then the Jack in a later move."""
    play = two_attackers()
    act(play, attack_fortress("KH.0", 1))
    act(play, DONE_ATTACKING)
    assert GAME.to_act(play.state) == {1}
    act(play, DONE)
    assert play.state.moves_left == 2
    act(play, attack_character("JH.0", "KD.1"))
    assert GAME.to_act(play.state) == {1} and play.state.moves_left == 1


@pytest.mark.parametrize("options", [FIRST_READING, RULES_1], ids=["option", "rules-1"])
def test_our_first_reading_makes_each_attacker_a_move_of_its_own(options: dict[str, Any]) -> None:
    """The option one_attacker_per_move, and every game stored under rules 1: an attack is one
    character against one target, answered and resolved at once; another attacker is
    another move."""
    play = two_attackers(**options)
    act(play, attack_fortress("KH.0", 1))
    assert GAME.to_act(play.state) == {1} and play.state.moves_left == 2
    assert DONE_ATTACKING not in GAME.legal_actions(play.state, 1)
    assert "AttackResolved" in types(act(play, DONE))
    act(play, attack_character("JH.0", "KD.1"))
    assert play.state.moves_left == 1
    act(play, DONE)
    king = character(play.state, 1, "KD.1")
    assert king is not None and king.armor_left == 3


def test_an_earlier_attacker_of_the_same_move_wounds_and_a_later_one_kills() -> None:
    """Combat: "The attacking player must declare a target for each attacking character"; two
    may choose the same one. The King's 7 leaves the enemy King 1 armor; the Jack's 5 then
    kills it, and the 4 points beyond its armor are lost (the next test)."""
    play = two_attackers()
    fortress = play.state.players[1].fortress
    script(play, attack_character("KH.0", "KD.1"), attack_character("JH.0", "KD.1"), DONE, DONE)
    assert character(play.state, 1, "KD.1") is None
    assert play.state.players[1].fortress == fortress
    assert play.state.players[0].graveyard == ("7H.0", "5H.0")


@pytest.mark.parametrize("options", [{}, FIRST_READING, RULES_1], ids=["default", "option", "rules-1"])
def test_power_beyond_a_dying_target_character_is_lost(options: dict[str, Any]) -> None:
    """Combat: "If a character dies while defending another character or fortress and the
    character's armor has not blocked all of an attacking weapons power, the attacking
    weapon's remaining power continues to the target character or fortress." The words carry
    the rest of the power on only from a dying defender, and only as far as the target: what
    exceeds a target character's armor goes nowhere. The Jack's 5 against the wounded enemy
    King (armor 1 left) kills it, and no card leaves seat 1's Fortress."""
    play = two_attackers(**options)
    script(play, attack_character("KH.0", "KD.1"))
    if play.state.attack is None:
        act(play, DONE_ATTACKING)
    act(play, DONE)
    fortress = play.state.players[1].fortress
    events = script(play, attack_character("JH.0", "KD.1"), DONE)
    assert character(play.state, 1, "KD.1") is None
    assert "FortressBreached" not in types(events)
    assert play.state.players[1].fortress == fortress
    assert of_type(events, "AttackResolved")[0].data["reached_target"] == 5


def test_power_beyond_a_dying_defender_goes_on_to_the_target() -> None:
    """Combat: "If a character dies while defending another character or fortress and the
    character's armor has not blocked all of an attacking weapons power, the attacking
    weapon's remaining power continues to the target character or fortress." The Jack's 5
    leaves the enemy King 3 armor; when it then defends its Fortress against the King's 7,
    it blocks 3 and dies, and the other 4 reach the Fortress."""
    play = two_attackers()
    script(play, attack_character("JH.0", "KD.1"), DONE_ATTACKING, DONE)
    king = character(play.state, 1, "KD.1")
    assert king is not None and king.armor_left == 3
    fortress = play.state.players[1].fortress
    events = script(play, attack_fortress("KH.0", 1), defender("KD.1"), DONE)
    assert character(play.state, 1, "KD.1") is None
    assert play.state.players[1].fortress == fortress[4:]
    assert of_type(events, "AttackResolved")[0].data["absorbed_by_defenders"] == 3


def test_worked_example_a_pair_of_sixes_blocks_six_damage() -> None:
    """Shields: "Blocks attack to character or fortress up to the value of one numbered card
    (e.g. a pair of sixes blocks six damage)". Against the King's 7, one card leaves the
    Fortress."""
    decks = [deck(0, ["KH", "9H", "7H"], "JK1"), deck(1, ["6C", "6D", "4C"], "10S")]
    play = scene(new_game(GAME, 2, {"decks": decks}, random.Random(0)))
    script(play, *draws(3), *draws(3), deploy("KH.0"), armor("9H.0", "KH.0"), equip("7H.0", "KH.0"))
    script(play, discard("4C.1"), *draws(2))
    fortress = play.state.players[1].fortress
    events = script(play, attack_fortress("KH.0", 1), shield("6C.1", "6D.1"), DONE)
    assert of_type(events, "AttackResolved")[0].data["blocked"] == 6
    assert play.state.players[1].fortress == fortress[1:]


def test_worked_example_a_trio_of_threes_blocks_three_and_strikes_back_three() -> None:
    """Shields: "Blocks attack to character or fortress up to the value of one numbered card
    and deals that value in damage back to the attacker (e.g. a trio of threes blocks three
    damage and deals three damage back to attacking character)". The King (armor 9, weapon
    7) keeps 6 armor and 4 points reach the Fortress."""
    decks = [deck(0, ["KH", "9H", "7H"], "JK1"), deck(1, ["3C", "3D", "3H"], "10S")]
    play = scene(new_game(GAME, 2, {"decks": decks}, random.Random(0)))
    script(play, *draws(3), *draws(3), deploy("KH.0"), armor("9H.0", "KH.0"), equip("7H.0", "KH.0"))
    script(play, *draws(2))
    act(play, discard(play.state.players[1].hand[-1]))
    fortress = play.state.players[1].fortress
    events = script(play, attack_fortress("KH.0", 1), shield("3C.1", "3D.1", "3H.1"), DONE)
    assert of_type(events, "AttackerCountered")[0].data["damage"] == 3
    king = character(play.state, 0, "KH.0")
    assert king is not None and king.armor_left == 6
    assert play.state.players[1].fortress == fortress[4:]
