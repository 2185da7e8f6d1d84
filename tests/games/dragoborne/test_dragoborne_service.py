"""Dragoborne through the HTTP API (in process, on fakeredis): a custom deck that breaks deck
building is refused with one 422 listing every problem, and bots play a game to its end."""

from __future__ import annotations

import fakeredis
from flask.testing import FlaskClient

from core.config import Config
from games.dragoborne.cards import DECKS
from service.app import create_app
from stores.platform import Platform
from workers.scheduling import InlineBots


def _client() -> tuple[FlaskClient, Platform]:
    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6)
    platform = Platform(config, fakeredis.FakeRedis())
    platform.handler.scheduler = InlineBots(platform)
    return create_app(config, platform).test_client(), platform


def test_a_bad_custom_deck_gets_one_422_naming_every_problem() -> None:
    """'A deck consisting of 50 or more cards ... A maximum of four cards of the same name' and
    '3 Banners, each banner matching the color of a dice': every failure of both seats' decks is
    listed in one problem+json answer (code invalid_options, field problems), and no game starts."""
    client, platform = _client()
    short = {"cards": {"emberhound": 6, "gravemoth": 4}, "banners": ["ember-standard"] * 3, "dice": ["red"] * 3}
    mismatched = {
        "cards": DECKS["tidecrypt"]["cards"],
        "banners": ["tide-standard", "dusk-standard", "grove-standard"],
        "dice": ["blue", "black", "black"],
    }
    body = {
        "kind": "dragoborne",
        "players": [{"name": "ann"}, {"name": "bob"}],
        "options": {"decks": [short, mismatched]},
    }
    response = client.post("/v1/games", json=body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["code"] == "invalid_options"
    assert problem["problems"] == [
        "The deck of seat 0 has 6 copies of 'emberhound'; at most 4 of a name are allowed.",
        "The deck of seat 0 has 10 cards; a deck needs 50 or more, not counting banners.",
        "The deck of seat 1 has banners of colours black, blue, green but dice of colours black, black, blue; "
        "each banner must match the colour of a die.",
    ]
    assert all(p in problem["detail"] for p in problem["problems"])
    assert list(platform.store.game_ids()) == []


def test_greedy_bots_finish_a_game_through_the_service() -> None:
    """Bots on both seats play a pre-built pairing to the end through the service; the finished
    game names a winner by one of the rulebook's two ways to lose."""
    client, _ = _client()
    body = {"kind": "dragoborne", "players": [{"bot": "greedy"}, {"bot": "greedy"}], "seed": "dragoborne-e2e"}
    created = client.post("/v1/games", json={**body, "options": {"decks": ["thornwall", "tidecrypt"]}})
    assert created.status_code == 201, created.get_data(as_text=True)
    game = client.get(f"/v1/games/{created.get_json()['id']}").get_json()
    assert game["status"] == "finished"
    result = game["view"]["result"]
    assert len(result["winners"]) == 1
    assert "forts" in result["reason"] or "empty deck" in result["reason"]
