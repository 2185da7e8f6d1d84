"""The card faces of fortress-siege (``GET /v1/kinds/fortress-siege/cards``): one for every
card id a game can deal, each reading the card data of ``cards.json``; and the view once a
game is over (every hand shown)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from core.config import MOST_SEATS
from games.cards import standard_deck
from games.fortress_siege import GAME
from games.fortress_siege.cards import FACTS, MIN_PLAYERS
from games.fortress_siege.faces import face_key
from games.fortress_siege.rules import all_cards
from games.play import random_game

DATA = json.loads(resources.files("games.fortress_siege").joinpath("cards.json").read_text(encoding="utf-8"))
FACES = GAME.card_faces()
SUITS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}


def card_ids(value: Any) -> Iterator[str]:
    """Every string in a JSON value that is a Fortress card id."""
    if isinstance(value, str):
        if value in FACTS:
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from card_ids(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_ids(item)


@pytest.mark.parametrize("winds_of_fate", [False, True])
def test_every_card_a_game_can_deal_has_a_face(winds_of_fate: bool) -> None:
    for players in range(MIN_PLAYERS, MOST_SEATS + 1):  # the largest table the service can be set to
        for card in all_cards(players, winds_of_fate):
            assert face_key(card) in FACES, card
    assert set(FACES) == set(standard_deck(jokers=True))


def test_every_card_seen_in_play_has_a_face() -> None:
    seen: set[str] = set()
    for players, options in ((2, {}), (3, {"winds_of_fate": True})):
        play = random_game(GAME, players, random.Random(players), options=options)
        for event in play.events:
            seen.update(card_ids(event.data))
        for seat in range(players):
            seen.update(card_ids(GAME.view(play.state, seat)))
    assert len(seen) > 54, "a game of several decks shows cards of each"
    assert {face_key(card) for card in seen} <= set(FACES)


def test_face_key_drops_only_the_deck_number() -> None:
    assert face_key("10S.3") == "10S"
    assert face_key("JK2.0") == "JK2"
    assert face_key("QH") == "QH"


@pytest.mark.parametrize("code", standard_deck(jokers=True))
def test_each_face_reads_the_card_data(code: str) -> None:
    rank = "JK" if code.startswith("JK") else code[:-1]
    spec = DATA["ranks"][rank]
    face = FACES[code]
    stats = {stat["label"]: stat["value"] for stat in face["stats"]}
    if spec["kind"] == "number":
        assert face["type"] == "Number"
        assert stats == {"value": spec["value"]}
        assert f"worth {spec['value']}" in face["text"]
        for shield in DATA["shields"].values():
            assert shield["name"] in face["text"]
        assert f"strikes back {spec['value']}" in face["text"], "a Bladed Shield counterattacks"
    elif spec["kind"] == "character":
        assert face["type"] == "Character"
        assert face["name"] == f"{spec['name']} of {SUITS[code[-1]]}"
        words = {"character": "characters", "fortress": "Fortresses"}
        assert set(stats["attacks"].split(" and ")) == {words[target] for target in spec["attacks"]}
        assert set(stats["blocks"].split(" and ")) == {words[target] for target in spec["guards"]}
    elif spec["kind"] == "angel":
        angel = spec["red"] if code[-1] in "HD" else spec["black"]
        assert face["type"] == f"Angel of {angel.capitalize()}"
        assert stats == {}
        assert "cannot be blocked" in face["text"]
    else:
        assert spec["kind"] == "barrage"
        assert face["type"] == "Barrage"
        assert stats == {"Fortress cards": spec["fortress_cards"]}
        assert f"top {spec['fortress_cards']} cards" in face["text"]
    if spec["kind"] != "barrage":
        assert face["colour"] == ("red" if code[-1] in "HD" else "black")
        assert face["name"].endswith(SUITS[code[-1]])
    assert face["text"] and len(face["text"]) < 200, "one short sentence"


def test_faces_by_name() -> None:
    assert FACES["QH"]["name"] == "Queen of Hearts"
    assert FACES["10S"]["stats"] == [{"label": "value", "value": 10}]
    assert FACES["AS"]["type"] == "Angel of Death"
    assert FACES["AD"]["type"] == "Angel of Life"
    assert FACES["JK1"]["name"] == "Joker"


def test_the_final_view_shows_every_hand() -> None:
    play = random_game(GAME, 3, random.Random(5))
    assert GAME.is_over(play.state)
    for seat in (None, 0, 1, 2):
        shown = GAME.final_view(play.state, seat)
        for index, part in enumerate(shown["players"]):
            assert part["hand"] == list(play.state.players[index].hand)
    during = GAME.view(play.state, 0)
    assert "hand" not in during["players"][1], "before the end only your own hand"
