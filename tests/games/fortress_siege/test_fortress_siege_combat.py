"""Combat: attacks, the defender's out-of-turn answer, and resolution in the rulebook's
order (the three worked examples from "Notes on Shields" included)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from games.base import IllegalAction
from games.fortress_siege import GAME

from .scenario import (
    DONE,
    Scene,
    act,
    armor,
    attack_character,
    attack_fortress,
    character,
    defender,
    deploy,
    discard,
    draws,
    equip,
    given,
    idle,
    of_type,
    script,
    shield,
    start,
    types,
)

Turn = Sequence[dict[str, Any]]


def ready(p1_top: Sequence[str], *p1_turns: Turn, king: Sequence[str] = ("KH", "9H", "7H")) -> Scene:
    """Seat 0 draws ``king`` (a King, its armor, its weapon) and arms it on its second
    turn; seat 1 draws from ``p1_top`` and plays ``p1_turns`` (at least two) while seat 0
    idles; then seat 0 is to move with three moves."""
    assert len(p1_turns) >= 2
    play = start(list(king), list(p1_top))
    script(play, *draws(3))
    for index, turn in enumerate(p1_turns):
        script(play, *turn)
        if index == 0:
            script(
                play,
                deploy(f"{king[0]}.0"),
                armor(f"{king[1]}.0", f"{king[0]}.0"),
                equip(f"{king[2]}.0", f"{king[0]}.0"),
            )
        elif index < len(p1_turns) - 1:
            idle(play)
    assert play.state.active == 0 and play.state.moves_left == 3, "the script left seat 0 not to move"
    return play


def refused(play: Scene, seat: int, action: dict[str, Any]) -> str:
    before = len(play.events)
    with pytest.raises(IllegalAction) as error:
        GAME.decide(play.state, seat, action, random.Random(0))
    assert action not in GAME.legal_actions(play.state, seat)
    assert len(play.events) == before
    return error.value.reason


def test_worked_example_king_attack_5_against_a_pair_of_eights() -> None:
    """ "an Opponent attacks a Player's fortress using a King with an attack of 5, the
    Player blocks with a Two-handed Shield of defense 8, all damage is blocked and the
    pair of 8s is discarded"."""
    play = ready(["8C", "8D", "3C", "4C", "4D"], draws(3), [*draws(2), discard("4D.1")], king=("KH", "9H", "5H"))
    fortress = play.state.players[1].fortress
    act(play, attack_fortress("KH.0", 1))
    act(play, shield("8C.1", "8D.1"))
    events = act(play, DONE)
    assert "FortressBreached" not in types(events)
    assert play.state.players[1].fortress == fortress
    assert play.state.players[1].graveyard == ("4D.1", "8C.1", "8D.1")
    king = character(play.state, 0, "KH.0")
    assert king is not None and king.weapon is None and king.armor_left == 9
    assert play.state.players[0].graveyard == ("5H.0",)
    resolved = of_type(events, "AttackResolved")[0].data
    assert resolved["blocked"] == 5 and resolved["reached_target"] == 0


def test_worked_example_king_attack_7_against_a_pair_of_threes() -> None:
    """ "an Opponent attacks a Player's fortress using a King with an attack of 7, the
    Player blocks with a pair of threes as a Two-handed Shield, 3 damage points are
    blocked but the target player must still discard 4 cards from their fortress as well
    as the pair of threes used as a shield"."""
    play = ready(["3C", "3D", "4C", "4D", "5C"], draws(3), [*draws(2), discard("5C.1")])
    fortress = play.state.players[1].fortress
    act(play, attack_fortress("KH.0", 1))
    act(play, shield("3C.1", "3D.1"))
    events = act(play, DONE)
    assert play.state.players[1].fortress == fortress[4:]
    assert of_type(events, "FortressBreached")[0].data["cards"] == list(fortress[:4])
    assert play.state.players[1].graveyard == ("5C.1", "3C.1", "3D.1", *fortress[:4])
    assert play.state.players[0].graveyard == ("7H.0",)


