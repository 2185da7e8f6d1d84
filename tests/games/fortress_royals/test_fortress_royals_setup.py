"""Scenarios of Setup and the Fortifying Phase (rulebook v2.0)."""

from __future__ import annotations

import random

import pytest

from games.base import IllegalAction
from games.fortress_royals import GAME
from games.fortress_royals.state import ARRANGE, ATTACK, FORTIFY, REARRANGE
from games.play import fold, new_game, step
from tests.games.fortress_royals.tables import (
    act,
    complete,
    decide,
    fortified,
    full_deck,
    layout,
    now,
    only,
    types,
)


def opening(players: int, deck: list[str]) -> list:
    return GAME.setup(GAME.validate_options({"deck": deck}, players), players, random.Random(0))


def test_the_highest_draw_decides_and_the_ace_is_lowest() -> None:
    """Setup: "He who draws the highest card (Ace being the lowest) decides who goes first."
    Given seat 0 draws an Ace and seat 1 a Two, then seat 1 decides."""
    events = opening(2, full_deck(["AS", "2C"]))
    assert types(events) == ["GameStarted", "FirstCardsDrawn"]
    assert events[1].data == {"cards": ["AS", "2C"], "high": [1]}
    state = fold(GAME, events)
    assert GAME.to_act(state) == {1}
    assert GAME.legal_actions(state, 1) == [{"type": "choose_first", "seat": s} for s in (0, 1)]
    assert GAME.legal_actions(state, 0) == []


def test_a_king_is_the_highest_draw() -> None:
    """Setup: "He who draws the highest card (Ace being the lowest) decides": the King tops the Queen."""
    events = opening(3, full_deck(["QH", "KD", "10S"]))
    assert events[1].data == {"cards": ["QH", "KD", "10S"], "high": [1]}


def test_tied_high_draws_are_redrawn_by_the_tied_players() -> None:
    """Setup: "Draw cards from the deck. He who draws the highest card (Ace being the lowest)
    decides who goes first." (RULINGS: ties for the highest card redraw, the tied players only.)
    Given seats 0 and 1 both draw a Nine and seat 2 a Four, when only the tied seats draw
    again (5D, 3H), then seat 0 decides."""
    events = opening(3, full_deck(["9S", "9H", "4C", "5D", "3H"]))
    assert [e.data for e in events[1:]] == [
        {"cards": ["9S", "9H", "4C"], "high": [0, 1]},
        {"cards": ["5D", "3H", None], "high": [0]},
    ]
    assert GAME.to_act(fold(GAME, events)) == {0}


def test_the_high_card_names_the_first_player_who_is_dealt_to_first() -> None:
    """Setup: "He who draws the highest card ... decides who goes first"; Fortifying Phase:
    "Shuffle the cards to begin ... Each player is dealt two cards". Given seat 1 drew high,
    when it names seat 2, then the deck is shuffled and two cards dealt to each from seat 2."""
    deck = full_deck(["2C", "KD", "3C"])
    play = new_game(GAME, 3, {"deck": deck}, random.Random(0))
    events = step(GAME, play, 1, {"type": "choose_first", "seat": 2}, random.Random(0))
    assert types(events) == ["FirstPlayerChosen", "RoundStarted", "DeckShuffled"] + ["CardsDealt"] * 3
    assert events[0].data == {"by": 1, "seat": 2}
    assert events[1].data == {"round": 1, "direction": 1, "even": False}
    assert [(e.data["seat"], e.data["cards"]) for e in events[3:]] == [
        (2, [deck[0], deck[3]]),
        (0, [deck[1], deck[4]]),
        (1, [deck[2], deck[5]]),
    ]
    assert now(play).phase == ARRANGE and GAME.to_act(now(play)) == {0, 1, 2}


def test_only_the_high_card_may_name_the_first_player() -> None:
    """Setup: "He who draws the highest card ... decides who goes first"; nobody else may."""
    play = new_game(GAME, 2, {"deck": full_deck(["2C", "KD"])}, random.Random(0))
    with pytest.raises(IllegalAction) as refused:
        GAME.decide(now(play), 0, {"type": "choose_first", "seat": 0}, random.Random(0))
    assert refused.value.code == "not_your_turn"


def test_dealt_cards_are_secret() -> None:
    """Fortifying Phase: "Each player is dealt two cards (cards should be kept secret)."
    The deal names the cards to their owner only; the shuffle names them to nobody."""
    play = new_game(GAME, 2, {"deck": full_deck(["2C", "KD", "5H", "6H"])}, random.Random(0))
    events = step(GAME, play, 1, {"type": "choose_first", "seat": 0}, random.Random(0))
    dealt_to_0 = events[3]
    assert dealt_to_0.data == {"seat": 0, "cards": ["2C", "5H"]}
    assert GAME.redact(dealt_to_0, 0) == dealt_to_0
    assert GAME.redact(dealt_to_0, 1).data == {"seat": 0, "count": 2}
    assert GAME.redact(dealt_to_0, None).data == {"seat": 0, "count": 2}
    assert GAME.redact(events[2], 0).data == {"count": 52}
    assert GAME.view(now(play), 1)["hands"][0]["cards"] == [None, None]
    assert GAME.view(now(play), 0)["hands"][0]["cards"] == ["2C", "5H"]


