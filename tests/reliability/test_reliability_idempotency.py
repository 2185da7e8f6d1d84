"""An Idempotency-Key is bound to its request.

Given a command carried out with a key, when the same caller sends the same key with
another request (another action, an illegal one, extra fields, another version), then
it is 422 idempotency_key_reused and nothing is appended; when it sends the same
request again, then it gets the first answer, marked duplicate, whenever and through
whichever process it asks. Keys are per seat. In process, on fakeredis.
"""

from __future__ import annotations

from typing import Any

import fakeredis
import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from core.config import Config
from service.app import create_app
from stores.platform import Platform
from workers.scheduling import InlineBots

DRAW = {"type": "draw"}
ADD_ONE = {"type": "add", "amount": 1}
ADD_TWO = {"type": "add", "amount": 2}


def new_platform(server: fakeredis.FakeServer) -> Platform:
    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6)
    platform = Platform(config, fakeredis.FakeRedis(server=server))
    platform.handler.scheduler = InlineBots(platform)
    return platform


@pytest.fixture
def server() -> fakeredis.FakeServer:
    return fakeredis.FakeServer()


@pytest.fixture
def platform(server: fakeredis.FakeServer) -> Platform:
    return new_platform(server)


@pytest.fixture
def client(platform: Platform) -> FlaskClient:
    return create_app(platform.config, platform).test_client()


def new_game(client: FlaskClient) -> dict[str, Any]:
    answer = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return dict(answer.get_json())


def act(
    client: FlaskClient, game: dict[str, Any], seat: int, body: dict[str, Any], key: str | None = "k"
) -> TestResponse:
    headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"/v1/games/{game['id']}/actions", json=body, headers=headers)


def log_of(platform: Platform, game_id: str) -> tuple[int, list[tuple[int, str]], int]:
    """The game's version, its stored entries and the feed's length: all three unchanged
    show that nothing was appended."""
    return platform.store.last_version(game_id), platform.store.read_raw(game_id), len(platform.store.notices())


def played(answer: TestResponse) -> dict[str, Any]:
    """An action's answer without what may differ between a command and its retry."""
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return {k: v for k, v in answer.get_json().items() if k not in ("duplicate", "head")}


def assert_key_reused(answer: TestResponse) -> None:
    assert answer.status_code == 422, answer.get_data(as_text=True)
    problem = answer.get_json()
    assert problem["code"] == "idempotency_key_reused"
    assert "new key" in problem["detail"]


# -- the same key with another request ------------------------------------------------


@pytest.mark.parametrize(
    "second",
    [
        pytest.param(lambda v: {"action": ADD_TWO, "expected_version": v}, id="another-legal-action"),
        pytest.param(lambda v: {"action": {"type": "add", "amount": 7}, "expected_version": v}, id="illegal-action"),
        pytest.param(lambda v: {"action": {"type": "fly"}, "expected_version": v}, id="unknown-action"),
        pytest.param(
            lambda v: {"action": {**DRAW, "junk": [1, {"x": None}], "ünï": "✓"}, "expected_version": v},
            id="garbage-fields",
        ),
        pytest.param(lambda v: {"action": DRAW, "expected_version": v + 2}, id="another-expected-version"),
        pytest.param(lambda v: {"action": DRAW, "expected_version": v - 1}, id="an-older-expected-version"),
    ],
)
def test_the_same_key_with_another_request_is_refused_and_appends_nothing(
    client: FlaskClient, platform: Platform, second: Any
) -> None:
    game = new_game(client)
    version = game["version"]
    assert act(client, game, 0, {"action": DRAW, "expected_version": version}).status_code == 200
    before = log_of(platform, game["id"])
    assert_key_reused(act(client, game, 0, second(version)))
    assert log_of(platform, game["id"]) == before


def test_the_same_key_with_another_legal_action_when_it_is_the_seats_turn_again_appends_nothing(
    client: FlaskClient, platform: Platform
) -> None:
    # The second request is legal where the game now is: only the dedup record can refuse it.
    game = new_game(client)
    assert act(client, game, 0, {"action": DRAW, "expected_version": game["version"]}).status_code == 200
    now = act(client, game, 1, {"action": ADD_ONE, "expected_version": game["version"] + 2}, key=None)
    version = now.get_json()["version"]
    before = log_of(platform, game["id"])
    assert_key_reused(act(client, game, 0, {"action": ADD_ONE, "expected_version": version}))
    assert_key_reused(act(client, game, 0, {"action": DRAW, "expected_version": version}))
    assert log_of(platform, game["id"]) == before
    assert act(client, game, 0, {"action": ADD_ONE, "expected_version": version}, key="k2").status_code == 200


