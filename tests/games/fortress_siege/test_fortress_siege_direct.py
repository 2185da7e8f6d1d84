"""Direct actions (Barrage, Angels of Life and Death), players going out, Winds of Fate Aces."""

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


def refused(play: Scene, action: dict[str, Any]) -> str:
    (seat,) = GAME.to_act(play.state)
    before = len(play.events)
    with pytest.raises(IllegalAction) as error:
        GAME.decide(play.state, seat, action, random.Random(0))
    assert action not in GAME.legal_actions(play.state, seat)
    assert len(play.events) == before
    return error.value.reason


def barrage(card: str, seat: int) -> dict[str, Any]:
    return {"type": "barrage", "card": card, "fortress": seat}


def life(card: str, target: str) -> dict[str, Any]:
    return {"type": "angel_of_life", "card": card, "character": target}


def death(card: str, target: str) -> dict[str, Any]:
    return {"type": "angel_of_death", "card": card, "character": target}


def test_a_barrage_discards_the_top_five_cards_of_a_fortress_and_cannot_be_blocked() -> None:
    """ "Joker ("Barrage"): Discard top five cards of any fortress" / "Direct actions are
    unblockable by Characters or Shields"."""
    play = start(["JK2"], [])
    act(play, {"type": "draw"})
    fortress = play.state.players[1].fortress
    events = act(play, barrage("JK2.0", 1))
    assert types(events) == ["BarrageFired"]
    assert events[0].data["cards"] == list(fortress[:5])
    assert play.state.players[1].fortress == fortress[5:]
    assert play.state.players[1].graveyard == fortress[:5]
    assert play.state.players[0].graveyard == ("JK2.0",)
    assert play.state.attack is None and GAME.to_act(play.state) == {0}


def test_a_barrage_may_hit_any_fortress_the_players_own_included() -> None:
    """ "Discard top five cards of any fortress"."""
    play = start(["JK2"], [])
    act(play, {"type": "draw"})
    barrages = [a for a in GAME.legal_actions(play.state, 0) if a["type"] == "barrage"]
    assert barrages == [barrage("JK2.0", 0), barrage("JK2.0", 1)]
    act(play, barrage("JK2.0", 0))
    assert len(play.state.players[0].fortress) == 54 - 1 - 5


def test_a_barrage_on_a_small_fortress_takes_the_tombstone_and_the_player_is_out() -> None:
    """ "If the last card of a player's fortress (Tombstone) is discarded, that player is
    out of the game" / "The game ends when all but one of the players' Fortresses have been
    depleted"."""
    play = given([["JK2.0", "3C.0", "JK1.0"], ["9C.1", "8C.1", "2C.1"], ["7C.2", "6C.2", "5C.2", "4C.2"]])
    act(play, {"type": "draw"})
    events = act(play, barrage("JK2.0", 1))
    assert types(events) == ["BarrageFired", "PlayerDefeated"]
    assert not play.state.players[1].in_game
    assert GAME.outcome(play.state) is None
    assert [a for a in GAME.legal_actions(play.state, 0) if a["type"] == "barrage"] == []
    act(play, {"type": "draw"})
    assert play.state.active == 2, "play skips the seat that is out"


def test_a_player_who_is_out_leaves_nothing_to_target() -> None:
    """ "A player is out of the game when their Fortress is depleted" (their hand and
    battlefield go to their Graveyard, and nothing of theirs can be revived: RULINGS.md)."""
    play = given(
        [
            ["JK2.0", "AH.0", "KH.0", "9H.0", "JK1.0"],
            ["QD.1", "8D.1", "4C.1", "5C.1", "2C.1"],
            ["7C.2", "6C.2", "5C.2", "4C.2", "3C.2", "10C.2"],
        ]
    )
    script(play, *draws(3), *draws(2), deploy("QD.1"))
    idle(play)
    script(play, deploy("KH.0"), {"type": "draw"}, armor("9H.0", "KH.0"))
    script(play, armor("8D.1", "QD.1"), *draws(2))
    idle(play)
    assert play.state.players[1].fortress == ("2C.1",)
    assert play.state.players[0].hand == ("JK2.0", "AH.0")
    events = act(play, barrage("JK2.0", 1))
    assert types(events) == ["BarrageFired", "PlayerDefeated"]
    assert events[-1].data["cards"] == ["4C.1", "5C.1", "QD.1", "8D.1"]
    assert play.state.players[1].battlefield == () and play.state.players[1].hand == ()
    assert sorted(play.state.players[1].graveyard) == sorted(["QD.1", "8D.1", "4C.1", "5C.1", "2C.1"])
    assert [a for a in GAME.legal_actions(play.state, 0) if a["type"] == "angel_of_life"] == []
    assert "still in the game" in refused(play, life("AH.0", "QD.1"))


