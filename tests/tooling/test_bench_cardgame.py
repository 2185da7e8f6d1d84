"""The boardgame.io peer benchmark's own kind (bench/cardgame.py) keeps the game contract:
random games end through ``games.play``, a seat's view hides the other hand, and an
illegal move is refused. No Node is needed here."""

from __future__ import annotations

import random

import pytest

from bench.cardgame import DECK, GAME, HAND
from games.base import IllegalAction
from games.play import new_game, random_game, step
from tests.games.contract import check_contract


def test_random_games_keep_the_contract() -> None:
    lengths = check_contract(GAME, players=[2], games=20)
    assert all(0 < n <= 100 for n in lengths)


def test_random_games_end_by_the_move_limit_or_an_empty_deck() -> None:
    for index in range(50):
        play = random_game(GAME, 2, random.Random(index), options={"moves": 30})
        result = GAME.outcome(play.state)
        assert result is not None
        assert play.state.moves == 30 or not play.state.deck
        held = sorted(card for hand in play.state.hands for card in hand)
        assert sorted(held + list(play.state.deck) + list(play.state.pile)) == sorted(DECK)


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_other() -> None:
    play = new_game(GAME, 2, None, random.Random(1))
    for seat in (0, 1):
        hands = GAME.view(play.state, seat)["hands"]
        assert hands[seat] == list(play.state.hands[seat])
        assert hands[1 - seat] == HAND
    assert GAME.view(play.state, None)["hands"] == [HAND, HAND]
    dealt = GAME.redact(play.events[0], 1)
    assert dealt.data["mine"] == list(play.state.hands[1])
    assert "deck" not in dealt.data


def test_the_other_seat_does_not_see_a_drawn_card() -> None:
    play = new_game(GAME, 2, None, random.Random(2))
    seat = min(GAME.to_act(play.state))
    (drawn,) = step(GAME, play, seat, {"type": "draw"}, random.Random(0))
    assert GAME.redact(drawn, seat).data["card"] == play.state.hands[seat][-1]
    assert "card" not in GAME.redact(drawn, 1 - seat).data
    assert "card" not in GAME.redact(drawn, None).data


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "card": "XX"},
        {"type": "play"},
        {"type": "discard"},
        {"type": "draw", "card": "AS"},
    ],
)
def test_illegal_moves_are_refused(action: dict[str, object]) -> None:
    play = new_game(GAME, 2, None, random.Random(3))
    with pytest.raises(IllegalAction) as refused:
        GAME.decide(play.state, 0, action, random.Random(0))
    assert refused.value.code == "illegal_action"


def test_a_card_that_does_not_match_the_top_or_is_not_held_is_refused() -> None:
    play = new_game(GAME, 2, None, random.Random(4))
    top = play.state.pile[-1]
    unmatched = [c for c in play.state.hands[0] if c[0] != top[0] and c[1] != top[1]]
    others = [c for c in play.state.hands[1]]
    for card in unmatched + others:
        with pytest.raises(IllegalAction):
            GAME.decide(play.state, 0, {"type": "play", "card": card}, random.Random(0))


def test_only_the_seat_to_move_may_move() -> None:
    play = new_game(GAME, 2, None, random.Random(5))
    with pytest.raises(IllegalAction) as refused:
        GAME.decide(play.state, 1, {"type": "draw"}, random.Random(0))
    assert refused.value.code == "not_your_turn"
