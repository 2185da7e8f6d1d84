"""Check 9 of issue 12: one token bursting at 10x its rate limit gets 429 with Retry-After,
while another token's p99 latency stays within 2x of its unloaded value (real server,
gunicorn, a Redis of the test's own; a round disturbed by the shared machine is measured
again, up to three). And the attacks of issue 17 on the
limiter itself, in-process on the real test Redis: one token's header spelled many ways,
one token from many threads, counters deleted mid-window and windows ending between
steps (no counter may ever be left without an expiry), a counter left without one by an
older version."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from flask import Flask

from service.app import create_app
from service.config import Config
from service.platform import Platform
from service.ratelimit import client_address, parse_trusted_proxies
from tests.api.conftest import new_tiny
from tests.reliability.procs import Api, RedisServer, service_env

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

LIMIT = 20  # requests per second per token
BURST = 10 * LIMIT
SENDERS = 8  # threads of the noisy client: enough that a slow answer does not hold the rate back
SAMPLES = 120  # the p99 is then the second slowest, not the slowest
PACE = 1 / 12  # the quiet token stays well under its limit
ROUNDS = 3  # the machine is shared: a round whose baseline or load was disturbed is measured again


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def quiet_latencies(url: str, token: str, stop: threading.Event | None = None) -> tuple[list[float], list[int]]:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    session.get(url, timeout=10)
    latencies, statuses = [], []
    for _ in range(SAMPLES):
        started = time.perf_counter()
        response = session.get(url, timeout=10)
        latencies.append(time.perf_counter() - started)
        statuses.append(response.status_code)
        time.sleep(max(0.0, PACE - latencies[-1]))
    return latencies, statuses


def burst(url: str, token: str, orders: Any, results: Any) -> None:
    """Send BURST requests a second under ``token`` from SENDERS threads until ``orders``
    says stop; put back every answer's status and Retry-After, and the seconds sent for."""
    # On this one machine the noisy client's own CPU would compete with the server it
    # floods; a real noisy client runs elsewhere, so here it yields the CPU first.
    os.nice(10)
    stop = threading.Event()
    answers: list[tuple[int, str | None]] = []
    lock = threading.Lock()

    def send() -> None:
        session = requests.Session()
        session.headers["Authorization"] = f"Bearer {token}"
        gap = SENDERS / BURST  # BURST requests a second in all, each thread on its own schedule
        due = time.monotonic()
        while not stop.is_set():
            response = session.get(url, timeout=10)
            with lock:
                answers.append((response.status_code, response.headers.get("Retry-After")))
            due += gap
            time.sleep(max(0.0, due - time.monotonic()))

    threads = [threading.Thread(target=send, daemon=True) for _ in range(SENDERS)]
    for thread in threads:
        thread.start()
    started = time.monotonic()
    results.put("started")
    assert orders.get() == "stop"
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    results.put((answers, time.monotonic() - started))


