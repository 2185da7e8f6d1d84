"""The REST API on the tiny game: given a game, when a request, then the answer and the log."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from stores.platform import Platform
from tests.api.conftest import bearer, new_tiny, operator


def events_in_log(platform: Platform, game_id: str) -> int:
    return platform.store.last_version(game_id)


def act(client: FlaskClient, game: dict, seat: int, action: dict, version: int | None = None, **headers: str):  # type: ignore[no-untyped-def]
    token = game["seats"][seat]["token"]
    body = {"action": action} if version is None else {"action": action, "expected_version": version}
    return client.post(f"/v1/games/{game['id']}/actions", json=body, headers={**bearer(token), **headers})


def test_kinds_list_every_registered_game_with_options(client: FlaskClient) -> None:
    kinds = {k["key"]: k for k in client.get("/v1/kinds").get_json()["kinds"]}
    assert kinds["tiny"]["min_players"] == 2
    assert all(k["rules_revision"] >= 1 for k in kinds.values()) and kinds["tiny"]["rules_revision"] == 1
    assert kinds["tiny"]["options"] == [
        {
            "name": "start",
            "type": "integer",
            "default": 0,
            "description": "The counter's starting value.",
            "minimum": 0,
            "maximum": 9,
        },
        {
            "name": "rules",
            "type": "integer",
            "default": 1,
            "description": "The rules revision the game is played under, from 1 to the newest (the default).",
            "minimum": 1,
            "maximum": 1,
        },
    ]


def test_create_returns_a_token_per_human_seat_only(client: FlaskClient) -> None:
    game = new_tiny(client, [{"name": "ann"}, {"bot": "random"}])
    assert "token" in game["seats"][0] and "token" not in game["seats"][1]
    assert len(game["seats"][0]["token"]) >= 43  # 256 bits, URL-safe base64
    assert game["status"] == "active" and game["fair_deal"] is True and game["seed"] is None


def test_a_seat_sees_its_view_and_legal_actions_and_a_spectator_sees_the_public_view(client: FlaskClient) -> None:
    game = new_tiny(client)
    mine = client.get(f"/v1/games/{game['id']}", headers=bearer(game["seats"][0]["token"]))
    spectator = client.get(f"/v1/games/{game['id']}")
    assert mine.headers["ETag"] == f'"{game["version"]}"'
    assert isinstance(mine.get_json()["view"]["hands"][0], list)
    assert mine.get_json()["legal_actions"] == [
        {"type": "add", "amount": 1},
        {"type": "add", "amount": 2},
        {"type": "draw"},
    ]
    assert spectator.get_json()["view"]["hands"] == [1, 1]
    assert spectator.get_json()["legal_actions"] == [] and spectator.get_json()["seat"] is None


def test_an_action_is_answered_with_the_callers_redacted_events(client: FlaskClient, platform: Platform) -> None:
    game = new_tiny(client)
    answer = act(client, game, 0, {"type": "draw"}, game["version"])
    assert answer.status_code == 200
    drawn = answer.get_json()["events"][-1]
    assert drawn["type"] == "CardDrawn" and drawn["data"]["card"].startswith("c")
    bob = bearer(game["seats"][1]["token"])
    feed = client.get(f"/v1/games/{game['id']}/events?after={game['version']}", headers=bob)
    theirs = feed.get_json()["events"]
    assert theirs[0] == {**theirs[0], "type": "ActionTaken", "data": {}}
    assert theirs[1]["type"] == "CardDrawn" and theirs[1]["data"] == {}
    # The hash is public from the start: it covers the drawn card only as a salted commitment.
    assert set(theirs[1]["sealed"]) == {"card"} and set(theirs[1]["sealed"]["card"]) == {"$commit"}
    assert theirs[1]["hash"] == drawn["hash"] and theirs[1]["sealed"] == drawn["sealed"]
    assert json.dumps(drawn["data"]["card"]) not in json.dumps(theirs)


def test_if_match_carries_the_expected_version(client: FlaskClient) -> None:
    game = new_tiny(client)
    answer = act(client, game, 0, {"type": "add", "amount": 1}, None, **{"If-Match": f'"{game["version"]}"'})
    assert answer.status_code == 200
    missing = act(client, game, 1, {"type": "add", "amount": 1})
    assert missing.status_code == 428 and missing.get_json()["code"] == "precondition_required"


def test_retrying_with_the_same_key_returns_the_first_answer_and_appends_nothing(
    client: FlaskClient, platform: Platform
) -> None:
    game = new_tiny(client)
    answers = [
        act(client, game, 0, {"type": "add", "amount": 2}, game["version"], **{"Idempotency-Key": "k-1"})
        for _ in range(5)
    ]
    assert [a.status_code for a in answers] == [200] * 5
    first = answers[0].get_json()
    assert all(a.get_json()["events"] == first["events"] for a in answers)
    assert [a.get_json()["duplicate"] for a in answers] == [False, True, True, True, True]
    assert events_in_log(platform, game["id"]) == first["version"]


def test_retrying_a_create_with_the_same_key_returns_the_same_game_and_tokens(
    client: FlaskClient, platform: Platform
) -> None:
    body = {"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]}
    before = set(platform.store.game_ids())
    answers = [client.post("/v1/games", json=body, headers={"Idempotency-Key": "new-game-1"}) for _ in range(3)]
    assert [a.status_code for a in answers] == [201] * 3
    first = answers[0].get_json()
    assert all(a.get_json()["id"] == first["id"] for a in answers)
    assert all(a.get_json()["seats"] == first["seats"] for a in answers), "a retry gives the tokens back"
    assert set(platform.store.game_ids()) - before == {first["id"]}, "one game, however many retries"
    assert act(client, first, 0, {"type": "add", "amount": 1}, first["version"]).status_code == 200
    stored = b"".join(platform.redis.get(key) or b"" for key in platform.redis.scan_iter("*:create:*"))
    assert stored and first["seats"][0]["token"].encode() not in stored, "Redis holds no usable token"


def test_the_same_create_key_with_another_body_is_refused_and_creates_nothing(
    client: FlaskClient, platform: Platform
) -> None:
    body = {"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]}
    assert client.post("/v1/games", json=body, headers={"Idempotency-Key": "new-game-2"}).status_code == 201
    before = set(platform.store.game_ids())
    other = client.post("/v1/games", json={**body, "options": {"start": 3}}, headers={"Idempotency-Key": "new-game-2"})
    assert other.status_code == 422 and problem_of(other)["code"] == "idempotency_key_reused"
    assert set(platform.store.game_ids()) == before


def test_a_create_refused_for_bad_options_frees_its_key(client: FlaskClient) -> None:
    body = {"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}], "options": {"start": 99}}
    refused = client.post("/v1/games", json=body, headers={"Idempotency-Key": "new-game-3"})
    assert refused.status_code == 422 and problem_of(refused)["code"] == "invalid_options"
    fixed = client.post("/v1/games", json={**body, "options": {"start": 1}}, headers={"Idempotency-Key": "new-game-3"})
    assert fixed.status_code == 201


def problem_of(response) -> dict:  # type: ignore[no-untyped-def]
    assert response.mimetype == "application/problem+json", response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) >= {"type", "title", "status", "detail", "code"} and body["status"] == response.status_code
    return body


def test_bad_input_gets_a_problem_with_a_stable_code_and_appends_nothing(
    client: FlaskClient, platform: Platform
) -> None:
    game = new_tiny(client)
    other = new_tiny(client)
    gid, v = game["id"], game["version"]
    ann = bearer(game["seats"][0]["token"])
    cases = [
        (
            client.post(f"/v1/games/{gid}/actions", data="{oops", headers=ann, content_type="application/json"),
            400,
            "bad_request",
        ),
        (
            client.post(f"/v1/games/{gid}/actions", data="x", headers=ann, content_type="text/plain"),
            415,
            "unsupported_media_type",
        ),
        (client.post(f"/v1/games/{gid}/actions", json=[1, 2], headers=ann), 422, "invalid_request"),
        (
            client.post(f"/v1/games/{gid}/actions", json={"action": "add", "expected_version": v}, headers=ann),
            422,
            "invalid_request",
        ),
        (
            client.post(
                f"/v1/games/{gid}/actions",
                json={"action": {"type": "add", "amount": 1}, "expected_version": "2"},
                headers=ann,
            ),
            422,
            "invalid_request",
        ),
        (
            client.post(
                f"/v1/games/{gid}/actions",
                json={"action": {"type": "add", "amount": 1}, "expected_version": -1},
                headers=ann,
            ),
            422,
            "invalid_request",
        ),
        (
            client.post(
                f"/v1/games/{gid}/actions",
                json={"action": {"type": "add", "amount": 1}, "expected_version": 2**80},
                headers=ann,
            ),
            422,
            "invalid_request",
        ),
        (
            client.post(
                f"/v1/games/{gid}/actions",
                json={"action": {"type": "add", "amount": 1}, "expected_version": v, "colour": "red"},
                headers=ann,
            ),
            422,
            "invalid_request",
        ),
        (act(client, game, 0, {"type": "add", "amount": 5}, v), 422, "illegal_action"),
        (act(client, game, 0, {"type": "fortify"}, v), 422, "illegal_action"),
        (act(client, game, 0, {"type": "add", "amount": 1}, v + 3), 409, "stale_version"),
        (act(client, game, 1, {"type": "add", "amount": 1}, v), 403, "not_your_turn"),
        (
            client.post(f"/v1/games/{gid}/actions", json={"action": {"type": "draw"}, "expected_version": v}),
            401,
            "unauthorized",
        ),
        (
            client.post(
                f"/v1/games/{gid}/actions",
                json={"action": {"type": "draw"}, "expected_version": v},
                headers=bearer("not-a-token"),
            ),
            401,
            "unauthorized",
        ),
        (
            client.post(
                f"/v1/games/{gid}/actions",
                json={"action": {"type": "draw"}, "expected_version": v},
                headers={"Authorization": "Basic abc"},
            ),
            401,
            "unauthorized",
        ),
        (
            client.post(
                f"/v1/games/{gid}/actions",
                json={"action": {"type": "draw"}, "expected_version": v},
                headers=bearer(other["seats"][0]["token"]),
            ),
            403,
            "not_your_seat",
        ),
        (client.get(f"/v1/games/{gid}", headers=bearer(other["seats"][0]["token"])), 403, "not_your_seat"),
        (
            client.post(
                "/v1/games/nope/actions", json={"action": {"type": "draw"}, "expected_version": 1}, headers=ann
            ),
            403,
            "not_your_seat",
        ),
        (client.get("/v1/games/nope"), 404, "not_found"),
        (
            client.post("/v1/games", json={"kind": "chess", "players": [{"name": "a"}, {"name": "b"}]}),
            404,
            "unknown_kind",
        ),
        (client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "a"}]}), 422, "invalid_options"),
        (
            client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "a\u0007"}, {"name": "b"}]}),
            422,
            "invalid_request",
        ),
        (
            client.post(
                f"/v1/games/{gid}/actions",
                data=json.dumps({"action": {"pad": "x" * 70_000}}),
                headers=ann,
                content_type="application/json",
            ),
            413,
            "payload_too_large",
        ),
        (
            client.post(
                f"/v1/games/{gid}/actions", data="[" * 5000 + "]" * 5000, headers=ann, content_type="application/json"
            ),
            400,
            "bad_request",
        ),
    ]
    for response, status, code in cases:
        body = problem_of(response)
        assert (response.status_code, body["code"]) == (status, code), body
        assert body["detail"]
    assert events_in_log(platform, gid) == v
    assert events_in_log(platform, other["id"]) == other["version"]


def test_a_stale_version_says_the_current_one_and_an_illegal_action_lists_the_legal_ones(client: FlaskClient) -> None:
    game = new_tiny(client)
    act(client, game, 0, {"type": "add", "amount": 1}, game["version"])
    stale = problem_of(act(client, game, 1, {"type": "add", "amount": 1}, game["version"]))
    assert stale["version"] == game["version"] + 2
    illegal = problem_of(act(client, game, 1, {"type": "add", "amount": 7}, stale["version"]))
    assert {"type": "add", "amount": 1} in illegal["legal_actions"]


def test_open_seats_are_joined_then_the_game_starts(client: FlaskClient) -> None:
    game = new_tiny(client, [{"name": "ann"}, {"open": True}])
    assert game["status"] == "open"
    joined = client.post(f"/v1/games/{game['id']}/seats/1/join", json={"name": "bob"})
    assert joined.status_code == 200 and joined.get_json()["game"]["status"] == "active"
    again = client.post(f"/v1/games/{game['id']}/seats/1/join", json={"name": "eve"})
    assert problem_of(again)["code"] == "seat_taken"
    bob = joined.get_json()["token"]
    view = client.get(f"/v1/games/{game['id']}", headers=bearer(bob)).get_json()
    assert view["seat"] == 1


def test_a_game_played_to_the_end_reveals_its_seed(client: FlaskClient) -> None:
    game = new_tiny(client, options={"start": 9})
    answer = act(client, game, 0, {"type": "add", "amount": 1}, game["version"])
    assert answer.get_json()["events"][-1]["type"] == "SeedRevealed"
    final = client.get(f"/v1/games/{game['id']}").get_json()
    assert final["status"] == "finished" and final["outcome"]["winners"] == [0]
    import hashlib

    assert hashlib.sha256(final["seed"].encode()).hexdigest() == final["seed_commitment"]
    assert problem_of(act(client, game, 1, {"type": "draw"}, final["version"]))["code"] == "game_over"


def test_the_event_stream_sends_versions_as_ids_and_resumes_after_last_event_id(client: FlaskClient) -> None:
    game = new_tiny(client, options={"start": 8})
    act(client, game, 0, {"type": "add", "amount": 2}, game["version"])
    response = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": "2"})
    assert response.mimetype == "text/event-stream"
    text = response.get_data(as_text=True)
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == [3, 4, 5], text
    assert "event: SeedRevealed" in text


def test_metrics_count_requests_appends_and_conflicts(client: FlaskClient) -> None:
    game = new_tiny(client)
    act(client, game, 0, {"type": "add", "amount": 1}, game["version"])
    act(client, game, 1, {"type": "add", "amount": 1}, game["version"])
    text = client.get("/metrics", headers=operator()).get_data(as_text=True)
    lines = text.splitlines()
    # As prometheus_client writes them: labels in name order, values as floats.
    assert "tablestream_appends_total 1.0" in lines
    assert "tablestream_conflicts_total 1.0" in lines
    assert 'tablestream_requests_total{method="POST",route="/v1/games/<game_id>/actions",status="200"} 1.0' in lines
    assert 'tablestream_queue_depth{queue="ts-bots"}' in text


def test_a_token_over_its_limit_gets_429_with_retry_after_and_others_do_not() -> None:
    import time

    import fakeredis

    from core.config import Config
    from service.app import create_app
    from tests.api.conftest import new_tiny as create

    # Five a token per five seconds: a burst of five, then one more each second (the limit
    # is a leaky bucket), so the burst below is judged on its count, not on how fast a
    # loaded machine serves it.
    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=5, rate_window_seconds=5)
    client = create_app(config, Platform(config, fakeredis.FakeRedis())).test_client()
    game = create(client)
    noisy, quiet = (bearer(seat["token"]) for seat in game["seats"])
    url = f"/v1/games/{game['id']}"
    window = time.monotonic()
    statuses = [client.get(url, headers=noisy).status_code for _ in range(12)]
    refused = client.get(url, headers=noisy)
    elapsed = time.monotonic() - window
    if elapsed < 0.9:  # no second request let in yet
        assert statuses == [200] * 5 + [429] * 7
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
        assert problem_of(refused)["code"] == "rate_limited"
    assert statuses[:5] == [200] * 5 and statuses.count(200) <= 5 + int(elapsed), statuses
    assert client.get(url, headers=quiet).status_code == 200, "another token is not throttled"
    time.sleep(1.1)
    assert client.get(url, headers=noisy).status_code == 200, "a new window lets the token in again"


def test_the_games_list_pages_summaries_by_status_and_kind(client: FlaskClient, platform: Platform) -> None:
    from workers.projector import Projector

    projector = Projector(platform, "api-test")
    projector.ensure_group()
    waiting = new_tiny(client, [{"name": "ann"}, {"open": True}])
    playing = [new_tiny(client) for _ in range(3)]
    done = new_tiny(client, options={"start": 9})
    act(client, done, 0, {"type": "add", "amount": 1}, done["version"])
    while projector.step(block_ms=10):
        pass

    def listed(query: str) -> dict:
        response = client.get(f"/v1/games?{query}")
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_json()

    assert [g["id"] for g in listed("status=open")["games"]] == [waiting["id"]]
    assert [(g["id"], g["status"]) for g in listed("status=finished&kind=tiny")["games"]] == [(done["id"], "finished")]
    active = listed("status=active")
    assert active["total"] == 3 and {g["id"] for g in active["games"]} == {g["id"] for g in playing}
    pages = [listed(f"status=active&limit=2&offset={offset}") for offset in (0, 2)]
    assert [len(page["games"]) for page in pages] == [2, 1] and all(page["total"] == 3 for page in pages)
    assert {g["id"] for page in pages for g in page["games"]} == {g["id"] for g in playing}
    assert listed("kind=no-such-kind") == {"games": [], "total": 0, "offset": 0, "limit": 50}
    assert listed("")["total"] == 5
    assert problem_of(client.get("/v1/games?status=lost"))["code"] == "invalid_request"


def test_a_fixed_deal_is_flagged_but_its_card_order_stays_hidden_until_the_end(client: FlaskClient) -> None:
    """Given a fortress-siege game created with explicit Fortress orders (a tutorial deal),
    when anyone reads it before the end, then the summary says the deal is not fair but no
    response names the orders: "Fortress order is secret" holds for fixed deals too."""
    from games.fortress_siege.cards import deck_ids
    from projections.table import HIDDEN_OPTION

    decks = [list(deck_ids(seat)) for seat in range(2)]
    for deck in decks:
        deck[:-1] = sorted(deck[:-1])  # an order no shuffle would give, Tombstone kept last
    created = client.post(
        "/v1/games",
        json={"kind": "fortress-siege", "players": [{"name": "ann"}, {"name": "bob"}], "options": {"decks": decks}},
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    assert game["fair_deal"] is False and game["options"]["decks"] == HIDDEN_OPTION
    ann = bearer(game["seats"][0]["token"])
    responses = [
        created,
        client.get(f"/v1/games/{game['id']}"),
        client.get(f"/v1/games/{game['id']}", headers=ann),
        client.get(f"/v1/games/{game['id']}/events", headers=ann),
        client.get(f"/v1/games/{game['id']}/events"),
        client.get("/v1/games?status=active"),
    ]
    bobs_order = json.dumps(decks[1][:8], separators=(",", ":"))
    for response in responses:
        assert response.status_code == 200 or response is created
        text = response.get_data(as_text=True)
        assert "decks" not in text or HIDDEN_OPTION in text
        assert bobs_order not in text and json.dumps(decks[1][:8]) not in text
