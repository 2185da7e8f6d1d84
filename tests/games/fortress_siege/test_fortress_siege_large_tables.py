"""Fortress at tables of 7 and 8 through the HTTP API (in process, on fakeredis): "for 2 or
more players", so the largest table is the service's setting (``TABLESTREAM_MAX_SEATS``,
8 by default), and games at the largest tables play to their end."""

from __future__ import annotations

import random
from typing import Any

import fakeredis
import pytest
from flask.testing import FlaskClient

from core.config import Config
from service.app import create_app
from stores.platform import Platform
from workers.scheduling import InlineBots


def _client(**settings: Any) -> FlaskClient:
    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6, **settings)
    platform = Platform(config, fakeredis.FakeRedis())
    platform.handler.scheduler = InlineBots(platform)
    return create_app(config, platform).test_client()


def _create(client: FlaskClient, players: int, options: dict[str, Any] | None = None) -> Any:
    seats = [{"name": "ann"}] + [{"bot": "random"}] * (players - 1)
    body = {"kind": "fortress-siege", "players": seats, "options": options or {}, "seed": f"table-of-{players}"}
    return client.post("/v1/games", json=body)


def _play_out(client: FlaskClient, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Seat 0 sends random legal actions over HTTP; the bots on the other seats answer in turn."""
    headers = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    for _ in range(2_000):
        view = client.get(f"/v1/games/{game['id']}", headers=headers).get_json()
        if view["status"] == "finished":
            return dict(view)
        assert view["to_act"] == [0], view["to_act"]
        action = rng.choice(view["legal_actions"])
        answer = client.post(
            f"/v1/games/{game['id']}/actions",
            json={"action": action, "expected_version": view["version"]},
            headers=headers,
        )
        assert answer.status_code == 200, answer.get_json()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("players", "winds_of_fate"), [(7, False), (8, True)])
def test_a_game_at_a_table_of_seven_or_eight_plays_to_its_end(players: int, winds_of_fate: bool) -> None:
    """ "Fortress is a fantasy combat card game for 2 or more players" and "The game ends when
    all but one of the players' Fortresses have been depleted"."""
    client = _client()
    created = _create(client, players, {"winds_of_fate": winds_of_fate})
    assert created.status_code == 201, created.get_json()
    final = _play_out(client, created.get_json(), random.Random(players))
    assert len(final["seats"]) == players
    outcome = final["outcome"]
    assert len(outcome["winners"]) == 1
    fallen = [p for p in final["view"]["players"] if not p["in_game"]]
    assert len(fallen) == players - 1


def test_a_table_past_the_services_size_is_refused_and_the_setting_raises_it() -> None:
    """The rulebook sets no largest table: 9 players are refused under the default table size
    (8) with the reason, and seated once the service is set to 9; a kind whose rulebook
    gives its largest table keeps it whatever the setting."""
    refused = _create(_client(), 9)
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_options"
    assert refused.get_json()["problems"] == ["Fortress is played by 2 to 8 players, not 9"]
    client = _client(max_seats=9)
    assert _create(client, 9).status_code == 201
    kinds = {k["key"]: k for k in client.get("/v1/kinds").get_json()["kinds"]}
    assert (kinds["fortress-siege"]["max_players"], kinds["fortress-siege"]["open_ended"]) == (9, True)
    assert (kinds["fortress-royals"]["max_players"], kinds["fortress-royals"]["open_ended"]) == (5, False)
    royals = [{"name": "ann"}] + [{"bot": "random"}] * 5
    assert client.post("/v1/games", json={"kind": "fortress-royals", "players": royals}).status_code == 422


def test_the_table_size_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``TABLESTREAM_MAX_SEATS``: 8 unless set, from 2 to the 16 players a create may list."""
    monkeypatch.delenv("TABLESTREAM_MAX_SEATS", raising=False)
    assert Config.from_env().max_seats == 8
    monkeypatch.setenv("TABLESTREAM_MAX_SEATS", "12")
    assert Config.from_env().max_seats == 12
    for wrong in ("1", "17"):
        monkeypatch.setenv("TABLESTREAM_MAX_SEATS", wrong)
        with pytest.raises(ValueError, match="TABLESTREAM_MAX_SEATS must be from 2 to 16"):
            Config.from_env()
