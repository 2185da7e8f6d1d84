"""Job results are the asker's: a mid-game replay that a
seat asked for holds that seat's hand, so it is readable only with that seat's token;
a job a spectator started holds only what a spectator sees, and anyone may read it."""

from __future__ import annotations

import json

from service.app import create_app
from stores.platform import Platform
from tests.tooling.conftest import humans


def test_a_seats_replay_job_is_readable_only_with_its_token(platform: Platform) -> None:
    client = create_app(platform=platform).test_client()
    game = client.post("/v1/games", json={"kind": "tiny", "players": humans(2)}).get_json()
    ann, bob = ({"Authorization": f"Bearer {s['token']}"} for s in game["seats"])
    started = client.post(f"/v1/games/{game['id']}/replays", headers=ann)
    assert started.status_code == 202
    job = client.get(started.headers["Location"], headers=ann).get_json()
    assert job["status"] == "finished", job
    result = client.get(job["result"], headers=ann)
    hand = platform.handler.load(game["id"]).state.hands[0]
    assert result.status_code == 200 and all(json.dumps(card) in result.get_data(as_text=True) for card in hand)

    spelled = {"authorization": f"bearer {game['seats'][1]['token']}"}
    for other in ({}, bob, {"Authorization": "Bearer not-a-token"}, spelled):
        for path in (started.headers["Location"], job["result"]):
            refused = client.get(path, headers=other)
            assert refused.status_code == 404 and refused.get_json()["code"] == "not_found", (path, other)
            assert all(json.dumps(card) not in refused.get_data(as_text=True) for card in hand)


def test_a_spectators_audit_job_is_anyones(platform: Platform) -> None:
    client = create_app(platform=platform).test_client()
    game = client.post("/v1/games", json={"kind": "tiny", "players": humans(2)}).get_json()
    started = client.post(f"/v1/games/{game['id']}/audits")
    assert started.status_code == 202
    seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    for caller in ({}, seat):
        job = client.get(started.headers["Location"], headers=caller).get_json()
        assert job["status"] == "finished" and client.get(job["result"], headers=caller).get_json()["ok"] is True
