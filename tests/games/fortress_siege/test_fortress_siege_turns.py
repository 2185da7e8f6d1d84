"""Turns: exactly three moves, the hand limit, deploying, armoring, equipping, discarding."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.base import IllegalAction
from games.fortress_siege import GAME

from .scenario import (
    Scene,
    act,
    armor,
    character,
    deploy,
    discard,
    draws,
    equip,
    given,
    idle,
    script,
    start,
    types,
)


def refused(play: Scene, action: dict[str, Any], seat: int | None = None) -> str:
    """The action is refused and nothing is appended; the reason is returned."""
    before = len(play.events)
    if seat is None:
        (seat,) = GAME.to_act(play.state)
    with pytest.raises(IllegalAction) as error:
        GAME.decide(play.state, seat, action, random.Random(0))
    assert action not in GAME.legal_actions(play.state, seat)
    assert len(play.events) == before
    return error.value.reason


def test_a_turn_is_exactly_three_moves_then_play_passes() -> None:
    """ "On each turn, the current player is required to make exactly three moves before
    gameplay rotates clockwise to the next player"."""
    play = start(["KH"], [])
    assert play.state.moves_left == 3
    assert types(act(play, {"type": "draw"})) == ["CardDrawn"]
    assert types(act(play, deploy("KH.0"))) == ["CharacterDeployed"]
    assert play.state.active == 0 and play.state.moves_left == 1
    events = act(play, {"type": "draw"})
    assert types(events) == ["CardDrawn", "TurnPassed"]
    assert play.state.active == 1 and play.state.moves_left == 3
    assert GAME.to_act(play.state) == {1}


def test_moving_out_of_turn_is_refused() -> None:
    """ "Deploying a character card ... character cards can be deployed only during a
    player's turn"."""
    play = start([], [])
    reason = refused(play, {"type": "draw"}, seat=1)
    assert "not your turn" in reason
    assert GAME.legal_actions(play.state, 1) == []


def test_drawing_takes_the_top_card_of_the_fortress_into_the_hand() -> None:
    """ "Draw a card from their Fortress"."""
    play = start(["7D", "AS"], [])
    script(play, *draws(2))
    assert play.state.players[0].hand == ("7D.0", "AS.0")
    assert len(play.state.players[0].fortress) == 52


def test_no_draw_with_five_cards_in_hand() -> None:
    """ "A player may not draw a card unless they have fewer than five cards in their hand"."""
    play = start([], [])
    script(play, *draws(3))
    idle(play)
    script(play, *draws(2))
    assert len(play.state.players[0].hand) == 5 and play.state.active == 0
    assert "holding 5 cards" in refused(play, {"type": "draw"})
    assert discard("2C.0") in GAME.legal_actions(play.state, 0)


def test_only_characters_are_deployed() -> None:
    """ "Deploy a character to the Battlefield from their hand" (Jack, Queen, King)."""
    play = start(["JC", "7C", "AC"], [])
    script(play, *draws(3), *draws(3))
    assert types(act(play, deploy("JC.0"))) == ["CharacterDeployed"]
    assert character(play.state, 0, "JC.0") is not None
    assert "Jack, Queen or King" in refused(play, deploy("7C.0"))
    assert "Jack, Queen or King" in refused(play, deploy("AC.0"))


def test_armor_is_one_numbered_card_on_a_deployed_character() -> None:
    """ "Character cards must be played to the Battlefield before they can be armored" /
    "Any numbered card can be used on a character as armor" / "Only one numbered card may
    be applied as armor to a character at any time"."""
    play = start(["QC", "9C", "AC", "4C", "JK2"], [])
    script(play, *draws(3), *draws(3))
    assert "not a character on your battlefield" in refused(play, armor("9C.0", "QC.0"))
    act(play, deploy("QC.0"))
    assert "numbered card" in refused(play, armor("AC.0", "QC.0"))
    act(play, armor("9C.0", "QC.0"))
    queen = character(play.state, 0, "QC.0")
    assert queen is not None and queen.armor == "9C.0" and queen.armor_left == 9
    act(play, {"type": "draw"})
    idle(play)
    act(play, {"type": "draw"})
    assert "only one armor" in refused(play, armor("4C.0", "QC.0"))
    assert "numbered card" in refused(play, equip("JK2.0", "QC.0"))


def test_a_weapon_needs_armor_first_and_only_one_weapon() -> None:
    """ "A character must be armored before they can be equipped with a weapon" / "A
    character can be equipped with only one weapon at any time"."""
    play = start(["KD", "5D", "8D", "2D"], [])
    script(play, *draws(3), *draws(3), deploy("KD.0"))
    assert "armored before" in refused(play, equip("5D.0", "KD.0"))
    script(play, armor("8D.0", "KD.0"), equip("5D.0", "KD.0"))
    king = character(play.state, 0, "KD.0")
    assert king is not None and king.weapon == "5D.0" and king.power == 5
    idle(play)
    act(play, {"type": "draw"})
    assert "only one" in refused(play, equip("2D.0", "KD.0"))


def test_discarding_from_hand_sends_the_card_to_the_graveyard() -> None:
    """ "Discard a card from their hand"."""
    play = start(["6H"], [])
    act(play, {"type": "draw"})
    assert types(act(play, discard("6H.0"))) == ["CardDiscarded"]
    assert play.state.players[0].graveyard == ("6H.0",)
    assert play.state.players[0].hand == ()


def test_discarding_a_character_takes_its_armor_and_weapon_along() -> None:
    """ "Discard a character (and any equipped armor and weapon) from their battlefield"."""
    play = start(["KS", "9S", "3S"], [])
    script(play, *draws(3), *draws(3), deploy("KS.0"), armor("9S.0", "KS.0"), equip("3S.0", "KS.0"))
    idle(play)
    act(play, {"type": "discard_character", "character": "KS.0"})
    assert play.state.players[0].battlefield == ()
    assert play.state.players[0].graveyard == ("KS.0", "9S.0", "3S.0")


def test_drawing_the_tombstone_defeats_the_player_at_once() -> None:
    """ "as soon as a player's Tombstone is drawn, that player is defeated"."""
    play = given([["5C.0", "2C.0"], ["9C.1", "8C.1", "3C.1"], ["4C.2", "JK1.2"]])
    script(play, *draws(2))
    events = play.events[-3:]
    assert types(events) == ["TombstoneDrawn", "PlayerDefeated", "TurnPassed"]
    assert events[1].data["cards"] == ["5C.0", "2C.0"]
    assert not play.state.players[0].in_game
    assert play.state.players[0].graveyard == ("5C.0", "2C.0")
    assert play.state.active == 1 and GAME.outcome(play.state) is None


def test_the_game_ends_when_one_fortress_remains() -> None:
    """ "The game ends when all but one of the players' Fortresses have been depleted"."""
    play = given([["2C.0"], ["9C.1", "3C.1"]])
    act(play, {"type": "draw"})
    assert GAME.to_act(play.state) == frozenset()
    assert GAME.outcome(play.state) == {
        "winners": [1],
        "scores": [0, 2],
        "reason": "Only seat 1's Fortress still stands.",
    }
    assert "over" in refused_over(play)


def refused_over(play: Scene) -> str:
    with pytest.raises(IllegalAction) as error:
        GAME.decide(play.state, 1, {"type": "draw"}, random.Random(0))
    assert error.value.code == "game_over"
    return error.value.reason
