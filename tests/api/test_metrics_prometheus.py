"""The metrics of docs/operations.md: action latency per kind, queue depths and the
projector's lag read at scrape, and prometheus_client's multiprocess mode adding up the
workers of a host as gunicorn runs them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families
from rq import Queue

from stores.platform import Platform
from tests.api.conftest import new_tiny, operator
from tests.api.test_games_api import act
from workers.projector import Projector
from workers.scheduling import queue_names

ROOT = Path(__file__).resolve().parents[2]


def scrape(client: FlaskClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = client.get("/metrics", headers=operator())
    assert answer.status_code == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.get_data(as_text=True))
        for sample in family.samples
    }


def test_each_appended_action_is_timed_under_its_kind_and_a_duplicate_is_not(client: FlaskClient) -> None:
    game = new_tiny(client)
    first = act(client, game, 0, {"type": "add", "amount": 1}, game["version"], **{"Idempotency-Key": "k1"})
    act(client, game, 0, {"type": "add", "amount": 1}, game["version"], **{"Idempotency-Key": "k1"})
    assert first.status_code == 200
    act(client, game, 1, {"type": "add", "amount": 1}, first.get_json()["version"])
    samples = scrape(client)
    assert samples[("tablestream_action_seconds_count", (("kind", "tiny"),))] == 2
    assert samples[("tablestream_action_seconds_bucket", (("kind", "tiny"), ("le", "+Inf")))] == 2
    assert samples[("tablestream_action_seconds_sum", (("kind", "tiny"),))] > 0


def test_queue_depth_is_read_at_scrape(client: FlaskClient, platform: Platform) -> None:
    bots, work = queue_names(platform)
    assert scrape(client)[("tablestream_queue_depth", (("queue", work),))] == 0
    waiting = Queue(work, connection=platform.queue_redis)
    for _ in range(3):
        waiting.enqueue("os.getpid")
    samples = scrape(client)
    assert samples[("tablestream_queue_depth", (("queue", work),))] == 3
    assert samples[("tablestream_queue_depth", (("queue", bots),))] == 0


def test_projector_lag_counts_the_feed_not_yet_applied_and_is_zero_once_caught_up(
    client: FlaskClient, platform: Platform
) -> None:
    game = new_tiny(client)
    acted = act(client, game, 0, {"type": "add", "amount": 1}, game["version"])
    feed = sum(platform.redis.xlen(key) for key in platform.store.feed_keys())
    samples = scrape(client)
    assert samples[("tablestream_projector_lag_events", ())] == feed > 0, "no projector has read the feed"
    assert samples[("tablestream_projector_lag_seconds", ())] > 0
    projector = Projector(platform)
    projector.ensure_group()
    while projector.step(block_ms=None):
        pass
    samples = scrape(client)
    assert samples[("tablestream_projector_lag_events", ())] == 0
    assert samples[("tablestream_projector_lag_seconds", ())] == 0
    assert act(client, game, 1, {"type": "add", "amount": 1}, acted.get_json()["version"]).status_code == 200
    behind = sum(platform.redis.xlen(key) for key in platform.store.feed_keys()) - feed
    assert scrape(client)[("tablestream_projector_lag_events", ())] == behind > 0


WORKER = textwrap.dedent(
    """
    import fakeredis
    from core.config import Config
    from stores.platform import Platform
    from service.app import create_app
    from service.metrics import observe_request

    app = create_app(Config(redis_url="fake"), Platform(Config(redis_url="fake"), fakeredis.FakeRedis()))
    for _ in range({n}):
        observe_request("/v1/kinds", "GET", 200, 0.01, app)
    """
)


def test_in_multiprocess_mode_the_scrape_adds_up_every_worker_of_the_host(tmp_path: Path, platform: Platform) -> None:
    """As under gunicorn: two worker processes count, and a third answers the scrape."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    for n in (2, 3):
        subprocess.run([sys.executable, "-c", WORKER.format(n=n)], cwd=ROOT, env=env, check=True, timeout=120)
    scraper = textwrap.dedent(
        """
        import sys, fakeredis
        from core.config import Config
        from stores.platform import Platform
        from service.metrics import exposition
        from workers.wiring import wire

        platform = wire(Platform(Config(redis_url="fake"), fakeredis.FakeRedis()), bots=False)
        sys.stdout.write(exposition(platform).decode())
        """
    )
    text = subprocess.run(
        [sys.executable, "-c", scraper], cwd=ROOT, env=env, check=True, timeout=120, capture_output=True, text=True
    ).stdout
    lines = text.splitlines()
    assert 'tablestream_requests_total{method="GET",route="/v1/kinds",status="200"} 5.0' in lines
    assert 'tablestream_request_seconds_count{route="/v1/kinds"} 5.0' in lines
    assert any(line.startswith("tablestream_queue_depth{") for line in lines)