def test_the_same_key_with_another_request_is_refused_by_a_new_process_too(
    client: FlaskClient, platform: Platform, server: fakeredis.FakeServer
) -> None:
    game = new_game(client)
    assert act(client, game, 0, {"action": DRAW, "expected_version": game["version"]}).status_code == 200
    other = new_platform(server)
    before = log_of(other, game["id"])
    restarted = create_app(other.config, other).test_client()
    assert_key_reused(act(restarted, game, 0, {"action": ADD_TWO, "expected_version": game["version"]}))
    assert log_of(other, game["id"]) == before


def test_a_key_used_to_create_a_game_cannot_create_another(client: FlaskClient, platform: Platform) -> None:
    body = {"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]}
    assert client.post("/v1/games", json=body, headers={"Idempotency-Key": "g"}).status_code == 201
    games = sorted(platform.store.game_ids())
    feed = len(platform.store.notices())
    for other in ({**body, "options": {"start": 3}}, {**body, "players": [{"name": "cy"}, {"name": "bob"}]}):
        answer = client.post("/v1/games", json=other, headers={"Idempotency-Key": "g"})
        assert answer.status_code == 422 and answer.get_json()["code"] == "idempotency_key_reused"
    assert sorted(platform.store.game_ids()) == games and len(platform.store.notices()) == feed


# -- the same key with the same request -------------------------------------------------


def test_a_retry_gets_the_first_answer_marked_duplicate(client: FlaskClient, platform: Platform) -> None:
    game = new_game(client)
    request = {"action": DRAW, "expected_version": game["version"]}
    first = act(client, game, 0, request)
    before = log_of(platform, game["id"])
    again = act(client, game, 0, request)
    assert first.get_json()["duplicate"] is False and again.get_json()["duplicate"] is True
    assert played(again) == played(first)
    assert log_of(platform, game["id"]) == before


def test_a_retry_after_the_game_moved_on_gets_the_first_answer(client: FlaskClient, platform: Platform) -> None:
    game = new_game(client)
    request = {"action": DRAW, "expected_version": game["version"]}
    first = act(client, game, 0, request)
    version = first.get_json()["version"]
    act(client, game, 1, {"action": ADD_ONE, "expected_version": version}, key=None)
    act(client, game, 0, {"action": ADD_TWO, "expected_version": version + 2}, key="k2")
    before = log_of(platform, game["id"])
    again = act(client, game, 0, request)
    assert again.get_json()["duplicate"] is True and played(again) == played(first)
    assert log_of(platform, game["id"]) == before


def test_a_retry_through_a_new_process_gets_the_first_answer(
    client: FlaskClient, platform: Platform, server: fakeredis.FakeServer
) -> None:
    game = new_game(client)
    request = {"action": DRAW, "expected_version": game["version"]}
    first = act(client, game, 0, request)
    act(client, game, 1, {"action": ADD_ONE, "expected_version": first.get_json()["version"]}, key=None)
    other = new_platform(server)
    before = log_of(other, game["id"])
    again = act(create_app(other.config, other).test_client(), game, 0, request)
    assert again.get_json()["duplicate"] is True and played(again) == played(first)
    assert log_of(other, game["id"]) == before


def test_the_expected_version_in_if_match_is_the_same_request_as_in_the_body(client: FlaskClient) -> None:
    game = new_game(client)
    first = act(client, game, 0, {"action": DRAW, "expected_version": game["version"]})
    headers = {
        "Authorization": f"Bearer {game['seats'][0]['token']}",
        "Idempotency-Key": "k",
        "If-Match": f'"{game["version"]}"',
    }
    again = client.post(f"/v1/games/{game['id']}/actions", json={"action": DRAW}, headers=headers)
    assert again.get_json()["duplicate"] is True and played(again) == played(first)


# -- whose key it is ----------------------------------------------------------------------


def test_two_seats_using_the_same_key_send_two_commands(client: FlaskClient, platform: Platform) -> None:
    game = new_game(client)
    mine = act(client, game, 0, {"action": DRAW, "expected_version": game["version"]}, key="shared")
    theirs = act(client, game, 1, {"action": ADD_TWO, "expected_version": mine.get_json()["version"]}, key="shared")
    assert mine.get_json()["duplicate"] is False and theirs.get_json()["duplicate"] is False
    assert theirs.get_json()["version"] == mine.get_json()["version"] + 2
    assert platform.store.last_version(game["id"]) == theirs.get_json()["version"]


def test_a_bot_and_the_turn_timer_at_one_version_act_once(client: FlaskClient, platform: Platform) -> None:
    # Both play under the same command id, possibly choosing differently: whoever comes
    # second is the first's duplicate, never a reused key.
    game = new_game(client)
    handler = platform.handler
    version = game["version"]
    first = handler.act(game["id"], 0, DRAW, version, command_id="bot-x", actor="bot")
    second = handler.act(game["id"], 0, ADD_ONE, version, command_id="bot-x", actor="timeout")
    assert second.duplicate and second.envelopes == first.envelopes
    assert platform.store.last_version(game["id"]) == first.version
