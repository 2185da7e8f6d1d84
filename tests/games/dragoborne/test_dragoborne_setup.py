"""Setup, options and deck building (rulebook: 'Before the Game')."""

from __future__ import annotations

import random

import pytest

from games.base import InvalidOptions
from games.dragoborne import GAME
from games.dragoborne.cards import CARDS, DECKS, deck_keys
from games.play import fold, new_game
from tests.games.dragoborne.scenario import Scenario, named, types


def test_first_player_is_random() -> None:
    """'Randomly decide which player will go first.'"""
    firsts = {new_game(GAME, 2, None, random.Random(seed)).state.first for seed in range(20)}
    assert firsts == {0, 1}


def test_each_player_draws_five() -> None:
    """'Shuffle the decks and draw 5 cards from the deck.' Both players, whoever goes first."""
    for first in (0, 1):
        play = new_game(GAME, 2, {"first_player": first}, random.Random(1))
        assert [len(side.hand) for side in play.state.sides] == [5, 5]
        assert GAME.to_act(play.state) == frozenset({0, 1})


def test_variant_second_player_extra_card_deals_six_to_the_second_player() -> None:
    """Variant, not in the rulebook (option 'second_player_extra_card', off by default): the player
    going second opens with six cards."""
    assert GAME.validate_options(None, 2)["second_player_extra_card"] is False
    play = new_game(GAME, 2, {"first_player": 1, "second_player_extra_card": True}, random.Random(1))
    assert len(play.state.sides[1].hand) == 5
    assert len(play.state.sides[0].hand) == 6
    game = Scenario(first=0, extra_card=True, mulligan=False)
    assert [len(side.hand) for side in game.state.sides] == [5, 6]


def test_mulligan_returns_shuffles_and_redraws_as_many_once() -> None:
    """'Each player is allowed one mulligan during the setup, picking any number of unwanted cards in
    their hand and returning them to the deck. After returning chosen cards, shuffle the deck and draw
    cards equal to the amount of cards returned to the deck.'"""
    game = Scenario(first=0, seat0={"hand": ["emberhound", "scorchling"]}, mulligan=False)
    returned = ["0-emberhound-1", "0-scorchling-1"]
    events = game.act(0, {"type": "mulligan", "cards": returned})
    (event,) = named(events, "HandMulliganed")
    side = game.state.sides[0]
    assert len(side.hand) == 5 and len(event.data["drawn"]) == 2
    assert sorted(event.data["deck"]) == sorted([*game.play.events[0].data["decks"][0][5:], *returned])
    assert game.legal(0) == [] and GAME.irreversible(event)
    assert {a["type"] for a in game.legal(1)} == {"mulligan"}


def test_barriers_come_from_the_top_of_the_deck_after_the_mulligans() -> None:
    """'Place 2 cards from the top of the deck face down onto each fort without looking at them.'"""
    game = Scenario(first=0, seat0={"barriers": ["scorchling", "flare-volley"]}, mulligan=False)
    game.act(0, {"type": "mulligan", "cards": []})
    assert all(not pile for pile in game.state.sides[0].forts)
    events = game.act(1, {"type": "mulligan", "cards": []})
    assert types(events)[:3] == ["HandMulliganed", "BarriersPlaced", "BarriersPlaced"]
    assert game.state.sides[0].forts[0] == ("0-scorchling-1", "0-flare-volley-1")
    assert [len(p) for p in game.state.sides[1].forts] == [2, 2, 2]
    mine = GAME.redact(named(events, "BarriersPlaced")[0], 0)
    assert mine.data["forts"] == [2, 2, 2]


def test_banners_are_face_up_behind_the_forts() -> None:
    """'Turn the banner cards face up and begin the game.' Each banner matches a die."""
    game = Scenario(first=0)
    view = GAME.view(game.state, 1)
    forts = view["players"][0]["forts"]
    assert [f["colour"] for f in forts] == ["red", "red", "yellow"]
    assert [d["colour"] for d in view["players"][0]["dice"]] == ["red", "red", "yellow"]
    assert forts[0]["banner"] == "0-ember-standard-1"


