"""Bad input.

* schemathesis against ``openapi.yaml``: at least 2,000 generated cases (valid and
  invalid, on unknown games and on real ones): no server error, every response fits the spec.
* A hand list of bad requests: huge bodies (413), deep JSON, wrong types, negative and
  huge versions, unicode and control characters in names, unknown actions, actions of
  another kind. Each answer is a problem+json error and nothing is appended.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from service.app import create_app
from stores.platform import Platform
from tests.api.conformance import contract_with_tiny
from tests.reliability.conftest import event_counts

pytestmark = pytest.mark.timeout(300)

CASES = 2000
PROBLEM_FIELDS = {"type", "title", "status", "detail", "code"}


@pytest.fixture
def app(inline_platform: Platform) -> Flask:
    return create_app(inline_platform.config, inline_platform)


def new_game(client: FlaskClient, kind: str = "tiny", players: int = 2) -> dict[str, Any]:
    response = client.post("/v1/games", json={"kind": kind, "players": [{"name": f"p{i}"} for i in range(players)]})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


@pytest.mark.slow
def test_schemathesis_two_thousand_cases_no_server_error_every_response_fits(app: Flask) -> None:
    client = app.test_client()
    real = [new_game(client)["id"], new_game(client, "fortress-royals")["id"]]
    finished = new_game(client)
    for _ in range(10):
        game = client.get(f"/v1/games/{finished['id']}").get_json()
        if game["status"] == "finished":
            break
        seat = game["to_act"][0]
        client.post(
            f"/v1/games/{finished['id']}/actions",
            json={"action": {"type": "add", "amount": 2}, "expected_version": game["version"]},
            headers={"Authorization": f"Bearer {finished['seats'][seat]['token']}"},
        )
    real.append(finished["id"])
    # The contract with the tests' tiny game described (View_tiny): the games here are tiny.
    schema = schemathesis.openapi.from_dict(contract_with_tiny())
    schema.app, schema.location = app, "/openapi.yaml"  # as from_wsgi would set them
    operations = [result.ok() for result in schema.get_all_operations()]
    statuses: Counter[int] = Counter()
    cases = 0
    started = time.monotonic()

    def check(case: Any) -> None:
        nonlocal cases
        if case.path == "/v1/games/{game_id}/events/stream":
            case.headers = {**(case.headers or {}), "Last-Event-ID": "0"}
        response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
        statuses[response.status_code] += 1
        cases += 1

    rounds = 0
    while cases < CASES and rounds < 6:
        for operation in operations:
            strategies = [operation.as_strategy(mode) for mode in GenerationMode]
            game_path = "{game_id}" in operation.path and not operation.path.endswith("/stream")
            if game_path:  # the same operations on games that exist (the stream of one would not end)
                strategies += [
                    operation.as_strategy(mode, path_parameters={"game_id": real[rounds % len(real)]})
                    for mode in GenerationMode
                ]
            for strategy in strategies:
                if cases >= CASES:
                    break
                run = settings(max_examples=45, deadline=None, database=None, suppress_health_check=list(HealthCheck))(
                    given(case=strategy)(check)
                )
                try:
                    run()
                except Unsatisfiable:  # nothing invalid can be said to an operation without inputs
                    pass
        rounds += 1
    server_errors = sum(n for status, n in statuses.items() if status >= 500)
    print(
        f"schemathesis: {cases} generated cases over {len(operations)} operations in {rounds} rounds "
        f"({time.monotonic() - started:.1f} s): statuses {dict(sorted(statuses.items()))}; server errors "
        f"{server_errors}, non-conforming responses 0 (call_and_validate raises on any)"
    )
    assert cases >= CASES
    assert server_errors == 0


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_bad_inputs_are_problems_and_append_nothing(app: Flask, inline_platform: Platform) -> None:
    client = app.test_client()
    tiny = new_game(client)
    royals = new_game(client, "fortress-royals")
    dragon = new_game(client, "dragon-fortress", 3)
    lobby = client.post("/v1/games", json={"kind": "tiny", "players": [{"open": True}, {"name": "b"}]}).get_json()

    def seat_token(game: dict[str, Any]) -> tuple[dict[str, str], int]:
        view = client.get(f"/v1/games/{game['id']}").get_json()
        seat = view["to_act"][0]
        return {"Authorization": f"Bearer {game['seats'][seat]['token']}"}, view["version"]

    tiny_auth, tiny_version = seat_token(tiny)
    royals_auth, royals_version = seat_token(royals)
    dragon_view = client.get(f"/v1/games/{dragon['id']}", headers=seat_token(dragon)[0]).get_json()
    dragon_action = dragon_view["legal_actions"][0]
    tiny_act = f"/v1/games/{tiny['id']}/actions"
    royals_act = f"/v1/games/{royals['id']}/actions"
    big = "x" * (70 * 1024)
    long_name = "n" * 65

    def act(version: Any, action: Any = None, **headers: str) -> dict[str, Any]:
        body = {"action": action if action is not None else {"type": "add", "amount": 1}}
        if version is not ...:
            body["expected_version"] = version
        return {"json": body, "headers": {**tiny_auth, **headers}}

    def create(players: Any = None, **extra: Any) -> dict[str, Any]:
        return {"json": {"kind": "tiny", "players": players or [{"name": "a"}, {"name": "b"}], **extra}}

    cases: list[tuple[str, str, str, dict[str, Any], int]] = [
        # huge bodies
        (
            "huge create body",
            "POST",
            "/v1/games",
            {"data": json.dumps({"kind": big}), "content_type": "application/json"},
            413,
        ),
        (
            "huge action body",
            "POST",
            tiny_act,
            {"data": json.dumps({"action": {"type": big}}), "content_type": "application/json", "headers": tiny_auth},
            413,
        ),
        (
            "huge join body",
            "POST",
            f"/v1/games/{tiny['id']}/seats/0/join",
            {"data": big, "content_type": "application/json"},
            413,
        ),
        # deep JSON
        ("deep JSON body", "POST", "/v1/games", {"data": deep(30_000), "content_type": "application/json"}, 400),
        (
            "deep JSON action",
            "POST",
            tiny_act,
            {
                "data": '{"action":' + '{"a":' * 10_000 + "1" + "}" * 10_001,
                "content_type": "application/json",
                "headers": tiny_auth,
            },
            400,
        ),
        (
            "deep but parseable action",
            "POST",
            tiny_act,
            act(tiny_version, {"type": "add", "amount": json.loads(deep(500))}),
            422,
        ),
        ("deep options", "POST", "/v1/games", create(options={"start": json.loads(deep(500))}), 422),
        # malformed and wrong types
        (
            "malformed JSON",
            "POST",
            tiny_act,
            {"data": '{"action": ', "content_type": "application/json", "headers": tiny_auth},
            400,
        ),
        ("not JSON", "POST", tiny_act, {"data": "action=add", "content_type": "text/plain", "headers": tiny_auth}, 415),
        ("body is a list", "POST", tiny_act, {"json": [1, 2], "headers": tiny_auth}, 422),
        ("body is null", "POST", "/v1/games", {"data": "null", "content_type": "application/json"}, 422),
        ("action is a list", "POST", tiny_act, act(tiny_version, [{"type": "add"}]), 422),
        ("action is a string", "POST", tiny_act, act(tiny_version, "add"), 422),
        ("version is a string", "POST", tiny_act, act(str(tiny_version)), 422),
        ("version is a float", "POST", tiny_act, act(tiny_version + 0.5), 422),
        ("version is a bool", "POST", tiny_act, act(True), 422),
        (
            "unknown field",
            "POST",
            tiny_act,
            {
                "json": {"action": {"type": "add", "amount": 1}, "expected_version": tiny_version, "force": True},
                "headers": tiny_auth,
            },
            422,
        ),
        ("players is an object", "POST", "/v1/games", {"json": {"kind": "tiny", "players": {"name": "a"}}}, 422),
        (
            "kind is a number",
            "POST",
            "/v1/games",
            {"json": {"kind": 7, "players": [{"name": "a"}, {"name": "b"}]}},
            422,
        ),
        ("options is a list", "POST", "/v1/games", create(options=[1]), 422),
        ("turn_seconds is a string", "POST", "/v1/games", create(turn_seconds="10"), 422),
        ("bot level unknown", "POST", "/v1/games", create([{"bot": "godlike"}, {"name": "b"}]), 422),
        ("unknown kind", "POST", "/v1/games", {"json": {"kind": "chess", "players": [{"name": "a"}]}}, 404),
        ("unknown game", "POST", "/v1/games/nope/actions", {"json": {"action": {"type": "add"}}}, 404),
        ("another game's token", "POST", "/v1/games/nope/actions", act(1), 403),
        # versions
        ("negative version", "POST", tiny_act, act(-1), 422),
        ("version past 2**53", "POST", tiny_act, act(2**53 + 1), 422),
        ("huge version", "POST", tiny_act, act(10**40), 422),
        ("stale version", "POST", tiny_act, act(tiny_version - 1), 409),
        ("version ahead", "POST", tiny_act, act(tiny_version + 1), 409),
        ("no version at all", "POST", tiny_act, act(...), 428),
        ("negative If-Match", "POST", tiny_act, act(..., **{"If-Match": '"-1"'}), 422),
        ("garbage If-Match", "POST", tiny_act, act(..., **{"If-Match": "yesterday"}), 422),
        ("huge If-Match", "POST", tiny_act, act(..., **{"If-Match": "9" * 40}), 409),
        ("negative after", "GET", f"/v1/games/{tiny['id']}/events?after=-1", {}, 422),
        ("huge limit", "GET", f"/v1/games/{tiny['id']}/events?limit={10**12}", {}, 422),
        ("word limit", "GET", f"/v1/games/{tiny['id']}/events?limit=ten", {}, 422),
        ("version 0 in history", "GET", f"/v1/games/{tiny['id']}/history/0", {}, 404),
        ("huge version in history", "GET", f"/v1/games/{tiny['id']}/history/{10**30}", {}, 404),
        (
            "garbage Last-Event-ID",
            "GET",
            f"/v1/games/{tiny['id']}/events/stream",
            {"headers": {"Last-Event-ID": "x"}},
            422,
        ),
        (
            "huge undo version",
            "POST",
            f"/v1/games/{tiny['id']}/undo-requests",
            {"json": {"to_version": 2**60}, "headers": tiny_auth},
            422,
        ),
        (
            "undo to the future",
            "POST",
            f"/v1/games/{tiny['id']}/undo-requests",
            {"json": {"to_version": 999}, "headers": tiny_auth},
            422,
        ),
        ("fork at version 0", "POST", f"/v1/games/{tiny['id']}/forks", {"json": {"at_version": 0}}, 422),
        # names
        ("NUL in a name", "POST", "/v1/games", create([{"name": "a\x00b"}, {"name": "b"}]), 422),
        ("newline in a name", "POST", "/v1/games", create([{"name": "a\nb"}, {"name": "b"}]), 422),
        ("DEL in a name", "POST", "/v1/games", create([{"name": "a\x7f"}, {"name": "b"}]), 422),
        ("C1 control in a name", "POST", "/v1/games", create([{"name": "a\x85b"}, {"name": "b"}]), 422),
        (
            "lone surrogate in a name",
            "POST",
            "/v1/games",
            {
                "data": '{"kind": "tiny", "players": [{"name": "\\ud800"}, {"name": "b"}]}',
                "content_type": "application/json",
            },
            400,
        ),
        ("blank name", "POST", "/v1/games", create([{"name": "   "}, {"name": "b"}]), 422),
        ("name too long", "POST", "/v1/games", create([{"name": long_name}, {"name": "b"}]), 422),
        (
            "control character joining",
            "POST",
            f"/v1/games/{lobby['id']}/seats/0/join",
            {"json": {"name": "\x1b[31mred"}},
            422,
        ),
        (
            "surrogate in an action",
            "POST",
            tiny_act,
            {
                "data": '{"action": {"type": "\\udfff"}, "expected_version": ' + str(tiny_version) + "}",
                "content_type": "application/json",
                "headers": tiny_auth,
            },
            400,
        ),
        (
            "surrogate in a seed",
            "POST",
            "/v1/games",
            {
                "data": '{"kind": "tiny", "players": [{"name": "a"}, {"name": "b"}], "seed": "\\udc00"}',
                "content_type": "application/json",
            },
            400,
        ),
        # actions
        ("unknown action", "POST", tiny_act, act(tiny_version, {"type": "fly"}), 422),
        ("action without a type", "POST", tiny_act, act(tiny_version, {"amount": 1}), 422),
        ("action type a number", "POST", tiny_act, act(tiny_version, {"type": 3}), 422),
        (
            "legal action with an extra field",
            "POST",
            tiny_act,
            act(tiny_version, {"type": "add", "amount": 1, "x": 1}),
            422,
        ),
        ("amount out of range", "POST", tiny_act, act(tiny_version, {"type": "add", "amount": 10**9}), 422),
        (
            "another kind's action on fortress-royals",
            "POST",
            royals_act,
            {
                "json": {"action": {"type": "add", "amount": 1}, "expected_version": royals_version},
                "headers": royals_auth,
            },
            422,
        ),
        (
            "dragon-fortress action on fortress-royals",
            "POST",
            royals_act,
            {"json": {"action": dragon_action, "expected_version": royals_version}, "headers": royals_auth},
            422,
        ),
        (
            "fortress-royals action on tiny",
            "POST",
            tiny_act,
            act(tiny_version, {"type": "choose_first", "seat": 0}),
            422,
        ),
    ]
    before = event_counts(inline_platform)
    feed_before = inline_platform.redis.xlen(inline_platform.store.feed_key)
    wrong = []
    for name, method, path, kwargs, expected in cases:
        response = client.open(path, method=method, **kwargs)
        body = response.get_json(force=True, silent=True) or {}
        is_problem = response.mimetype == "application/problem+json" and set(body) >= PROBLEM_FIELDS
        if response.status_code != expected or not is_problem or body.get("status") != response.status_code:
            wrong.append((name, response.status_code, response.mimetype, response.get_data(as_text=True)[:200]))
    after = event_counts(inline_platform)
    appended = sum(after.get(g, 0) - v for g, v in before.items()) + sum(v for g, v in after.items() if g not in before)
    feed_after = inline_platform.redis.xlen(inline_platform.store.feed_key)
    print(
        f"bad input: {len(cases)} hand-made bad requests; answers not the expected problem+json: {len(wrong)}; "
        f"events appended {appended}; feed notices added {feed_after - feed_before}"
    )
    assert not wrong, "\n".join(f"{w[0]}: {w[1]} {w[3][:150]}" for w in wrong)
    assert appended == 0 and feed_after == feed_before
