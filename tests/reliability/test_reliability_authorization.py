"""Authorization, for every kind. A seat token reading or acting on
another game, acting for another seat, a revoked or malformed token, a spectator acting:
each is 401 or 403 (problem+json), and nothing is appended."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from games import registry
from service.app import create_app
from stores.platform import Platform
from tests.reliability.conftest import event_counts

pytestmark = pytest.mark.timeout(120)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: FlaskClient, kind: str) -> dict[str, Any]:
    game = registry.get(kind)
    assert game is not None
    players = [{"name": f"p{i}"} for i in range(game.min_players)]
    response = client.post("/v1/games", json={"kind": kind, "players": players})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def advance_until_a_seat_waits(client: FlaskClient, game: dict[str, Any]) -> None:
    """Play legal actions until some seat is not to act (games that open with every seat
    choosing at once), so that a seat can try to act in another seat's turn."""
    for _ in range(20):
        view = client.get(f"/v1/games/{game['id']}").get_json()
        if len(view["to_act"]) < len(game["seats"]):
            return
        token = game["seats"][view["to_act"][0]]["token"]
        legal = client.get(f"/v1/games/{game['id']}", headers=bearer(token)).get_json()["legal_actions"]
        move = {"action": legal[0], "expected_version": view["version"]}
        assert client.post(f"/v1/games/{game['id']}/actions", json=move, headers=bearer(token)).status_code == 200
    raise AssertionError(f"{game['kind']}: every seat still to act")


