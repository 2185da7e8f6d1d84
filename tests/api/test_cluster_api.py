"""The HTTP API on a Redis Cluster (3 masters, 1 replica each; RQ on its own single-node
Redis): a game of every kind created, played by its legal actions to the end, streamed
live over SSE, replayed and audited by a worker, listed by the read models, and the
health, ledger and metrics answered; an undo agreed and a fork taken; everything a
client sees as on a single Redis."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from core.config import Config
from events.keys import partition_of
from service.app import create_app
from stores.platform import Platform
from tests.api.conftest import OPERATOR, bearer, operator
from tests.conftest import burst_worker
from tests.localcluster import LocalCluster, local_cluster  # noqa: F401  (a fixture)
from workers import runtime, wiring
from workers.projector import Projector
from workers.scheduling import InlineBots, queue_names
from workers.wiring import wire

KINDS = ("dragoborne", "dragon-fortress", "fortress-royals", "fortress-siege", "stomping-grounds")


@pytest.fixture
def platform(local_cluster: LocalCluster, redis_url: str, prefix: str, real_redis: redis.Redis) -> Iterator[Platform]:  # noqa: F811
    url = "redis+cluster://" + ",".join(f"{n.host}:{n.port}" for n in local_cluster.startup_nodes)
    config = Config(
        redis_url=url,
        queue_redis_url=redis_url,  # RQ on the single-node Redis, as cluster mode requires
        prefix=prefix,
        rate_per_address=10**6,
        rate_per_token=10**6,
        admin_token=OPERATOR,
        heartbeat_seconds=1,
    )
    p = Platform.from_config(config)
    wire(p, bots=False)
    p.handler.scheduler = InlineBots(p)
    wiring.use(p)
    yield p
    p.redis.close()


@pytest.fixture
def client(platform: Platform) -> FlaskClient:
    return create_app(platform.config, platform).test_client()


def players_of(client: FlaskClient, kind: str) -> list[dict[str, Any]]:
    kinds = {k["key"]: k for k in client.get("/v1/kinds").get_json()["kinds"]}
    return [{"name": f"p{seat}"} for seat in range(kinds[kind]["min_players"])]


def play_to_the_end(client: FlaskClient, game: dict[str, Any], rng: random.Random, limit: int = 0) -> int:
    """Every seat, by its token, plays a random one of its legal actions until the end (or
    ``limit`` actions); the number of actions played."""
    tokens = [seat["token"] for seat in game["seats"]]
    played = 0
    while played < 4000:
        progressed = False
        for token in tokens:
            view = client.get(f"/v1/games/{game['id']}", headers=bearer(token)).get_json()
            if view["status"] == "finished":
                return played
            if not view["legal_actions"]:
                continue
            body = {"action": rng.choice(view["legal_actions"]), "expected_version": view["version"]}
            answer = client.post(f"/v1/games/{game['id']}/actions", json=body, headers=bearer(token))
            assert answer.status_code in (200, 409), answer.get_data(as_text=True)  # 409: another seat's move first
            played += answer.status_code == 200
            progressed = True
            if played == limit:
                return played
        assert progressed, f"no seat of {game['id']} has a legal action and the game is not finished"
    raise AssertionError(f"{game['kind']} did not finish in 4000 actions")


def run_job(client: FlaskClient, platform: Platform, path: str, headers: dict[str, str]) -> Any:
    started = client.post(path, headers=headers)
    assert started.status_code == 202, started.get_data(as_text=True)
    burst_worker(list(queue_names(platform)), platform.queue_redis)
    location = started.headers["Location"]
    status = client.get(location, headers=headers).get_json()
    assert status["status"] == "finished", status
    result = client.get(f"{location}/result", headers=headers)
    # (Seen twice under a loaded CI, never alone: say where the job's result went.)
    job = location.rsplit("/", 1)[-1]
    where = {
        "status": status,
        "this platform": platform.config.prefix,
        "jobs ran through": runtime.current().config.prefix,
        "fields": sorted(k.decode() for k in platform.redis.hkeys(platform.key("job", job))),
    }
    assert result.status_code == 200, where
    return result.get_data(as_text=True)


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_of_every_kind_runs_end_to_end_over_http_on_the_cluster(
    client: FlaskClient, platform: Platform, kind: str
) -> None:
    # Random play has no end in sight in stomping-grounds without its round limit (off by
    # default since rules revision 2): a limit of ten rounds keeps this a test of the
    # platform (hundreds of versions, every one streamed, replayed and audited).
    options = {"turn_limit": 10} if kind == "stomping-grounds" else {}
    created = client.post("/v1/games", json={"kind": kind, "players": players_of(client, kind), "options": options})
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    game["kind"] = kind
    first = game["seats"][0]["token"]

    # A live stream opened now hears the next move, played while it waits.
    stream = client.get(f"/v1/games/{game['id']}/events/stream?after={game['version']}", buffered=False)
    assert stream.mimetype == "text/event-stream"
    rng = random.Random(kind)
    mover = threading.Thread(target=lambda: (time.sleep(0.3), play_to_the_end(client, game, rng, limit=1)))
    mover.start()
    heard: list[str] = []
    for chunk in stream.response:
        heard.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if heard[-1].startswith("id: ") or len(heard) > 20:
            break
    stream.close()
    mover.join()
    assert heard[-1].startswith(f"id: {game['version'] + 1}\n"), heard
    actions = 1 + play_to_the_end(client, game, rng)

    final = client.get(f"/v1/games/{game['id']}").get_json()
    assert final["status"] == "finished" and final["outcome"] is not None and actions > 0
    # The whole stream of a finished game, from the start: every version once, in order.
    replayed = client.get(f"/v1/games/{game['id']}/events/stream").get_data(as_text=True)
    ids = [int(line[4:]) for line in replayed.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, final["version"] + 1))

    replay = run_job(client, platform, f"/v1/games/{game['id']}/replays", bearer(first))
    header, *steps = (json.loads(line) for line in replay.splitlines())
    assert header["seed"] == final["seed"] and [s["version"] for s in steps] == ids
    audit = json.loads(run_job(client, platform, f"/v1/games/{game['id']}/audits", {}))
    assert audit["ok"] is True, audit

    projector = Projector(platform, "cluster-api")
    projector.ensure_group()
    while projector.step(block_ms=10):
        pass
    listed = client.get(f"/v1/games?status=finished&kind={kind}").get_json()
    assert game["id"] in [g["id"] for g in listed["games"]] and listed["total"] >= 1
    assert client.get("/v1/stats").get_json()["kinds"][kind]["finished"] >= 1
    index = partition_of(game["id"], platform.store.partitions)
    assert platform.redis.hget(platform.read_models.key("status", partition=index), game["id"]) == b"finished"

    ledger = client.get("/v1/ledger").get_json()
    assert game["id"] in json.dumps(ledger)
    health = client.get("/healthz")
    assert health.status_code == 200 and health.get_json()["redis"]["cluster"]["serving"] is True
    metrics = client.get("/metrics", headers=operator())
    assert metrics.status_code == 200 and "tablestream" in metrics.get_data(as_text=True)


def test_undo_and_fork_over_http_on_the_cluster(client: FlaskClient, platform: Platform) -> None:
    created = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"name": "bob"}]})
    game = created.get_json()
    ann, bob = (bearer(seat["token"]) for seat in game["seats"])
    start = client.get(f"/v1/games/{game['id']}", headers=ann).get_json()
    body = {"action": {"type": "add", "amount": 2}, "expected_version": start["version"]}
    assert client.post(f"/v1/games/{game['id']}/actions", json=body, headers=ann).status_code == 200
    asked = client.post(f"/v1/games/{game['id']}/undo-requests", json={"to_version": start["version"]}, headers=bob)
    assert asked.status_code == 201, asked.get_json()
    request_id = asked.get_json()["pending"]["id"]
    accepted = client.post(f"/v1/games/{game['id']}/undo-requests/{request_id}/accept", headers=ann).get_json()
    assert accepted["pending"] is None and accepted["game"]["view"] == start["view"]
    assert platform.store.read(game["id"])[-1].type == "Rewound"

    forked = client.post(f"/v1/games/{game['id']}/forks", json={"at_version": start["version"]}, headers=ann)
    assert forked.status_code == 201, forked.get_json()
    copy = forked.get_json()
    assert copy["id"] != game["id"] and copy["forked_from"]["game"] == game["id"]
    assert platform.store.verify(copy["id"]).ok and platform.store.verify(game["id"]).ok
    mine = next(seat["token"] for seat in copy["seats"] if "token" in seat)
    assert client.get(f"/v1/games/{copy['id']}", headers=bearer(mine)).status_code == 200
