"""Replays and audits as jobs on a real RQ worker: queued, then finished with their
progress complete and their result ready to download."""

from __future__ import annotations

import json
import random

import pytest
import redis

from core.config import Config
from stores.platform import Platform
from tests.conftest import burst_worker
from tests.tooling.conftest import humans, play
from workers import long_jobs, wiring
from workers.scheduling import queue_names


@pytest.fixture
def platform(real_redis: redis.Redis, redis_url: str, prefix: str) -> Platform:
    p = Platform(Config(redis_url=redis_url, prefix=prefix), real_redis)
    wiring.use(p)
    return p


def test_a_replay_and_an_audit_run_on_a_worker(platform: Platform) -> None:
    table = play(platform, platform.handler.create_game("tiny", humans(2)).table, random.Random(41))
    assert table.status == "finished"
    replay = long_jobs.enqueue(platform, "replay", table.game_id, None)
    audit = long_jobs.enqueue(platform, "audit", table.game_id)
    queued = long_jobs.status(platform, replay)
    assert queued is not None and queued["status"] == "queued" and queued["result"] is None
    assert long_jobs.result(platform, replay) is None

    burst_worker(list(queue_names(platform)), platform.queue_redis)

    done = long_jobs.status(platform, replay)
    assert done is not None and done["status"] == "finished"
    assert done["progress"] == {"done": table.version, "total": table.version}
    assert done["result"] == f"/v1/jobs/{replay}/result"
    found = long_jobs.result(platform, replay)
    assert found is not None
    media_type, text = found
    header, *steps = (json.loads(line) for line in text.splitlines())
    assert media_type == "application/x-ndjson" and header["seed"] == table.seed
    assert [step["version"] for step in steps] == list(range(1, table.version + 1))
    audited = long_jobs.result(platform, audit)
    assert audited is not None and json.loads(audited[1])["ok"] is True