def test_worked_example_bladed_shield_kills_the_attacking_king_and_stops_the_attack() -> None:
    """ "an Opponent attacks a Player's armored Queen using a King with an attack of 7 and
    an armor of 4, the Player blocks with three fives as a Bladed Shield, only 5 damage
    points are blocked but the Bladed Shield counterattack (of 5) depletes the attacking
    King's armor (4) and the King dies. The attack stops and the King's remaining (2
    points of) of attack are never delivered"."""
    play = ready(
        ["QS", "9S", "5C", "5D", "5H"],
        draws(3),
        [deploy("QS.1"), armor("9S.1", "QS.1"), {"type": "draw"}],
        draws(3),
        king=("KH", "4H", "7H"),
    )
    act(play, attack_character("KH.0", "QS.1"))
    act(play, shield("5C.1", "5D.1", "5H.1"))
    events = act(play, DONE)
    assert types(events)[:3] == ["AttackerCountered", "CharacterSlain", "ShieldsDiscarded"]
    assert of_type(events, "CharacterSlain")[0].data["cards"] == ["KH.0", "4H.0", "7H.0"]
    assert "CharacterWounded" not in types(events) and "WeaponSpent" not in types(events)
    queen = character(play.state, 1, "QS.1")
    assert queen is not None and queen.armor_left == 9
    assert play.state.players[0].battlefield == ()
    assert play.state.players[0].graveyard == ("KH.0", "4H.0", "7H.0")
    assert play.state.players[1].graveyard == ("5C.1", "5D.1", "5H.1")
    resolved = of_type(events, "AttackResolved")[0].data
    assert resolved["attacker_slain"] is True and resolved["reached_target"] == 0


def test_a_bladed_shield_that_does_not_kill_lets_the_rest_of_the_attack_through() -> None:
    """ "If shields have not blocked all of an attacking weapon's power (and the attacker
    has survived any counterattack from a Bladed Shield) the attack continues with the
    weapon's remaining power"."""
    play = ready(["2C", "2D", "2H", "4C", "4D"], draws(3), [*draws(2), discard("4D.1")])
    fortress = play.state.players[1].fortress
    act(play, attack_fortress("KH.0", 1))
    act(play, shield("2C.1", "2D.1", "2H.1"))
    act(play, DONE)
    king = character(play.state, 0, "KH.0")
    assert king is not None and king.armor_left == 7 and king.weapon is None
    assert play.state.players[1].fortress == fortress[5:]


def test_one_exchange_goes_through_every_step_in_the_rulebooks_order() -> None:
    """ "The order of combat proceeds as follows: Attackers and targets are declared /
    Defenders are declared / Shields are declared / Defense from shields is assessed /
    Bladed Shield counterattack damage is assessed / ... the attack continues with the
    weapon's remaining power / Defense from characters is assessed / ... If a character's
    armor is depleted, the character dies / ... the attacking weapon's remaining power
    continues to the target character or fortress / Dead characters (including armor and
    weapon cards), shields, and attacker's weapons are discarded / Damage to Fortress is
    assessed / One card is removed from the target fortress ... for each point of damage"."""
    play = ready(
        ["QS", "2S", "2C", "2D", "2H", "3C"],
        [*draws(2), deploy("QS.1")],
        [armor("2S.1", "QS.1"), *draws(2)],
        [*draws(2), discard("3C.1")],
        king=("KH", "9H", "10H"),
    )
    fortress = play.state.players[1].fortress
    script(play, attack_fortress("KH.0", 1), defender("QS.1"), shield("2C.1", "2D.1", "2H.1"))
    events = act(play, DONE)
    assert [(e.type, dict(e.data)) for e in events] == [
        ("AttackerCountered", {"seat": 0, "character": "KH.0", "damage": 2}),
        ("CharacterWounded", {"seat": 1, "character": "QS.1", "damage": 2}),
        ("CharacterSlain", {"seat": 1, "character": "QS.1", "cards": ["QS.1", "2S.1"]}),
        ("ShieldsDiscarded", {"seat": 1, "cards": ["2C.1", "2D.1", "2H.1"]}),
        ("WeaponSpent", {"seat": 0, "character": "KH.0", "card": "10H.0"}),
        ("FortressBreached", {"seat": 1, "target_seat": 1, "cards": list(fortress[:6])}),
        (
            "AttackResolved",
            {
                "seat": 0,
                "attacker": "KH.0",
                "target_seat": 1,
                "target": None,
                "power": 10,
                "blocked": 2,
                "counterattack": 2,
                "attacker_slain": False,
                "absorbed_by_defenders": 2,
                "reached_target": 6,
            },
        ),
    ]
    king = character(play.state, 0, "KH.0")
    assert king is not None and king.armor_left == 7 and king.weapon is None
    assert play.state.players[1].fortress == fortress[6:]
    assert play.state.players[1].graveyard == ("3C.1", "QS.1", "2S.1", "2C.1", "2D.1", "2H.1", *fortress[:6])
    assert play.state.active == 0 and play.state.moves_left == 2, "defending costs no move"