def test_the_dealt_pair_may_be_swapped_before_the_first_draw() -> None:
    """Fortifying Phase: "Each player is dealt two cards (cards should be kept secret). Next,
    the first player draws a card." The dealt pair is held as its owner likes (RULINGS:
    keep_dealt / swap_dealt, before the first draw). Given seat 0 holds 2C 5H, when it swaps,
    then 5H 2C, and once both have arranged, the first player draws."""
    play = new_game(GAME, 2, {"deck": full_deck(["2C", "KD", "5H", "6H"])}, random.Random(0))
    act(play, 1, {"type": "choose_first", "seat": 0})
    act(play, 0, {"type": "swap_dealt"})
    assert now(play).hands[0] == ("5H", "2C")
    events = act(play, 1, {"type": "keep_dealt"})
    assert types(events) == ["DealtCardsArranged", "CardDrawn"]
    assert events[1].data == {"seat": 0, "card": now(play).pending}
    assert now(play).phase == FORTIFY and GAME.to_act(now(play)) == {0}


def test_a_drawn_card_goes_to_the_left_or_right_end() -> None:
    """Fortifying Phase: "He may either place the card left of the left-most card or right of
    the right-most card in his hand." Given seat 0 holds 2C KD and draws 3C (left) then 4C (right)."""
    play = new_game(GAME, 2, {"deck": full_deck(["2C", "KD", "5H", "6H", "3C", "7H", "4C"])}, random.Random(0))
    act(play, 1, {"type": "choose_first", "seat": 0})
    act(play, 0, {"type": "keep_dealt"})
    act(play, 1, {"type": "keep_dealt"})
    assert now(play).pending == "3C"
    assert GAME.legal_actions(now(play), 0) == [
        {"type": "place", "end": "left"},
        {"type": "place", "end": "right"},
    ]
    act(play, 0, {"type": "place", "end": "left"})
    assert now(play).hands[0] == ("3C", "2C", "5H")
    act(play, 1, {"type": "place", "end": "right"})
    assert now(play).hands[1] == ("KD", "6H", "7H")
    act(play, 0, {"type": "place", "end": "right"})
    assert now(play).hands[0] == ("3C", "2C", "5H", "4C")
    with pytest.raises(IllegalAction):
        decide(play, 1, {"type": "place", "end": "middle"})


def test_draws_go_round_in_turn_until_every_hand_has_ten() -> None:
    """Fortifying Phase: "The play continues clockwise, as the next player draws a card.
    Continue to draw cards until each player has 10 cards." Then each may move one card."""
    hands = complete([], [], [])
    play = new_game(GAME, 3, {"deck": full_deck(layout(hands, first=1))}, random.Random(0))
    act(play, now(play).chooser, {"type": "choose_first", "seat": 1})
    drawers = []
    for seat in range(3):
        events = act(play, seat, {"type": "keep_dealt"})
    while now(play).phase == FORTIFY:
        drawers.append(now(play).turn)
        events = act(play, now(play).turn, {"type": "place", "end": "right"})
    assert drawers == [1, 2, 0] * 8
    assert types(events) == ["CardPlaced", "DrawsCompleted"]
    assert [list(hand) for hand in now(play).hands] == hands
    assert now(play).phase == REARRANGE and GAME.to_act(now(play)) == {0, 1, 2}


def test_after_the_tenth_card_one_card_may_move_anywhere() -> None:
    """Fortifying Phase: "After the 10th card is drawn, the players may move one card to any
    position in his hand." Given seat 0 holds h0..h9, when it moves position 0 to 5, then the
    card sits at index 5; a second move is refused."""
    hands = complete(["QH"], ["2D"])
    play = new_game(GAME, 2, {"deck": full_deck(layout(hands, first=0))}, random.Random(0))
    act(play, now(play).chooser, {"type": "choose_first", "seat": 0})
    act(play, 0, {"type": "keep_dealt"})
    act(play, 1, {"type": "keep_dealt"})
    with pytest.raises(IllegalAction):
        decide(play, 0, {"type": "move", "from": 0, "to": 5})
    while now(play).phase == FORTIFY:
        act(play, now(play).turn, {"type": "place", "end": "right"})
    legal = GAME.legal_actions(now(play), 0)
    assert {"type": "keep"} in legal and len(legal) == 1 + 10 * 9
    act(play, 0, {"type": "move", "from": 0, "to": 5})
    expected = hands[0][1:6] + ["QH"] + hands[0][6:]
    assert list(now(play).hands[0]) == expected
    with pytest.raises(IllegalAction) as again:
        decide(play, 0, {"type": "move", "from": 1, "to": 2})
    assert again.value.code == "not_your_turn"
    events = act(play, 1, {"type": "keep"})
    assert only(events, "HandFinalized").data == {"seat": 1, "move": None}
    assert now(play).phase == ATTACK and now(play).turn == 0


def test_the_starting_player_attacks_first() -> None:
    """Attacking Phase: "a player attacks ... the person on his left, with the starting player
    beginning the attacking phase." Given seat 2 starts a 3-player round, seat 2 attacks seat 0."""
    play = fortified(complete([], [], []), first=2)
    assert GAME.to_act(now(play)) == {2}
    assert GAME.view(now(play), None)["attack_target"] == 0
    card = now(play).hands[2][0]
    events = act(play, 2, {"type": "attack", "cards": [card], "side": "left"})
    assert only(events, "AttackResolved").data["target"] == 0
    assert now(play).turn == 0
