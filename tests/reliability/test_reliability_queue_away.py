"""The queue's Redis away (``QUEUE_REDIS_URL``, killed): play goes on, and every answer says
which dependency failed. A game with a bot seat is still created (201), its bot's turn left
to the reconcile; asking for an audit is refused 503 naming the job queue, and nothing is
kept of it; ``/healthz`` stays 200 and says the queue is unreachable. Once the queue is
back, the reconcile enqueues the bot's turn and the game is played on."""

from __future__ import annotations

import redis

from core.config import Config
from service.app import create_app
from stores.platform import Platform
from tests.conftest import RedisServer, burst_worker
from workers import wiring
from workers.rq_worker import TurnWorker
from workers.scheduling import queue_names, reconcile


def test_with_the_queue_away_play_goes_on_and_each_answer_names_the_queue(
    real_redis: redis.Redis, redis_url: str, prefix: str, own_redis: RedisServer
) -> None:
    config = Config(redis_url=redis_url, queue_redis_url=own_redis.url, prefix=prefix, rate_per_address=10**6)
    platform = wiring.wire(Platform(config, real_redis, own_redis.client()))
    wiring.use(platform)
    client = create_app(config, platform).test_client()
    own_redis.stop()

    created = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "ann"}, {"bot": "greedy"}]})
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()
    seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    table = platform.handler.load(game["id"])
    if 0 in table.to_act():  # ann moves; the bot's answer waits for the queue
        acted = client.post(
            f"/v1/games/{game['id']}/actions",
            json={"action": {"type": "add", "amount": 1}, "expected_version": table.version},
            headers=seat,
        )
        assert acted.status_code == 200, acted.get_data(as_text=True)
    audit = client.post(f"/v1/games/{game['id']}/audits")
    assert audit.status_code == 503 and audit.get_json()["detail"] == "The job queue is unreachable; try again shortly."
    assert real_redis.zcard(platform.key("jobs", "open")) == 0, "nothing kept of a refused job"
    health = client.get("/healthz")
    assert health.status_code == 200, health.get_data(as_text=True)
    assert health.get_json()["degraded"] is True and health.get_json()["queue"]["reachable"] is False
    assert any("job queue" in problem for problem in health.get_json()["problems"])

    own_redis.start()  # the queue is back, empty
    waiting = platform.handler.load(game["id"])
    assert 1 in waiting.to_act(), "the bot's turn waited"
    assert reconcile(platform) == 1
    burst_worker(list(queue_names(platform)), platform.queue_redis, TurnWorker)
    assert platform.handler.load(game["id"]).version > waiting.version, "the bot played on"
    assert client.get("/healthz").get_json()["queue"] == {"reachable": True}