def test_damage_equal_to_the_armor_left_depletes_it() -> None:
    """ "If a character's armor is depleted, the character dies" (damage equal to the armor
    left depletes it: RULINGS.md)."""
    play = ready(["KD", "7D", "3C"], [*draws(2), deploy("KD.1")], [armor("7D.1", "KD.1"), *draws(2)])
    act(play, attack_character("KH.0", "KD.1"))
    events = act(play, DONE)
    assert types(events)[:2] == ["CharacterWounded", "CharacterSlain"]
    assert events[0].data["damage"] == 7
    assert character(play.state, 1, "KD.1") is None
    assert play.state.players[1].graveyard == ("KD.1", "7D.1")


def test_direct_actions_and_moves_only_on_the_players_own_turn() -> None:
    """ "Direct actions can only be played during a player's turn" / "Shields are played
    only in defense (when a character or fortress is attacked during opponent's turn)"."""
    play = ready(["JK2", "3C", "4C", "3D"], draws(3), [*draws(2), discard("4C.1")])
    assert play.state.players[1].hand == ("JK2.1", "3C.1", "3D.1", "2C.1")
    barrage = {"type": "barrage", "card": "JK2.1", "fortress": 0}
    assert "not your turn" in refused(play, 1, barrage)
    act(play, attack_fortress("KH.0", 1))
    assert "answering an attack" in refused(play, 1, barrage)
    act(play, shield("3C.1", "3D.1"))
    act(play, DONE)
    assert "no move called" in refused(play, 0, shield("3C.0", "3D.0"))


def test_the_attacked_player_answers_out_of_turn() -> None:
    """ "If a player's characters or fortress is attacked during their opponent's turn, they
    may defend the attack using their characters or shields if able"."""
    play = ready(["3C"], draws(3), [*draws(2), discard("3C.1")])
    events = act(play, attack_fortress("KH.0", 1))
    assert types(events) == ["AttackDeclared"]
    assert events[0].data == {"seat": 0, "attacker": "KH.0", "target_seat": 1, "target": None, "power": 7}
    assert GAME.to_act(play.state) == {1}
    assert GAME.legal_actions(play.state, 0) == []
    assert GAME.legal_actions(play.state, 1) == [{"type": "done_defending"}]
    assert "not your turn" in refused(play, 0, {"type": "draw"})
    assert "answering an attack" in refused(play, 1, {"type": "draw"})
    act(play, DONE)
    assert GAME.to_act(play.state) == {0} and play.state.moves_left == 2


def test_an_attack_needs_an_armored_character_with_a_weapon() -> None:
    """ "Characters can only attack on their player's turn and only when armored and
    equipped with a weapon"."""
    play = start(["KH", "9H", "7H"], [])
    script(play, *draws(3), *draws(3), deploy("KH.0"), armor("9H.0", "KH.0"))
    idle(play, turns=0)
    act(play, {"type": "draw"})
    idle(play)
    assert not [a for a in GAME.legal_actions(play.state, 0) if a["type"] == "attack"]
    assert "armored and equipped" in refused(play, 0, attack_fortress("KH.0", 1))