def test_a_burst_at_ten_times_the_limit_is_throttled_and_others_stay_fast(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    env = service_env(own_redis.url, "rate", TABLESTREAM_RATE_PER_TOKEN=str(LIMIT))
    api = Api(env, tmp_path / "api.log").start()
    try:
        game = requests.post(
            f"{api.base}/v1/games", json={"kind": "fortress-royals", "players": [{"name": "ann"}, {"name": "bob"}]}
        ).json()
        url = f"{api.base}/v1/games/{game['id']}"
        noisy, quiet = (s["token"] for s in game["seats"])
        rounds = []
        for _ in range(ROUNDS):
            time.sleep(1.1)  # a fresh rate window
            unloaded, _ = quiet_latencies(url, quiet)
            # The noisy client is a process of its own: threads here would share the
            # quiet client's interpreter lock and slow the measurement, not the server.
            context = multiprocessing.get_context("spawn")
            orders, results = context.Queue(), context.Queue()
            noisy_process = context.Process(target=burst, args=(url, noisy, orders, results), daemon=True)
            noisy_process.start()
            try:
                assert results.get(timeout=60) == "started"
                loaded, quiet_statuses = quiet_latencies(url, quiet)
                orders.put("stop")
                answers, seconds = results.get(timeout=60)
                noisy_process.join(timeout=30)
            finally:
                if noisy_process.is_alive():
                    noisy_process.kill()
                    noisy_process.join(timeout=10)
            refused = [a for a in answers if a[0] == 429]
            accepted = [a for a in answers if a[0] == 200]
            rounds.append(
                {
                    "burst_requests": len(answers),
                    "burst_seconds": round(seconds, 1),
                    "accepted": len(accepted),
                    "refused_429": len(refused),
                    "retry_after": sorted({a[1] for a in refused}, key=str),
                    "quiet_statuses": sorted(set(quiet_statuses)),
                    "p99_unloaded_ms": round(p99(unloaded) * 1000, 1),
                    "p99_loaded_ms": round(p99(loaded) * 1000, 1),
                }
            )
            assert all(a[1] is not None and a[1].isdigit() and int(a[1]) >= 1 for a in refused), (
                "429 without Retry-After"
            )
            assert {a[0] for a in answers} <= {200, 429}
            assert len(accepted) <= LIMIT * (seconds + 2), "the noisy token got through more than its limit"
            assert len(refused) >= len(answers) // 2
            assert len(answers) >= 0.8 * BURST * seconds, "the noisy client did not reach 10x the limit"
            assert set(quiet_statuses) == {200}, "the quiet token was throttled"
            if p99(loaded) <= 2 * p99(unloaded):
                break
    finally:
        api.stop()
    for number, figures in enumerate(rounds, 1):
        print(f"rate limits, round {number}: {figures}")
    last = rounds[-1]
    assert last["p99_loaded_ms"] <= 2 * last["p99_unloaded_ms"], rounds


# -- attacks on the limiter itself (issue 17), in-process on the real test Redis ------

TOKEN_LIMIT = 5


@pytest.fixture
def limited(real_redis: redis.Redis, redis_url: str, prefix: str) -> Iterator[Any]:
    """Apps on the real test Redis under the test's prefix, with the given limits; each
    app its own Redis client, as each gunicorn worker has."""
    clients: list[redis.Redis] = []

    def make(**limits: Any) -> tuple[Flask, Platform]:
        config = Config(**{"redis_url": redis_url, "prefix": prefix, "rate_per_address": 10**6, **limits})
        client = redis.Redis.from_url(redis_url)
        clients.append(client)
        platform = Platform(config, client)
        return create_app(config, platform), platform

    yield make
    for client in clients:
        client.close()


def spellings(token: str) -> list[str]:
    """Ways to write one bearer token in an Authorization header that all authenticate."""
    return [
        f"{scheme}{gap}{token}{tail}"
        for scheme in ("Bearer", "bearer", "BEARER", "bEaReR")
        for gap in (" ", "  ", "   ", "\t", " \t", "\t\t ")
        for tail in ("", " ", "\t", "  ")
    ]


def rate_keys(client: redis.Redis, prefix: str) -> dict[bytes, int]:
    """Every rate counter under the test's prefix, with its milliseconds to live."""
    return {key: client.pttl(key) for key in client.scan_iter(match=f"{prefix}:rate:*", count=1000)}


def test_one_token_spelled_every_way_gets_no_more_than_its_limit_in_a_window(limited: Any) -> None:
    app, _ = limited(rate_per_token=TOKEN_LIMIT, rate_window_seconds=60)
    client = app.test_client()
    game = new_tiny(client)
    token = game["seats"][0]["token"]
    answers = [client.get(f"/v1/games/{game['id']}", headers={"Authorization": h}) for h in spellings(token)]
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(200) == TOKEN_LIMIT, f"{statuses.count(200)} of {len(statuses)} spellings got through"
    assert set(statuses) <= {200, 429}, f"a spelling did not authenticate: {statuses}"
    refused = answers[-1]
    assert refused.mimetype == "application/problem+json" and refused.get_json()["code"] == "rate_limited"
    assert 58 <= int(refused.headers["Retry-After"]) <= 60, "Retry-After is what is left of the window"


def test_a_header_that_is_not_a_bearer_token_counts_against_the_address_alone(limited: Any, prefix: str) -> None:
    app, platform = limited(rate_per_address=6, rate_per_token=1, rate_window_seconds=60)
    client = app.test_client()
    here = {"REMOTE_ADDR": "10.7.7.7"}
    headers = ["Basic dXNlcjpwYXNz", "Bearer", "Bearer   ", "Token abc", "bearertok", "Bearer"]
    statuses = [client.get("/v1/kinds", headers={"Authorization": h}, environ_base=here).status_code for h in headers]
    assert statuses == [200] * 6, "none of these is a token, so no token limit applies"
    assert client.get("/v1/kinds", environ_base=here).status_code == 429, "all six counted against the address"
    assert list(rate_keys(platform.redis, prefix)) == [f"{prefix}:rate:ip:10.7.7.7".encode()]


def test_one_token_from_many_threads_and_workers_gets_no_more_than_its_limit(limited: Any) -> None:
    workers = [limited(rate_per_token=TOKEN_LIMIT, rate_window_seconds=60)[0] for _ in range(4)]
    game = new_tiny(workers[0].test_client())
    url = f"/v1/games/{game['id']}"
    headers = spellings(game["seats"][0]["token"])
    threads, each = 32, 6
    start = threading.Barrier(threads)
    statuses: list[int] = []
    lock = threading.Lock()

    def send(number: int) -> None:
        client = workers[number % len(workers)].test_client()
        start.wait()
        for request in range(each):
            status = client.get(url, headers={"Authorization": headers[(number * each + request) % len(headers)]})
            with lock:
                statuses.append(status.status_code)

    senders = [threading.Thread(target=send, args=(n,)) for n in range(threads)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(timeout=60)
    assert len(statuses) == threads * each and set(statuses) <= {200, 429}
    assert statuses.count(200) == TOKEN_LIMIT, f"{statuses.count(200)} of {len(statuses)} got through"


def test_no_counter_is_ever_left_without_an_expiry(limited: Any, prefix: str) -> None:
    """Windows of 20 ms, so thousands of requests cross hundreds of window ends, while a
    killer deletes counters mid-window: at no moment, and not at the end, does any
    counter under the prefix lack an expiry."""
    app, platform = limited(rate_per_token=3, rate_per_address=12, rate_window_seconds=0.02)
    seconds, threads = 3.0, 12
    tokens = [f"tok-{n}" for n in range(4)]
    stop = threading.Event()
    statuses: list[int] = []
    without_expiry: set[bytes] = set()
    lock = threading.Lock()

    def send(number: int) -> None:
        client = app.test_client()
        here = {"REMOTE_ADDR": f"10.8.0.{number % 4}"}
        sent = 0
        while not stop.is_set():
            sent += 1
            headers = {"Authorization": f"Bearer {tokens[sent % 4]}"} if sent % 5 else {}
            status = client.get("/v1/kinds", headers=headers, environ_base=here).status_code
            with lock:
                statuses.append(status)

    def kill() -> None:
        watcher = redis.Redis.from_url(platform.config.redis_url or "")
        while not stop.is_set():
            for key, left in rate_keys(watcher, prefix).items():
                if left == -1:
                    without_expiry.add(key)
                watcher.delete(key)
        watcher.close()

    workers = [threading.Thread(target=send, args=(n,)) for n in range(threads)] + [threading.Thread(target=kill)]
    for worker in workers:
        worker.start()
    time.sleep(seconds)
    stop.set()
    for worker in workers:
        worker.join(timeout=30)
    left_over = {key: left for key, left in rate_keys(platform.redis, prefix).items() if left == -1}
    assert not without_expiry and not left_over, f"counters without an expiry: {without_expiry | set(left_over)}"
    assert set(statuses) == {200, 429}, "the limits were reached and windows ended"
    assert len(statuses) >= 1000, f"only {len(statuses)} requests"


def test_a_counter_left_without_an_expiry_gets_one_and_a_fresh_window(limited: Any) -> None:
    app, platform = limited(rate_per_token=TOKEN_LIMIT, rate_per_address=50, rate_window_seconds=10)
    client = app.test_client()
    game = new_tiny(client)
    token = game["seats"][0]["token"]
    address_key = platform.key("rate", "ip", "10.9.9.9")
    token_key = platform.key("rate", "token", hashlib.sha256(token.encode()).hexdigest())
    for key in (address_key, token_key):
        platform.redis.set(key, 5373)  # as the old SET NX / INCR pair could leave it
    here = {"REMOTE_ADDR": "10.9.9.9"}
    answer = client.get(f"/v1/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}, environ_base=here)
    assert answer.status_code == 200, "an address or token is never refused forever"
    for key in (address_key, token_key):
        assert 0 < platform.redis.pttl(key) <= 10_000 and int(platform.redis.get(key) or 0) == 1


def test_x_forwarded_for_is_ignored_unless_proxies_are_trusted(limited: Any) -> None:
    app, _ = limited(rate_per_address=3, rate_window_seconds=60)
    client = app.test_client()
    here = {"REMOTE_ADDR": "10.6.6.6"}
    forged = [{"X-Forwarded-For": f"203.0.113.{n}"} for n in range(5)]
    spoofed = [client.get("/v1/kinds", headers=headers, environ_base=here) for headers in forged]
    assert [a.status_code for a in spoofed] == [200, 200, 200, 429, 429], "a forged X-Forwarded-For is no new address"
    assert client_address("10.0.0.2", "1.1.1.1, 198.51.100.7", 1) == "198.51.100.7"
    assert client_address("10.0.0.2", "1.1.1.1, 198.51.100.7, 10.0.0.3", 2) == "198.51.100.7"
    assert client_address("10.0.0.2", "198.51.100.7", 2) == "10.0.0.2", "fewer hops than proxies: the peer"
    trusted = ("10.0.0.0/8",)
    assert client_address("10.0.0.2", "1.1.1.1, 198.51.100.7, 10.0.0.3", trusted) == "198.51.100.7"
    assert client_address("198.51.100.9", "1.1.1.1", trusted) == "198.51.100.9", "an untrusted peer's header is ignored"
    assert parse_trusted_proxies("") == 0 and parse_trusted_proxies("2") == 2
    assert parse_trusted_proxies("10.0.0.0/8, 192.0.2.1") == ("10.0.0.0/8", "192.0.2.1")
