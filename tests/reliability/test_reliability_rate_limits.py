"""One token bursting at 10x its rate limit gets 429 with Retry-After,
while other tokens' p99 latency stays within 2x of its unloaded value in every one of
three rounds (real server, gunicorn, a Redis of the test's own; the test runs alone, in
the suite's ``solo`` step, so that no other test's load is measured). And attacks on the
limiter itself, in-process on the real test Redis: one token's header spelled many ways,
one token from many threads, counters deleted mid-window and windows ending between
steps (no counter may ever be left without an expiry), a counter left without one by an
older version."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
import requests
from flask import Flask

from core.config import Config, parse_trusted_proxies
from service.app import create_app
from service.ratelimit import client_address
from stores.platform import Platform
from tests.api.conftest import new_tiny
from tests.reliability.procs import Api, RedisServer, service_env

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

LIMIT = 20  # requests per second per token
BURST = 10 * LIMIT
SENDERS = 2  # keep-alive connections of the noisy client (many-connection floods: the in-process tests below)
SAMPLES = 400  # the p99 is then the fifth slowest: one stray pause does not decide it
# Each round takes its samples in this many alternating parts, unloaded then loaded, so
# that the machine's own slow spells (a shared VM's: an unloaded p99 of 91 ms once, 6 ms
# the round before) fall on both sides of the comparison alike rather than on one.
PARTS = 4
QUIET_GAMES = 6  # the quiet client takes turns over these games' seats (twelve tokens)...
PACE = 1 / 144  # ...at 144 requests a second in all, 12 a token, under the limit of each
ROUNDS = 3  # and every round must meet the bound


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def quiet_latencies(seats: list[tuple[str, str]], samples: int = SAMPLES) -> tuple[list[float], list[int]]:
    """``samples`` reads of the games' boards, each seat's token in turn, one at a time."""
    session = requests.Session()
    for url, token in seats:
        session.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    latencies, statuses = [], []
    for number in range(samples):
        url, token = seats[number % len(seats)]
        started = time.perf_counter()
        response = session.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=10)
        latencies.append(time.perf_counter() - started)
        statuses.append(response.status_code)
        time.sleep(max(0.0, PACE - latencies[-1]))
    return latencies, statuses


def raw_answer(reader: Any) -> tuple[int, dict[str, str]]:
    """Read one HTTP/1.1 answer off a keep-alive connection: its status and headers (the
    body, sized by Content-Length, is read and dropped)."""
    status = int(reader.readline().split()[1])
    headers = {}
    while (line := reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    reader.read(int(headers.get("content-length", "0")))
    return status, headers


def burst(url: str, token: str, orders: Any, results: Any) -> None:
    """On each "go" in ``orders``, send BURST requests a second under ``token`` from SENDERS
    threads until "stop"; then put back every answer's status and Retry-After, and the
    seconds sent for. "quit" ends the process (one process serves every part of a round:
    starting one costs more than a part's measurement)."""
    # On this one machine the noisy client's own CPU would compete with the server it
    # floods; a real noisy client runs elsewhere, so here it yields the CPU first and
    # speaks HTTP/1.1 over plain sockets (a fraction of a client library's CPU per request).
    os.nice(10)
    parts = urlsplit(url)
    wire = (f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAuthorization: Bearer {token}\r\n\r\n").encode()
    results.put("ready")
    while (order := orders.get()) == "go":
        stop = threading.Event()
        answers: list[tuple[int, str | None]] = []
        lock = threading.Lock()

        def send(stop: threading.Event, lock: threading.Lock, answers: list[tuple[int, str | None]]) -> None:
            connection = socket.create_connection((parts.hostname, parts.port), timeout=10)
            reader = connection.makefile("rb")
            gap = SENDERS / BURST  # BURST requests a second in all, each thread on its own schedule
            due = time.monotonic()
            while not stop.is_set():
                connection.sendall(wire)
                status, headers = raw_answer(reader)
                with lock:
                    answers.append((status, headers.get("retry-after")))
                if headers.get("connection", "").lower() == "close":
                    reader.close()
                    connection.close()
                    connection = socket.create_connection((parts.hostname, parts.port), timeout=10)
                    reader = connection.makefile("rb")
                due += gap
                time.sleep(max(0.0, due - time.monotonic()))
            reader.close()
            connection.close()

        threads = [threading.Thread(target=send, args=(stop, lock, answers), daemon=True) for _ in range(SENDERS)]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        results.put("started")
        assert orders.get() == "stop"
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        results.put((answers, time.monotonic() - started))
    assert order == "quit", order


@pytest.mark.solo
def test_a_burst_at_ten_times_the_limit_is_throttled_and_others_stay_fast(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    env = service_env(own_redis.url, "rate", TABLESTREAM_RATE_PER_TOKEN=str(LIMIT))
    api = Api(env, tmp_path / "api.log").start()
    try:
        games = [
            requests.post(
                f"{api.base}/v1/games", json={"kind": "fortress-royals", "players": [{"name": "ann"}, {"name": "bob"}]}
            ).json()
            for _ in range(QUIET_GAMES + 1)
        ]
        url = f"{api.base}/v1/games/{games[0]['id']}"
        noisy = games[0]["seats"][0]["token"]
        quiet = [(f"{api.base}/v1/games/{game['id']}", seat["token"]) for game in games[1:] for seat in game["seats"]]
        rounds: list[dict[str, Any]] = []
        # A first round warms the server (gunicorn's threads, the 429 path, the games' tables)
        # and is not counted: in CI its loaded p99 once paid for that alone (148.8 ms against
        # 6.6 unloaded), while the next two rounds met the bound.
        for number in range(ROUNDS + 1):
            unloaded: list[float] = []
            loaded: list[float] = []
            quiet_statuses: list[int] = []
            answers: list[tuple[int, str | None]] = []
            seconds = 0.0
            # The noisy client is a process of its own: threads here would share the
            # quiet client's interpreter lock and slow the measurement, not the server.
            context = multiprocessing.get_context("spawn")
            orders, results = context.Queue(), context.Queue()
            noisy_process = context.Process(target=burst, args=(url, noisy, orders, results), daemon=True)
            noisy_process.start()
            try:
                assert results.get(timeout=60) == "ready"
                for _ in range(PARTS if number else 1):  # one part warms up as well as four
                    time.sleep(1.1)  # a fresh rate window
                    unloaded += quiet_latencies(quiet, SAMPLES // PARTS)[0]
                    orders.put("go")
                    assert results.get(timeout=60) == "started"
                    part, statuses = quiet_latencies(quiet, SAMPLES // PARTS)
                    orders.put("stop")
                    sent, took = results.get(timeout=60)
                    loaded += part
                    quiet_statuses += statuses
                    accepted_now = [a for a in sent if a[0] == 200]
                    assert len(accepted_now) <= LIMIT * (took + 2), "the noisy token got through more than its limit"
                    answers += sent
                    seconds += took
                orders.put("quit")
                noisy_process.join(timeout=30)
            finally:
                if noisy_process.is_alive():
                    noisy_process.kill()
                    noisy_process.join(timeout=10)
            refused = [a for a in answers if a[0] == 429]
            accepted = [a for a in answers if a[0] == 200]
            rounds.append(
                {
                    "warm_up": number == 0,
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
            assert len(refused) >= len(answers) // 2
            assert len(answers) >= 0.8 * BURST * seconds, "the noisy client did not reach 10x the limit"
            assert set(quiet_statuses) == {200}, "a quiet token was throttled"
    finally:
        api.stop()
    for number, figures in enumerate(rounds, 1):
        print(f"rate limits, round {number}: {figures}")
    counted = [r for r in rounds if not r["warm_up"]]
    assert len(counted) == ROUNDS
    slow = [n for n, r in enumerate(counted, 1) if r["p99_loaded_ms"] > 2 * r["p99_unloaded_ms"]]
    assert not slow, f"rounds {slow} broke 2x: {counted}"


# -- attacks on the limiter itself, in-process on the real test Redis ------

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
    # Retry-After is when the next request would be allowed: one interval, 60 s / 5.
    assert 11 <= int(refused.headers["Retry-After"]) <= 12, refused.headers["Retry-After"]


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
    # At least ``seconds``, and on a busy machine until enough requests have gone through
    # (the count is what crosses window ends, not the time).
    started = time.monotonic()
    while time.monotonic() - started < seconds or (len(statuses) < 1200 and time.monotonic() - started < 60):
        time.sleep(0.05)
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
    # Read as a client at rest: one request spent one interval (10 s / 5 for the token,
    # 10 s / 50 for the address), and the state expires when that interval is over.
    for key, interval in ((address_key, 200), (token_key, 2_000)):
        assert 0 < platform.redis.pttl(key) <= interval, (key, platform.redis.pttl(key))


def test_a_token_known_over_its_limit_is_refused_before_routing_with_the_same_answer(limited: Any) -> None:
    """Once Redis has refused a token, this process refuses it until Redis would allow it
    again without routing the request or asking Redis: a path that does not exist is 429,
    not 404, and the answer is the one Redis's refusal gave (problem+json, its status in
    the body, Retry-After, CORS for an allowed origin), counted in the metrics."""
    from service.http import REFUSED_BEFORE_ROUTING
    from service.metrics import metrics

    app, platform = limited(rate_per_token=2, rate_window_seconds=60, cors_origins=("https://app.example",))
    client = app.test_client()
    game = new_tiny(client)
    headers = {"Authorization": f"Bearer {game['seats'][0]['token']}", "Origin": "https://app.example"}
    url = f"/v1/games/{game['id']}"
    assert [client.get(url, headers=headers).status_code for _ in range(2)] == [200, 200]
    by_redis = client.get(url, headers=headers)
    # Every command the requests send (the test client serves them on this thread), from
    # any client, alone or in a pipeline; the server's own count would take in the other
    # tests running in parallel meanwhile.
    sent: list[object] = []
    here = threading.get_ident()
    execute, execute_pipeline = redis.Redis.execute_command, redis.client.Pipeline.execute

    def counted(self: redis.Redis, *args: Any, **options: Any) -> Any:
        if threading.get_ident() == here:
            sent.append(args[0])
        return execute(self, *args, **options)

    def counted_pipeline(self: redis.client.Pipeline, *args: Any, **options: Any) -> Any:
        if threading.get_ident() == here:
            sent.extend(command[0] for command, _ in self.command_stack)
        return execute_pipeline(self, *args, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(redis.Redis, "execute_command", counted)
        patch.setattr(redis.client.Pipeline, "execute", counted_pipeline)
        early = [client.get(path, headers=headers) for path in (url, "/v1/no/such/route", url)]
        platform.redis.ping()  # (this one is counted: the count sees this client)
    for answer in [by_redis, *early]:
        assert answer.status_code == 429 and answer.mimetype == "application/problem+json"
        body = answer.get_json()
        assert body["status"] == 429 and body["code"] == "rate_limited"
        assert answer.headers["Retry-After"] == by_redis.headers["Retry-After"] == "30"
        assert answer.headers["Access-Control-Allow-Origin"] == "https://app.example"
        assert "Retry-After" in answer.headers["Access-Control-Expose-Headers"]
    assert sent == ["PING"], f"Redis commands for three early refusals (one: the PING): {sent}"
    labels = {"route": REFUSED_BEFORE_ROUTING, "method": "GET", "status": "429"}
    assert metrics(app).registry.get_sample_value("tablestream_requests_total", labels) == 3
    other = new_tiny(client)
    answer = client.get(f"/v1/games/{other['id']}", headers={"Authorization": f"Bearer {other['seats'][0]['token']}"})
    assert answer.status_code == 200, "another token is not refused"


def test_a_flood_gets_its_allowance_spread_out_never_a_window_at_once(limited: Any) -> None:
    """From rest a token may send its limit at once; a flood after that gets one request
    an interval (window / limit), never the whole allowance again at a window's start,
    and a refused request spends nothing: the flood gets exactly what an idle client
    waiting for each interval would.

    Both are checked against each refusal, which is what the algorithm promises however
    the flood's threads are scheduled. Redis decided each request at some instant between
    its sending and its answer. A refusal means less than one request's credit was left
    then; from there credit comes back at one request an interval, so up to any later
    moment fewer than 1 + elapsed / interval more can be allowed. And since refusals spend
    nothing, by each refusal the token has had all it was owed since some moment when its
    credit was full at most. A loaded machine that stalls the six threads, or slows them
    below one request an interval, lets credit build up only to the limit, as it would for
    an idle client."""
    limit, window = 10, 1.0
    app, _ = limited(rate_per_token=limit, rate_window_seconds=window)
    game = new_tiny(app.test_client())
    url, headers = f"/v1/games/{game['id']}", {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    accepted: list[tuple[float, float]] = []  # (sent, answered)
    refused: list[tuple[float, float]] = []
    other: list[int] = []  # any other answer (an assert in a thread would only end the thread)
    lock = threading.Lock()
    stop = threading.Event()

    def flood() -> None:
        client = app.test_client()
        while not stop.is_set():
            sent = time.monotonic()
            status = client.get(url, headers=headers).status_code
            with lock:
                if status in (200, 429):
                    (accepted if status == 200 else refused).append((sent, time.monotonic()))
                else:
                    other.append(status)

    threads = [threading.Thread(target=flood) for _ in range(6)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(3.0)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    seconds = time.monotonic() - started
    interval = window / limit
    slack = 0.05  # Redis's clock counts whole microseconds, its waits whole milliseconds
    assert not other, f"answers other than 200 and 429: {sorted(set(other))}"
    assert len(accepted) <= limit + seconds / interval + 1, len(accepted)
    assert refused and max(sent for sent, _ in refused) > started + 2.0, "the flood was refused to its end"

    # Owed, the token bucket's own account: credit never exceeds the limit, comes back at one
    # request an interval, and a refusal means less than one request's credit was left. So
    # a refusal decided at d has, since some moment s, allowed more than the limit less one
    # plus one an interval since s (s just before an allowance is decided; credit was full
    # there at most). Where the flood sent more slowly than credit came back (a loaded
    # machine stalls its threads), credit that found the bucket full was lost, as it is for
    # an idle client: s after that moment accounts for it. A limiter that handed out a
    # window at once, or spent credit on a refusal, refuses with no such s.
    def owed_and_had(refused_sent: float, refused_answered: float) -> tuple[float, int]:
        """The allowance nearest to being short at this refusal: (owed, had)."""
        nearest = (float("inf"), 0)
        for base_sent, base_answered in accepted:
            if base_sent > refused_answered:
                continue
            # Every allowance decided between s and the refusal was answered after s's
            # allowance was sent, and sent before the refusal was answered.
            had = sum(1 for sent, answered in accepted if answered >= base_sent and sent <= refused_answered)
            owed = limit - 1 + (refused_sent - base_answered) / interval
            if had - owed > nearest[1] - nearest[0]:
                nearest = (owed, had)
        return nearest

    for refused_sent, refused_answered in sorted(refused):
        owed, had = owed_and_had(refused_sent, refused_answered)
        assert had > owed - slack, f"a refusal {refused_sent - started:.3f} s in, after {had} of {owed:.1f} owed"
        # After it: count what Redis can only have allowed between the refusal and each answer.
        later = sorted(answered for sent, answered in accepted if sent >= refused_answered)
        for count, answered in enumerate(later, start=1):
            assert count < 1 + (answered - refused_sent) / interval + slack, (
                f"{count} allowed within {(answered - refused_sent) * 1000:.0f} ms of a refusal"
            )


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