def test_jacks_attack_characters_queens_fortresses_kings_either() -> None:
    """ "Jack: Can only attack an opponent's characters" / "Queen: Can only attack an
    opponent's Fortress" / "King: Can attack an opponent's characters or Fortress"."""
    play = start(["JH", "QH", "KH", "9H", "8H", "7H", "6H", "5H", "4H"], ["KD", "8D", "3C"])
    script(play, *draws(3), *draws(3))
    script(play, deploy("JH.0"), deploy("QH.0"), deploy("KH.0"))
    script(play, deploy("KD.1"), armor("8D.1", "KD.1"), {"type": "draw"})
    script(play, *draws(3))
    idle(play)
    script(play, armor("9H.0", "JH.0"), armor("8H.0", "QH.0"), armor("7H.0", "KH.0"))
    idle(play)
    script(play, *draws(3))
    idle(play)
    script(play, equip("6H.0", "JH.0"), equip("5H.0", "QH.0"), equip("4H.0", "KH.0"))
    idle(play)
    attacks = [a for a in GAME.legal_actions(play.state, 0) if a["type"] == "attack"]
    assert attacks == [
        attack_character("JH.0", "KD.1"),
        attack_fortress("QH.0", 1),
        attack_fortress("KH.0", 1),
        attack_character("KH.0", "KD.1"),
    ]
    assert "Jack can only attack" in refused(play, 0, attack_fortress("JH.0", 1))
    assert "Queen can only attack" in refused(play, 0, attack_character("QH.0", "KD.1"))
    assert "opponent" in refused(play, 0, attack_fortress("KH.0", 0))


def test_an_unarmored_character_cannot_be_attacked() -> None:
    """ "A character cannot be attacked unless they are armored (except by an Angel of
    Death)"."""
    play = ready(["KD", "3C"], [*draws(2), deploy("KD.1")], draws(3))
    assert attack_character("KH.0", "KD.1") not in GAME.legal_actions(play.state, 0)
    assert "unless it is armored" in refused(play, 0, attack_character("KH.0", "KD.1"))


def three_guards() -> Scene:
    """Seat 1 has an armored Jack (8), Queen (7) and King (6); seat 0's King (9/7) is to move."""
    return ready(
        ["JD", "QD", "KD", "8D", "7D", "6D"],
        draws(3),
        [deploy("JD.1"), deploy("QD.1"), deploy("KD.1")],
        draws(3),
        [armor("8D.1", "JD.1"), armor("7D.1", "QD.1"), armor("6D.1", "KD.1")],
    )


def test_queens_and_kings_guard_the_fortress() -> None:
    """ "Jack: Can only block attacks to characters" / "Queen: Can only block attacks to a
    Fortress" / "King: Can block attacks to any character or Fortress"."""
    play = three_guards()
    act(play, attack_fortress("KH.0", 1))
    assert GAME.legal_actions(play.state, 1) == [defender("QD.1"), defender("KD.1"), DONE]
    assert "Jack can only block attacks to characters" in refused(play, 1, defender("JD.1"))


def test_jacks_and_kings_guard_characters_and_the_target_is_not_its_own_defender() -> None:
    """ "Jack: Can only block attacks to characters" / "An armored character can defend an
    attack against themselves or another character" (the target takes the blow anyway)."""
    play = three_guards()
    act(play, attack_character("KH.0", "KD.1"))
    assert GAME.legal_actions(play.state, 1) == [defender("JD.1"), DONE]
    assert "Queen can only block attacks to a Fortress" in refused(play, 1, defender("QD.1"))
    assert "already takes the blow" in refused(play, 1, defender("KD.1"))
    play = three_guards()
    act(play, attack_character("KH.0", "QD.1"))
    assert GAME.legal_actions(play.state, 1) == [defender("JD.1"), defender("KD.1"), DONE]
    assert "already takes the blow" in refused(play, 1, defender("QD.1"))
    act(play, defender("KD.1"))
    assert GAME.legal_actions(play.state, 1) == [defender("JD.1"), DONE]
    assert "already defending" in refused(play, 1, defender("KD.1"))


def test_an_unarmored_character_cannot_defend() -> None:
    """ "A character must be armored in order to defend an attack"."""
    play = ready(["KD", "3C"], [*draws(2), deploy("KD.1")], draws(3))
    act(play, attack_fortress("KH.0", 1))
    assert GAME.legal_actions(play.state, 1) == [DONE]
    assert "armored in order to defend" in refused(play, 1, defender("KD.1"))