def test_prebuilt_decks_are_legal() -> None:
    """'A deck consisting of 50 or more cards ... A maximum of four cards of the same name' and
    '3 Banners, each banner matching the color of a dice'."""
    for key, deck in DECKS.items():
        assert GAME.validate_options({"decks": [key, key]}, 2)["decks"] == [key, key]
        assert len(deck_keys(deck)) >= 50 and max(deck["cards"].values()) <= 4
        assert sorted(CARDS[b].colour for b in deck["banners"]) == sorted(deck["dice"])


def test_every_deck_problem_is_reported_at_once() -> None:
    """Custom decks are checked against every deck-building rule, each failure its own sentence."""
    bad = {
        "cards": {"emberhound": 5, "no-such-card": 1, "ember-standard": 1},
        "banners": ["ember-standard", "dawn-standard", "emberhound"],
        "dice": ["red", "blue", "purple"],
    }
    with pytest.raises(InvalidOptions) as caught:
        GAME.validate_options({"decks": ["emberguard", bad]}, 2)
    problems = caught.value.problems
    text = " ".join(problems)
    assert "5 copies of 'emberhound'" in text
    assert "'no-such-card', which is not a card" in text
    assert "banner 'ember-standard' among its cards" in text
    assert "a deck needs 50 or more" in text
    assert "'emberhound' as a banner" in text
    assert "unknown colour" in text
    assert all(p.startswith("The deck of seat 1") for p in problems)
    assert len(problems) == 6


def test_banners_must_match_the_dice() -> None:
    """'if you have 2 Yellow dice and 1 Red die, you must play 2 Yellow Banners and 1 Red Banner'"""
    deck = dict(DECKS["emberguard"])
    custom = {"cards": deck["cards"], "banners": deck["banners"], "dice": ["yellow", "yellow", "red"]}
    with pytest.raises(InvalidOptions) as caught:
        GAME.validate_options({"decks": [custom, "tidecrypt"]}, 2)
    assert caught.value.problems == [
        "The deck of seat 0 has banners of colours red, red, yellow but dice of colours red, yellow, yellow; "
        "each banner must match the colour of a die."
    ]
    good = {"cards": deck["cards"], "banners": deck["banners"], "dice": ["yellow", "red", "red"]}
    assert GAME.validate_options({"decks": [good, "tidecrypt"]}, 2)


def test_a_custom_deck_plays() -> None:
    """A valid custom list is dealt like a pre-built deck: 50 or more cards, shuffled."""
    cards = {key: 4 for key in ["emberhound", "cinder-lancer", "scorchling", "flare-volley"]}
    cards.update({key: 4 for key in ["gravemoth", "shade-stalker", "grasp-of-dusk", "soul-rend"]})
    cards.update({"magma-rupture": 4, "hollow-warden": 4, "duskblade-assassin": 4, "pyre-warden": 4, "undertow": 2})
    custom = {
        "cards": cards,
        "banners": ["ember-standard", "dusk-standard", "dusk-standard"],
        "dice": ["black", "red", "black"],
    }
    play = new_game(GAME, 2, {"decks": [custom, "thornwall"]}, random.Random(3))
    assert len(play.state.sides[0].deck) + len(play.state.sides[0].hand) == 50
    assert play.state.decks == ("custom", "thornwall")


def test_other_option_problems() -> None:
    """The player count and scenario orders are checked too, all problems together."""
    with pytest.raises(InvalidOptions) as caught:
        GAME.validate_options({"decks": ["nope"], "deck": [["emberhound"], ["ember-standard"] * 12]}, 3)
    text = " ".join(caught.value.problems)
    assert "played by 2 players" in text and "one deck for each" in text


def test_setup_hides_every_deck() -> None:
    """Decks are secret: the opening event shows each seat only how many cards each deck holds."""
    play = new_game(GAME, 2, None, random.Random(5))
    started = GAME.redact(play.events[0], 0)
    assert started.data["decks"] == [50, 50]
    theirs = GAME.redact(play.events[2], 0)
    assert theirs.data["cards"] == len(play.state.sides[1].hand)
    assert GAME.redact(play.events[1], 0).data["cards"] == list(play.state.sides[0].hand)
    assert fold(GAME, play.events) == play.state
