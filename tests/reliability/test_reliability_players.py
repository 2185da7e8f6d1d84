"""Player keys, attacked as the seat tokens are in
test_reliability_authorization.py, for every kind: another player's key, a key spelled
every way the header allows, a rotated key, a revoked key, a key guessed from its shape,
and the player's own key acting out of turn or claiming a seat it does not hold, on every
route that acts for a seat (actions, undo, fork, claim, rematch, the seats' chat). Each is
401 or 403 (problem+json), nothing is appended or posted, and nothing of one player's
games shows in another's lists."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from flask.testing import FlaskClient

from games import registry
from service.app import create_app
from stores.platform import Platform
from tests.reliability.conftest import event_counts

pytestmark = pytest.mark.timeout(180)

SPELLINGS = ("Bearer {}", "bearer {}", "BEARER {}", "Bearer  {}", "Bearer\t{}", " Bearer {} ")


def register(client: FlaskClient, name: str) -> tuple[dict[str, Any], str]:
    answer = client.post("/v1/players", json={"name": name})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return answer.get_json(), answer.get_json()["key"]


def test_a_player_key_reads_and_acts_only_for_its_own_seats_in_every_kind(inline_platform: Platform) -> None:
    client = create_app(inline_platform.config, inline_platform).test_client()
    ann, ann_key = register(client, "ann")
    bob, bob_key = register(client, "bob")
    _, rotated_key = register(client, "cleo")
    client.post("/v1/players/me/key", headers={"Authorization": f"Bearer {rotated_key}"})  # the old key stops
    _, revoked_key = register(client, "dora")
    client.delete("/v1/players/me/key", headers={"Authorization": f"Bearer {revoked_key}"})
    guessed = "tsp_" + secrets.token_urlsafe(32)
    tried: list[tuple[str, str, int]] = []
    wrong: list[tuple[str, str, int, str]] = []
    games = []
    before = event_counts(inline_platform)
    for kind in registry.keys():
        game = registry.get(kind)
        assert game is not None
        players = [{"me": True}, *({"name": f"p{i}"} for i in range(1, game.min_players))]
        created = client.post(
            "/v1/games", json={"kind": kind, "players": players}, headers={"Authorization": f"Bearer {ann_key}"}
        )
        assert created.status_code == 201, created.get_data(as_text=True)
        g = created.get_json()
        games.append(g["id"])
        before[g["id"]] = inline_platform.store.last_version(g["id"])
        view = client.get(f"/v1/games/{g['id']}").get_json()
        others = [s["token"] for s in g["seats"][1:]]
        move = {"action": {"type": "pass"}, "expected_version": view["version"]}
        undo = {"to_version": 1}
        requests_: list[tuple[str, str, str, dict[str, Any], str]] = []
        for spelling in SPELLINGS:
            for who, key, expected in (
                ("bob", bob_key, "403"),
                ("a rotated key", rotated_key, "401"),
                ("a revoked key", revoked_key, "401"),
                ("a guessed key", guessed, "401"),
            ):
                auth = {"Authorization": spelling.format(key)}
                requests_ += [
                    (
                        f"{who} acts in ann's game ({spelling!r})",
                        "POST",
                        f"/v1/games/{g['id']}/actions",
                        {"json": move, "headers": auth},
                        expected,
                    ),
                    (
                        f"{who} asks ann's game for an undo",
                        "POST",
                        f"/v1/games/{g['id']}/undo-requests",
                        {"json": undo, "headers": auth},
                        expected,
                    ),
                    (
                        f"{who} forks ann's game in play",
                        "POST",
                        f"/v1/games/{g['id']}/forks",
                        {"json": {"at_version": view["version"]}, "headers": auth},
                        expected,
                    ),
                    (
                        f"{who} offers a rematch of ann's game",
                        "POST",
                        f"/v1/games/{g['id']}/rematch",
                        {"headers": auth},
                        expected,
                    ),
                    (
                        f"{who} posts on the seats' chat of ann's game",
                        "POST",
                        f"/v1/games/{g['id']}/chat",
                        {"json": {"channel": "seats", "text": "hello"}, "headers": auth},
                        expected,
                    ),
                    (
                        f"{who} claims ann's seat with another seat's token",
                        "POST",
                        f"/v1/games/{g['id']}/seats/0/claim",
                        {"json": {"token": others[0]}, "headers": auth},
                        expected,
                    ),
                ]
                if expected == "401":
                    requests_ += [
                        (f"{who} reads ann's game", "GET", f"/v1/games/{g['id']}", {"headers": auth}, "401"),
                        (f"{who} reads itself", "GET", "/v1/players/me", {"headers": auth}, "401"),
                        (f"{who} lists its games", "GET", "/v1/players/me/games", {"headers": auth}, "401"),
                        (f"{who} rotates its key", "POST", "/v1/players/me/key", {"headers": auth}, "401"),
                    ]
        ann_auth = {"Authorization": f"Bearer {ann_key}"}
        requests_.append(
            (
                "ann claims a seat she does not hold, by its token",
                "POST",
                f"/v1/games/{g['id']}/seats/1/claim",
                {"json": {"token": others[0] + "x"}, "headers": ann_auth},
                "403",
            )
        )
        for name, method, path, kwargs, expected in requests_:
            response = client.open(path, method=method, **kwargs)
            tried.append((kind, name, response.status_code))
            if str(response.status_code) != expected or response.mimetype != "application/problem+json":
                wrong.append((kind, name, response.status_code, response.get_data(as_text=True)[:160]))
    after = event_counts(inline_platform)
    appended = sum(after[g] - before.get(g, 0) for g in after)
    chatted = [g for g in games if client.get(f"/v1/games/{g}/chat").get_json()["messages"]]
    rematched = [g for g in games if inline_platform.vault.rematch(g) is not None]
    # Nothing of ann's games in bob's list or profile.
    mine = client.get("/v1/players/me/games", headers={"Authorization": f"Bearer {bob_key}"}).get_json()
    profile = client.get("/v1/players/bob").get_json()
    leaked = [g for g in games if g in str(mine) or g in str(profile)]
    statuses = {s: sum(1 for t in tried if t[2] == s) for s in sorted({t[2] for t in tried})}
    print(
        f"player keys: {len(tried)} requests with another player's, rotated, revoked and guessed keys in "
        f"{len(SPELLINGS)} spellings over {len(registry.keys())} kinds: statuses {statuses}; "
        f"not as expected: {len(wrong)}; events appended {appended}; ann's games in bob's lists {len(leaked)}; "
        f"chat messages stored {len(chatted)}; rematches made {len(rematched)}"
    )
    assert not wrong, wrong[:10]
    assert appended == 0 and not leaked and not chatted and not rematched
    assert ann["id"] != bob["id"]