def two_guards() -> Scene:
    """Seat 1 has an armored King (8) and Queen (2); seat 0's King (9/7) is to move."""
    return ready(
        ["KD", "8D", "QS", "2S"],
        draws(3),
        [deploy("KD.1"), armor("8D.1", "KD.1"), deploy("QS.1")],
        [{"type": "draw"}, armor("2S.1", "QS.1"), {"type": "draw"}],
    )


def test_a_defender_whose_armor_holds_keeps_what_is_left_and_nothing_reaches_the_fortress() -> None:
    """ "If a character's armor is not depleted by the attack, the character is returned to
    the player's battlefield with its remaining armor"."""
    play = two_guards()
    fortress = play.state.players[1].fortress
    script(play, attack_fortress("KH.0", 1), defender("KD.1"), defender("QS.1"), DONE)
    king, queen = character(play.state, 1, "KD.1"), character(play.state, 1, "QS.1")
    assert king is not None and king.armor_left == 1
    assert queen is not None and queen.armor_left == 2
    assert play.state.players[1].fortress == fortress


def test_defenders_take_the_blow_in_the_order_declared() -> None:
    """ "Defense from characters is assessed" (order of defenders: RULINGS.md); "If a
    character dies while defending ... the attacking weapon's remaining power continues"."""
    play = two_guards()
    fortress = play.state.players[1].fortress
    events = script(play, attack_fortress("KH.0", 1), defender("QS.1"), defender("KD.1"), DONE)
    hits = [(e.type, e.data["character"]) for e in events if e.type in ("CharacterWounded", "CharacterSlain")]
    assert hits == [
        ("CharacterWounded", "QS.1"),
        ("CharacterSlain", "QS.1"),
        ("CharacterWounded", "KD.1"),
    ]
    king = character(play.state, 1, "KD.1")
    assert king is not None and king.armor_left == 3
    assert character(play.state, 1, "QS.1") is None
    assert play.state.players[1].graveyard == ("QS.1", "2S.1")
    assert play.state.players[1].fortress == fortress


def test_power_passes_through_a_dead_defender_to_the_fortress() -> None:
    """ "If a character dies while defending another character or fortress and the
    character's armor has not blocked all of an attacking weapons power, the attacking
    weapon's remaining power continues to the target character or fortress"."""
    play = two_guards()
    fortress = play.state.players[1].fortress
    events = script(play, attack_fortress("KH.0", 1), defender("QS.1"), DONE)
    assert play.state.players[1].fortress == fortress[5:]
    resolved = of_type(events, "AttackResolved")[0].data
    assert resolved["absorbed_by_defenders"] == 2 and resolved["reached_target"] == 5
    assert types(events).index("CharacterSlain") < types(events).index("FortressBreached")


def test_an_attacked_character_loses_armor_and_dies_when_it_is_depleted() -> None:
    """ "Damage to characters is assessed" / "A character dies (and is discarded, with any
    equipped armor and weapon cards, to their graveyard) when their armor is depleted"."""
    play = two_guards()
    script(play, attack_character("KH.0", "KD.1"), DONE)
    king = character(play.state, 1, "KD.1")
    assert king is not None and king.armor_left == 1
    assert play.state.players[1].graveyard == ()


def test_power_beyond_a_target_characters_armor_is_lost() -> None:
    """Power continues only through a dead *defender*: "the attacking weapon's remaining
    power continues to the target character or fortress" (excess on the target: RULINGS.md)."""
    play = two_guards()
    fortress = play.state.players[1].fortress
    events = script(play, attack_character("KH.0", "QS.1"), DONE)
    assert character(play.state, 1, "QS.1") is None
    assert "FortressBreached" not in types(events)
    assert play.state.players[1].fortress == fortress
    assert of_type(events, "AttackResolved")[0].data["reached_target"] == 7


def test_a_weapon_is_used_once_then_discarded() -> None:
    """ "A weapon can only be used to attack one time and the numbered card used as a weapon
    is discarded immediately after use, regardless of whether or not the weapons damage was
    blocked"."""
    play = two_guards()
    script(play, attack_fortress("KH.0", 1), defender("KD.1"), DONE)
    king = character(play.state, 0, "KH.0")
    assert king is not None and king.weapon is None
    assert play.state.players[0].graveyard == ("7H.0",)
    assert not [a for a in GAME.legal_actions(play.state, 0) if a["type"] == "attack"]


