"""The card faces of fortress-royals (``GET /v1/kinds/fortress-royals/cards``) and the
view once a game is over (every hand shown)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from games.fortress_royals import GAME
from games.fortress_royals.cards import DECK
from games.fortress_royals.state import ATTACK, FORTIFY
from games.play import random_game
from tests.games.fortress_royals.tables import act, complete, fortified, now

DATA = json.loads(resources.files("games.fortress_royals").joinpath("cards.json").read_text(encoding="utf-8"))
BY_RANK = {entry["rank"]: entry for entry in DATA["ranks"]}
FACES = GAME.card_faces()


def card_strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value that looks like a card id of the deck's shape."""
    if isinstance(value, str):
        if len(value) in (2, 3) and value[-1] in DATA["deck"]["suits"] and value[:-1] in BY_RANK:
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_strings(item)


def test_every_card_seen_in_games_of_every_size_has_a_face() -> None:
    seen: set[str] = set()
    for players in (2, 3, 4, 5):
        for seed in range(3):
            play = random_game(GAME, players, random.Random(seed), options={"rounds": 2})
            for event in play.events:
                seen.update(card_strings(event.data))
            for seat in range(players):
                seen.update(card_strings(GAME.view(play.state, seat)))
                seen.update(card_strings(GAME.legal_actions(play.state, seat)))
    assert len(seen) == 52, "random games deal the whole deck"
    assert seen <= set(FACES)
    assert set(FACES) == set(DECK)


@pytest.mark.parametrize("card", DECK)
def test_each_face_reads_the_card_data(card: str) -> None:
    rank, suit = card[:-1], card[-1]
    entry = BY_RANK[rank]
    face = FACES[card]
    stats = {stat["label"]: stat["value"] for stat in face["stats"]}
    assert stats["strength"] == entry["strength"]
    if entry["royal"]:
        assert face["type"] == "Royal"
        assert stats["kept"] == entry["protected_points"]
        assert stats["captured"] == entry["captured_points"]
        assert f"Scores {entry['protected_points']} point" in face["text"]
    else:
        assert set(stats) == {"strength"}, "a number card scores nothing"
        assert face["type"] == ("Ace" if entry["ace"] else "Number card")
    assert f"strength {entry['strength']}" in face["text"]
    assert face["colour"] == ("red" if suit in "HD" else "black")
    assert face["name"].endswith({"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}[suit])
    if entry["ace"]:
        assert "discard" in face["text"]


def test_faces_name_the_ranks() -> None:
    assert FACES["QH"]["name"] == "Queen of Hearts"
    assert FACES["10S"]["name"] == "10 of Spades"
    assert FACES["AC"]["name"] == "Ace of Clubs"
    assert FACES["KD"]["stats"] == [
        {"label": "strength", "value": 0},
        {"label": "kept", "value": 1},
        {"label": "captured", "value": 2},
    ]


def test_the_final_view_shows_every_hand_and_the_drawn_card_of_a_game_stopped_mid_round() -> None:
    """A game resigned in the middle of a round: nothing is secret any more."""
    hands = complete(["AC"], ["2D"])
    play = fortified(hands, rounds=1)
    act(play, 0, {"type": "discard_ace", "card": "AC"})
    state = now(play)
    assert state.phase == ATTACK and state.pending is not None
    assert GAME.view(state, 1)["hands"][0]["cards"] == [None] * 9, "hidden while in play"
    for seat in (0, 1, None):
        shown = GAME.final_view(state, seat)
        assert [hand["cards"] for hand in shown["hands"]] == [list(hand) for hand in state.hands]
        assert shown["drawn"] == {"seat": 0, "card": state.pending}


def test_the_final_view_of_a_finished_game_shows_every_hand() -> None:
    play = random_game(GAME, 3, random.Random(5), options={"rounds": 1})
    state = now(play)
    assert GAME.outcome(state) is not None
    for seat in (0, 1, 2, None):
        shown = GAME.final_view(state, seat)
        assert [hand["cards"] for hand in shown["hands"]] == [list(hand) for hand in state.hands]
        assert None not in [card for hand in shown["hands"] for card in hand["cards"]]


def test_the_final_view_during_the_fortifying_phase_shows_every_hand() -> None:
    play = random_game(GAME, 2, random.Random(2), options={"rounds": 1}, max_actions=6)
    state = now(play)
    assert state.phase == FORTIFY
    shown = GAME.final_view(state, None)
    assert [hand["cards"] for hand in shown["hands"]] == [list(hand) for hand in state.hands]
    assert shown["drawn"]["card"] == state.pending