def test_the_angel_of_life_brings_a_character_back_to_its_battlefield_bare() -> None:
    """ "Red Ace ("Angel of Life"): Return any character card from the graveyard directly to
    that characters playing field"."""
    play = start(["JH", "9H", "AH"], [])
    script(play, *draws(3))
    idle(play)
    script(play, deploy("JH.0"), armor("9H.0", "JH.0"), {"type": "discard_character", "character": "JH.0"})
    idle(play)
    assert play.state.players[0].graveyard == ("JH.0", "9H.0")
    events = act(play, life("AH.0", "JH.0"))
    assert types(events) == ["AngelOfLifePlayed"]
    jack = character(play.state, 0, "JH.0")
    assert jack is not None and jack.armor is None and jack.weapon is None
    assert play.state.players[0].graveyard == ("9H.0", "AH.0")


def test_the_angel_of_life_returns_an_opponents_character_to_the_opponents_battlefield() -> None:
    """ "Return any character card from the graveyard directly to that characters playing
    field"."""
    play = start(["AD"], ["KC"])
    script(play, *draws(3))
    script(play, {"type": "draw"}, discard("KC.1"), {"type": "draw"})
    assert life("AD.0", "KC.1") in GAME.legal_actions(play.state, 0)
    act(play, life("AD.0", "KC.1"))
    assert character(play.state, 1, "KC.1") is not None
    assert play.state.players[0].battlefield == ()


def test_the_angel_of_life_cannot_bring_back_a_barrage_or_an_angel() -> None:
    """ "Angel of Life cannot be used to retrieve Barrage or Angels from a graveyard"."""
    play = start(["JK2", "AC", "AH", "QH"], [])
    script(play, *draws(3))
    idle(play)
    script(play, discard("JK2.0"), discard("AC.0"), {"type": "draw"})
    idle(play)
    script(play, deploy("QH.0"), {"type": "discard_character", "character": "QH.0"})
    lives = [a for a in GAME.legal_actions(play.state, 0) if a["type"] == "angel_of_life"]
    assert lives == [life("AH.0", "QH.0")]
    assert "not a character card" in refused(play, life("AH.0", "JK2.0"))
    assert "not a character card" in refused(play, life("AH.0", "AC.0"))


def test_an_ace_is_an_angel_by_its_colour_in_the_standard_game() -> None:
    """ "Red Ace ("Angel of Life")" / "Black Ace ("Angel of Death")"."""
    play = start(["AS", "AH", "JD"], [])
    script(play, *draws(3))
    idle(play)
    act(play, deploy("JD.0"))
    assert death("AS.0", "JD.0") in GAME.legal_actions(play.state, 0)
    assert "black Ace" in refused(play, death("AH.0", "JD.0"))
    act(play, {"type": "discard_character", "character": "JD.0"})
    assert life("AH.0", "JD.0") in GAME.legal_actions(play.state, 0)
    assert "red Ace" in refused(play, life("AS.0", "JD.0"))


def test_the_angel_of_death_sends_any_character_to_its_graveyard_unblockably() -> None:
    """ "Black Ace ("Angel of Death"): Send any character (regardless of armor) directly to
    that character's graveyard" / "Direct attacks (using a Barrage or Angel of Death)
    cannot be blocked"."""
    play = start(["AC", "AH"], ["KD", "9D", "6D"])
    script(play, *draws(3))
    script(play, *draws(3))
    idle(play)
    script(play, deploy("KD.1"), armor("9D.1", "KD.1"), equip("6D.1", "KD.1"))
    assert "black Ace" in refused(play, death("AH.0", "KD.1"))
    events = act(play, death("AC.0", "KD.1"))
    assert types(events) == ["AngelOfDeathPlayed", "CharacterSlain"]
    assert play.state.attack is None and GAME.to_act(play.state) == {0}
    assert play.state.players[1].battlefield == ()
    assert play.state.players[1].graveyard == ("KD.1", "9D.1", "6D.1")
    assert play.state.players[0].graveyard[-1] == "AC.0"


def test_the_angel_of_death_needs_no_armor_on_its_target() -> None:
    """ "Send any character (regardless of armor)" / "A character cannot be attacked unless
    they are armored (except by an Angel of Death)"."""
    play = start(["AC"], ["JD"])
    script(play, *draws(3))
    script(play, {"type": "draw"}, deploy("JD.1"), {"type": "draw"})
    assert death("AC.0", "JD.1") in GAME.legal_actions(play.state, 0)


def test_winds_of_fate_aces_of_either_colour_are_either_angel() -> None:
    """Winds of Fate: "Aces of either color may be played as Angels of Life or Angels of
    Death (the attacking player's choice)"."""
    play = given(
        [
            ["AS.0", "AH.0", "JD.0", "QC.0", "9C.0", "JK1.0"],
            ["KD.0", "8C.0", "4C.0", "5C.0", "6C.0", "7C.0", "2C.0"],
        ],
        winds_of_fate=True,
    )
    script(play, *draws(3))
    script(play, {"type": "draw"}, deploy("KD.0"), {"type": "draw"})
    script(play, deploy("JD.0"), {"type": "discard_character", "character": "JD.0"})
    assert life("AS.0", "JD.0") in GAME.legal_actions(play.state, 0)
    assert death("AH.0", "KD.0") in GAME.legal_actions(play.state, 0)
    act(play, life("AS.0", "JD.0"))
    idle(play)
    act(play, death("AH.0", "KD.0"))
    assert play.state.players[1].graveyard == ("KD.0",)