def test_shields_are_pairs_or_trios_of_numbered_cards_from_hand() -> None:
    """ "Pair of Numbered Cards ("Two-Handed Shield")" / "Three of a Kind of Numbered Cards
    ("Bladed Shield")" / "Shields are played directly from the players hand"."""
    play = ready(
        ["AC", "AD", "JS", "9S", "4C", "4D", "4H"],
        draws(3),
        [deploy("JS.1"), {"type": "draw"}, armor("9S.1", "JS.1")],
        draws(3),
    )
    assert play.state.players[1].hand == ("AC.1", "AD.1", "4C.1", "4D.1", "4H.1")
    act(play, attack_fortress("KH.0", 1))
    assert GAME.legal_actions(play.state, 1) == [
        shield("4C.1", "4D.1"),
        shield("4C.1", "4H.1"),
        shield("4D.1", "4H.1"),
        shield("4C.1", "4D.1", "4H.1"),
        DONE,
    ]
    assert "pair or three of a kind" in refused(play, 1, shield("AC.1", "AD.1"))
    assert "pair or three of a kind" in refused(play, 1, shield("4C.1"))
    assert "order they are in your hand" in refused(play, 1, shield("4D.1", "4C.1"))
    act(play, shield("4C.1", "4D.1"))
    assert GAME.legal_actions(play.state, 1) == [DONE]
    assert GAME.view(play.state, 0)["attack"]["shields"] == [["4C.1", "4D.1"]]


def test_several_shields_add_up() -> None:
    """ "The defending player may defend their characters or fortress using any combination
    of armored characters and shields"."""
    play = ready(["2C", "2D", "3C", "3D", "5C"], draws(3), [*draws(2), discard("5C.1")])
    fortress = play.state.players[1].fortress
    script(play, attack_fortress("KH.0", 1), shield("2C.1", "2D.1"), shield("3C.1", "3D.1"), DONE)
    assert play.state.players[1].fortress == fortress[2:]


def test_only_the_attacked_player_defends() -> None:
    """ "The defending player may defend their characters or fortress" (a Queen guards her
    own player's Fortress only: RULINGS.md)."""
    play = start(["KH", "9H", "7H"], ["3C"], ["QS", "8S", "4C"], tombstones=["JK1", "2C", "2D"])
    script(play, *draws(3), *draws(3), *draws(3))
    script(play, deploy("KH.0"), armor("9H.0", "KH.0"), equip("7H.0", "KH.0"))
    idle(play)
    script(play, deploy("QS.2"), armor("8S.2", "QS.2"), {"type": "draw"})
    act(play, attack_fortress("KH.0", 1))
    assert GAME.to_act(play.state) == {1}
    assert GAME.legal_actions(play.state, 2) == []
    assert "not your turn" in refused(play, 2, defender("QS.2"))


def test_a_breach_that_reaches_the_tombstone_puts_the_player_out() -> None:
    """ "One card is removed from the target fortress ... for each point of damage" / "If
    the last card of a player's fortress (Tombstone) is discarded, that player is out of
    the game"."""
    play = given(
        [
            ["KH.0", "9H.0", "7H.0", "3C.0", "JK1.0"],
            ["4C.1", "5C.1", "6C.1", "8C.1", "9C.1", "2C.1"],
        ]
    )
    script(play, *draws(3), *draws(3))
    script(play, deploy("KH.0"), armor("9H.0", "KH.0"), equip("7H.0", "KH.0"))
    script(play, discard("4C.1"), discard("5C.1"), discard("6C.1"))
    events = script(play, attack_fortress("KH.0", 1), DONE)
    assert types(events)[-3:] == ["FortressBreached", "AttackResolved", "PlayerDefeated"]
    assert of_type(events, "FortressBreached")[0].data["cards"] == ["8C.1", "9C.1", "2C.1"]
    assert GAME.outcome(play.state) is not None
    assert GAME.outcome(play.state)["winners"] == [0]  # type: ignore[index]