def test_foreign_revoked_malformed_and_missing_tokens_are_refused_for_every_kind(inline_platform: Platform) -> None:
    client = create_app(inline_platform.config, inline_platform).test_client()
    tried: list[tuple[str, str, int, str]] = []
    wrong: list[tuple[str, str, int, str]] = []
    before = event_counts(inline_platform)
    feed_added = 0
    acts_for_another_seat = {}
    for kind in registry.keys():
        a, b = new_game(client, kind), new_game(client, kind)
        tokens = [s["token"] for s in a["seats"]]
        advance_until_a_seat_waits(client, a)
        before.update({g: inline_platform.store.last_version(g) for g in (a["id"], b["id"])})
        feed_before = inline_platform.redis.xlen(inline_platform.store.feed_key)
        view_a = client.get(f"/v1/games/{a['id']}").get_json()
        to_act = view_a["to_act"]
        actor = to_act[0]
        legal = client.get(f"/v1/games/{a['id']}", headers=bearer(tokens[actor])).get_json()["legal_actions"]
        move = {"action": legal[0], "expected_version": view_a["version"]}
        view_b = client.get(f"/v1/games/{b['id']}").get_json()
        b_actor = view_b["to_act"][0]
        b_legal = client.get(f"/v1/games/{b['id']}", headers=bearer(b["seats"][b_actor]["token"])).get_json()
        b_move = {"action": b_legal["legal_actions"][0], "expected_version": view_b["version"]}
        undo = {"to_version": max(1, view_a["version"] - 1)}
        idle = [s for s in range(len(tokens)) if s not in to_act]

        requests_: list[tuple[str, str, str, dict[str, Any]]] = []
        for seat, token in enumerate(tokens):  # every seat of A against game B
            auth = bearer(token)
            requests_ += [
                (
                    f"seat {seat} of A acts on B",
                    "POST",
                    f"/v1/games/{b['id']}/actions",
                    {"json": b_move, "headers": auth},
                ),
                (f"seat {seat} of A reads B", "GET", f"/v1/games/{b['id']}", {"headers": auth}),
                (f"seat {seat} of A reads B's events", "GET", f"/v1/games/{b['id']}/events", {"headers": auth}),
                (f"seat {seat} of A streams B", "GET", f"/v1/games/{b['id']}/events/stream", {"headers": auth}),
                (f"seat {seat} of A reads B's history", "GET", f"/v1/games/{b['id']}/history/1", {"headers": auth}),
                (f"seat {seat} of A reads B's replay", "GET", f"/v1/games/{b['id']}/replay", {"headers": auth}),
                (f"seat {seat} of A renders B's replay", "POST", f"/v1/games/{b['id']}/replays", {"headers": auth}),
                (f"seat {seat} of A audits B", "POST", f"/v1/games/{b['id']}/audits", {"headers": auth}),
                (
                    f"seat {seat} of A asks B for an undo",
                    "POST",
                    f"/v1/games/{b['id']}/undo-requests",
                    {"json": undo, "headers": auth},
                ),
                (
                    f"seat {seat} of A forks B",
                    "POST",
                    f"/v1/games/{b['id']}/forks",
                    {"json": {"at_version": view_b["version"]}, "headers": auth},
                ),
            ]
        acts_for_another_seat[kind] = len(idle)
        for seat in idle:  # a seat acting in another seat's turn, with that seat's legal action
            requests_.append(
                (
                    f"seat {seat} acts for seat {actor}",
                    "POST",
                    f"/v1/games/{a['id']}/actions",
                    {"json": move, "headers": bearer(tokens[seat])},
                )
            )
        malformed = [
            "",
            "Bearer",
            "Bearer ",
            "Basic " + tokens[0],
            "Token " + tokens[0],
            "Bearer " + tokens[0] + "x",
            "Bearer " + tokens[0][:-1],
            "Bearer " + "A" * 43,
            "Bearer null",
            "bearer",
            tokens[0],
        ]
        for header in malformed:
            headers = {"Authorization": header} if header else {}
            requests_.append(
                (
                    f"malformed token {header[:12]!r}",
                    "POST",
                    f"/v1/games/{a['id']}/actions",
                    {"json": move, "headers": headers},
                )
            )
            requests_.append(
                (
                    f"malformed token {header[:12]!r} asks an undo",
                    "POST",
                    f"/v1/games/{a['id']}/undo-requests",
                    {"json": undo, "headers": headers},
                )
            )
        requests_ += [
            ("spectator acts", "POST", f"/v1/games/{a['id']}/actions", {"json": move}),
            ("spectator asks an undo", "POST", f"/v1/games/{a['id']}/undo-requests", {"json": undo}),
            ("spectator accepts an undo", "POST", f"/v1/games/{a['id']}/undo-requests/x/accept", {}),
            (
                "spectator forks a game in play",
                "POST",
                f"/v1/games/{a['id']}/forks",
                {"json": {"at_version": view_a["version"]}},
            ),
        ]
        for name, method, path, kwargs in requests_:
            response = client.open(path, method=method, **kwargs)
            status = response.status_code
            code = (response.get_json(silent=True) or {}).get("code", "")
            tried.append((kind, name, status, code))
            if status not in (401, 403) or response.mimetype != "application/problem+json":
                wrong.append((kind, name, status, response.get_data(as_text=True)[:160]))
        inline_platform.vault.revoke(a["id"], actor)  # a revoked token reads and acts no more
        for name, method, path, kwargs in [
            ("revoked token acts", "POST", f"/v1/games/{a['id']}/actions", {"json": move}),
            ("revoked token reads", "GET", f"/v1/games/{a['id']}", {}),
            ("revoked token reads events", "GET", f"/v1/games/{a['id']}/events", {}),
        ]:
            response = client.open(path, method=method, headers=bearer(tokens[actor]), json=kwargs.get("json"))
            tried.append((kind, name, response.status_code, ""))
            if response.status_code != 401:
                wrong.append((kind, name, response.status_code, response.get_data(as_text=True)[:160]))
        feed_added += inline_platform.redis.xlen(inline_platform.store.feed_key) - feed_before
    after = event_counts(inline_platform)
    appended = sum(after[g] - before.get(g, 0) for g in after)
    statuses = {s: sum(1 for t in tried if t[2] == s) for s in sorted({t[2] for t in tried})}
    print(
        f"authorization: {len(tried)} foreign, revoked, malformed and missing-token requests over "
        f"{len(registry.keys())} kinds (seats acting in another seat's turn per kind: {acts_for_another_seat}): "
        f"statuses {statuses}; not 401/403: {len(wrong)}; events appended {appended}, feed notices added {feed_added}"
    )
    assert not wrong, wrong[:10]
    assert all(acts_for_another_seat.values()), acts_for_another_seat
    assert appended == 0 and feed_added == 0
