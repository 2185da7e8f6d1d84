"""Webhooks: a player registers URLs for its notices; the workers POST each
notice signed (HMAC-SHA256 over the timestamp and the body), retry with backoff, send a
notice noted twice once under one delivery id, and never tell a webhook of another
player's notices. The receiver is a real HTTP server on 127.0.0.1, which the test's
allow-list admits (loopback only); the address rules are checked with and without it."""

from __future__ import annotations

import ipaddress
import json
import subprocess
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import fakeredis
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rq import Queue, SimpleWorker
from rq.registry import ScheduledJobRegistry

from core.config import Config, parse_webhook_allow
from core.errors import CommandError
from core.jobs import queue_names
from core.webhooks import EVENTS, MAX_PER_PLAYER, AllowList, NoDeliveryRunner, Target, carried_ipv4, delivery_id
from projections.inbox import Inbox
from service.app import create_app
from stores.platform import Platform
from tests.api.conftest import bearer
from tests.webhook_receiver import Receiver, verified
from workers import runtime, wiring
from workers.projector import Projector
from workers.scheduling import InlineBots
from workers.webhooks import deliver, sweep
from workers.wiring import wire

LOOPBACK = ("127.0.0.0/8", "::1")
HOOKS = "/v1/players/me/webhooks"


def make_platform(allow: tuple[str, ...] = LOOPBACK, attempts: int = 8) -> Platform:
    config = Config(
        redis_url="fake",
        rate_per_address=10**6,
        rate_per_token=10**6,
        webhook_allow=allow,
        webhook_retry_seconds=10,
        webhook_attempts=attempts,
    )
    p = wire(Platform(config, fakeredis.FakeRedis()), bots=False)
    p.handler.scheduler = InlineBots(p)
    return p


@pytest.fixture
def platform() -> Iterator[Platform]:
    p = make_platform()
    wiring.use(p)  # the jobs a worker runs here act through this platform
    yield p
    runtime._override.remove(p)


@pytest.fixture
def app(platform: Platform) -> Flask:
    return create_app(platform.config, platform)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver().start()
    yield r
    r.stop()


def register(client: FlaskClient, name: str) -> tuple[dict[str, Any], dict[str, str]]:
    answer = client.post("/v1/players", json={"name": name})
    assert answer.status_code == 201, answer.get_json()
    player = answer.get_json()
    return player, bearer(player["key"])


def hook(client: FlaskClient, key: dict[str, str], receiver: Receiver, path: str, **extra: Any) -> dict[str, Any]:
    """Register a webhook at the receiver's ``path``, telling the receiver its secret."""
    answer = client.post(HOOKS, json={"url": receiver.url(path), **extra}, headers=key)
    assert answer.status_code == 201, answer.get_json()
    created = answer.get_json()
    receiver.secrets[path] = created["secret"]
    return created


def webhook_keys(platform: Platform) -> list[bytes]:
    return list(platform.redis.scan_iter(match="*webhooks*"))


def drain(platform: Platform) -> None:
    """The projector applies the feed (noting the notices, starting their deliveries)."""
    projector = Projector(platform, "webhooks-test")
    projector.ensure_group()
    while projector.step(block_ms=None):
        pass


def work(platform: Platform) -> None:
    """An RQ worker runs the long-work queue (where deliveries go) until it is empty."""
    queue = queue_names(platform.config.prefix)[1]
    SimpleWorker([queue], connection=platform.queue_redis).work(burst=True, logging_level="ERROR")


def game_of(client: FlaskClient, ann: dict[str, str], bob: dict[str, str], **extra: Any) -> dict[str, Any]:
    """A tiny game between ann's player (seat 0) and bob's (seat 1, joined)."""
    game = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True}], **extra}, headers=ann
    ).get_json()
    assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob).status_code == 200
    return game


def act(client: FlaskClient, game: dict[str, Any], key: dict[str, str], amount: int = 1) -> None:
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    done = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "add", "amount": amount}, "expected_version": version},
        headers=key,
    )
    assert done.status_code == 200, done.get_json()


def deliveries(client: FlaskClient, key: dict[str, str], webhook: str) -> list[dict[str, Any]]:
    answer = client.get(f"{HOOKS}/{webhook}/deliveries", headers=key)
    assert answer.status_code == 200, answer.get_json()
    return list(answer.get_json()["deliveries"])


# -- registering -------------------------------------------------------------------


def test_a_player_registers_a_webhook_and_its_secret_is_shown_once(client: FlaskClient, platform: Platform) -> None:
    _, ann = register(client, "ann")
    answer = client.post(HOOKS, json={"url": "http://127.0.0.1:9/hook?x=1", "events": ["your_turn"]}, headers=ann)
    assert answer.status_code == 201 and answer.headers["Cache-Control"] == "no-store"
    created = answer.get_json()
    assert set(created) == {"id", "url", "events", "secret", "created_at"}
    assert created["url"] == "http://127.0.0.1:9/hook?x=1" and created["events"] == ["your_turn"]
    assert created["secret"].startswith("whsec_") and len(created["secret"]) > 40
    assert answer.headers["Location"] == f"{HOOKS}/{created['id']}"
    everything = client.post(HOOKS, json={"url": "https://127.0.0.1/all"}, headers=ann).get_json()
    assert everything["events"] == list(EVENTS)  # no events: all of them
    listed = client.get(HOOKS, headers=ann).get_json()["webhooks"]
    assert [h["id"] for h in listed] == [created["id"], everything["id"]]
    assert all("secret" not in h for h in listed)
    assert created["secret"] not in json.dumps(listed)
    assert deliveries(client, ann, created["id"]) == []


@pytest.mark.parametrize("route", ["POST", "GET", "DELETE", "DELIVERIES"])
@pytest.mark.parametrize("who", ["nobody", "seat token", "unknown key", "revoked key"])
def test_the_webhook_routes_need_the_player_s_key(
    client: FlaskClient, platform: Platform, route: str, who: str
) -> None:
    player, ann = register(client, "ann")
    mine = client.post(HOOKS, json={"url": "http://127.0.0.1/a"}, headers=ann).get_json()
    game = client.post("/v1/games", json={"kind": "tiny", "players": [{"name": "x"}, {"name": "y"}]}).get_json()
    if who == "revoked key":
        client.delete("/v1/players/me/key", headers=ann)
    headers = {
        "nobody": {},
        "seat token": bearer(game["seats"][0]["token"]),
        "unknown key": bearer("tsp_" + "x" * 43),
        "revoked key": ann,
    }[who]
    before = sorted(webhook_keys(platform))
    answer = {
        "POST": lambda: client.post(HOOKS, json={"url": "http://127.0.0.1/b"}, headers=headers),
        "GET": lambda: client.get(HOOKS, headers=headers),
        "DELETE": lambda: client.delete(f"{HOOKS}/{mine['id']}", headers=headers),
        "DELIVERIES": lambda: client.get(f"{HOOKS}/{mine['id']}/deliveries", headers=headers),
    }[route]()
    assert answer.status_code == 401 and answer.get_json()["code"] == "unauthorized"
    assert sorted(webhook_keys(platform)) == before
    kept = [h["id"] for h in platform.webhooks.of_player(player["id"])]
    assert kept == ([] if who == "revoked key" else [mine["id"]])  # a revoked player's webhooks went with its key


BAD_URLS = [
    ("ftp://127.0.0.1/x", "http or https"),
    ("javascript:alert(1)", "http or https"),
    ("file:///etc/passwd", "http or https"),
    ("127.0.0.1/hook", "http or https"),
    ("http://user:pw@127.0.0.1/", "user name or password"),
    ("http://user@127.0.0.1/", "user name or password"),
    ("http://127.0.0.1:99999/", "malformed"),
    ("http://127.0.0.1:port/", "malformed"),
    ("http://127.0.0.1:0/", "port 0"),
    ("http:///path", "no host"),
    ("http://127.0.0.1/#frag", "fragment"),
    ("http://127.0.0.1/a b", "space"),
    ("http://127.0.0.1/\u00e9", "ASCII"),
    ("http://exa_mple.com/", "neither an address nor a DNS name"),
    ("http://127.0.0.1/" + "a" * 2000, "over 2000"),
    ("http://10.0.0.1/", "does not call"),  # private, and not on the allow-list
    ("http://8.8.8.8/", "does not call"),  # public, and not on the allow-list
    ("http://localhost/", "does not call"),  # a name the allow-list does not list
    ("http://[fe80::1]/", "does not call"),
    ("http://127.1/", "form other than the standard one"),
    ("http://2130706433/", "form other than the standard one"),
    ("http://0x7f.0.0.1/", "form other than the standard one"),
    ("http://[::1%25lo]/", "IPv6 zone"),
]


@pytest.mark.parametrize(("url", "why"), BAD_URLS)
def test_a_bad_url_is_refused_with_the_rule_and_nothing_is_stored(
    client: FlaskClient, platform: Platform, url: str, why: str
) -> None:
    _, ann = register(client, "ann")
    answer = client.post(HOOKS, json={"url": url}, headers=ann)
    problem = answer.get_json()
    assert answer.status_code == 422 and problem["code"] == "invalid_request", problem
    assert why in problem["detail"] and "http:// or https://" in problem["rule"]
    assert webhook_keys(platform) == [] and client.get(HOOKS, headers=ann).get_json()["webhooks"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"url": "http://127.0.0.1/", "events": []},
        {"url": "http://127.0.0.1/", "events": ["your_turn", "your_turn"]},
        {"url": "http://127.0.0.1/", "events": ["nope"]},
        {"url": "http://127.0.0.1/", "events": "chat"},
        {"url": "http://127.0.0.1/", "events": [1]},
        {"url": 42},
        {"url": None},
        {},
        {"url": "http://127.0.0.1/", "secret": "mine"},
    ],
)
def test_wrong_events_or_fields_are_refused_and_nothing_is_stored(
    client: FlaskClient, platform: Platform, body: dict[str, Any]
) -> None:
    _, ann = register(client, "ann")
    answer = client.post(HOOKS, json=body, headers=ann)
    assert answer.status_code == 422 and answer.get_json()["code"] == "invalid_request", answer.get_json()
    assert webhook_keys(platform) == []


def test_a_player_has_at_most_five_webhooks(client: FlaskClient, platform: Platform) -> None:
    _, ann = register(client, "ann")
    made = [client.post(HOOKS, json={"url": f"http://127.0.0.1/{i}"}, headers=ann) for i in range(MAX_PER_PLAYER)]
    assert [m.status_code for m in made] == [201] * MAX_PER_PLAYER
    stored = sorted(webhook_keys(platform))
    over = client.post(HOOKS, json={"url": "http://127.0.0.1/over"}, headers=ann)
    assert over.status_code == 422 and "at most 5 webhooks" in over.get_json()["rule"]
    assert sorted(webhook_keys(platform)) == stored
    assert client.delete(f"{HOOKS}/{made[0].get_json()['id']}", headers=ann).status_code == 204
    assert client.post(HOOKS, json={"url": "http://127.0.0.1/again"}, headers=ann).status_code == 201
    _, bob = register(client, "bob")  # the cap is per player
    assert client.post(HOOKS, json={"url": "http://127.0.0.1/bob"}, headers=bob).status_code == 201


def test_another_player_neither_sees_nor_deletes_a_webhook(client: FlaskClient, platform: Platform) -> None:
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    mine = client.post(HOOKS, json={"url": "http://127.0.0.1/a"}, headers=ann).get_json()
    assert client.get(HOOKS, headers=bob).get_json()["webhooks"] == []
    for answer in (
        client.delete(f"{HOOKS}/{mine['id']}", headers=bob),
        client.get(f"{HOOKS}/{mine['id']}/deliveries", headers=bob),
        client.delete(f"{HOOKS}/wh_nothing", headers=ann),
        client.get(f"{HOOKS}/wh_nothing/deliveries", headers=ann),
    ):
        assert answer.status_code == 404 and answer.get_json()["code"] == "not_found"
    assert [h["id"] for h in client.get(HOOKS, headers=ann).get_json()["webhooks"]] == [mine["id"]]
    assert client.delete(f"{HOOKS}/{mine['id']}", headers=ann).status_code == 204
    assert client.get(HOOKS, headers=ann).get_json()["webhooks"] == [] and webhook_keys(platform) == []


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "127.9.9.9",
        "[::1]",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "[::]",
        "[fe80::1]",
        "[fc00::1]",
        "[::ffff:127.0.0.1]",
        "[::ffff:10.0.0.1]",
        "224.0.0.1",
        "255.255.255.255",
        "localhost",
        "db.localhost",
        "printer.local",
        "metadata.internal",
    ],
)
def test_by_default_only_public_hosts_are_accepted(host: str) -> None:
    """No allow-list (production's default): loopback, private, link-local, shared,
    unspecified, mapped, multicast and broadcast addresses, and local names, are refused."""
    p = make_platform(allow=())
    with pytest.raises(Exception, match="does not call") as refused:
        p.webhooks.register("pl_x", f"http://{host}/hook", None)
    assert getattr(refused.value, "code", None) == "invalid_request"
    assert webhook_keys(p) == []


def test_by_default_public_hosts_and_names_are_accepted() -> None:
    p = make_platform(allow=())
    for url in ("https://hooks.example.com/x", "http://93.184.216.34:8080/", "https://[2606:4700::1111]/h"):
        assert p.webhooks.register("pl_x", url, None)["url"] == url


def test_the_allow_list_takes_names_wildcards_and_networks() -> None:
    allow = AllowList.of(parse_webhook_allow("hooks.example.com, *.corp.example, 10.1.0.0/16, ::1"))
    assert allow.host_refusal("hooks.example.com") is None and allow.host_refusal("a.b.corp.example") is None
    assert allow.host_refusal("example.com") == "example.com is not a listed name"
    assert allow.host_refusal("corp.example") is not None
    assert allow.host_refusal("10.1.2.3") is None and allow.host_refusal("::1") is None
    assert allow.host_refusal("10.2.0.1") == "10.2.0.1 is in none of the listed networks"
    assert allow.host_refusal("8.8.8.8") is not None  # a list admits only what it names
    # At delivery, a listed name must still resolve to public addresses or listed networks.
    assert allow.address_refusal(ipaddress.ip_address("93.184.216.34")) is None
    assert allow.address_refusal(ipaddress.ip_address("10.1.9.9")) is None
    assert allow.address_refusal(ipaddress.ip_address("127.0.0.1")) == "a loopback address"
    assert allow.address_refusal(ipaddress.ip_address("192.168.0.1")) == "a private address"
    with pytest.raises(ValueError, match="TABLESTREAM_WEBHOOK_ALLOW"):
        parse_webhook_allow("good.example, bad_name!")


# -- delivering --------------------------------------------------------------------


def test_a_notice_reaches_the_webhook_signed_as_the_readme_says(
    client: FlaskClient, platform: Platform, receiver: Receiver
) -> None:
    ann_player, ann = register(client, "ann")
    _, bob = register(client, "bob")
    created = hook(client, ann, receiver, "/ann", events=["your_turn"])
    game = game_of(client, ann, bob)
    drain(platform)
    work(platform)
    got = receiver.at("/ann")
    assert len(got) == 1, [r.payload for r in got]
    sent = got[0]
    # As a receiver checks it: the signature over "<timestamp>.<body>" with the secret,
    # compared in constant time, and a timestamp within its tolerance.
    assert verified(created["secret"], sent.headers, sent.body)
    assert not verified("whsec_another", sent.headers, sent.body)
    assert not verified(created["secret"], sent.headers, sent.body + b" ")
    assert not verified(created["secret"], sent.headers, sent.body, now=time.time() + 3600)
    assert receiver.bad_signatures == 0
    body = sent.payload
    assert set(body) == {"id", "webhook", "notice"} and body["webhook"] == created["id"]
    assert sent.headers["Tablestream-Delivery"] == body["id"] and sent.headers["Content-Type"] == "application/json"
    assert sent.headers["Tablestream-Signature"].startswith("sha256=")
    assert body["notice"] == {"type": "your_turn", "game": game["id"], "kind": "tiny", "version": 3, "seat": 0}
    assert body["id"] == delivery_id(created["id"], body["notice"])
    [listed] = deliveries(client, ann, created["id"])
    assert listed["id"] == body["id"] and listed["status"] == "delivered" and listed["attempts"] == 1
    assert listed["last_status"] == 200 and listed["last_error"] is None and listed["type"] == "your_turn"
    assert listed["next_attempt_at"] is None and listed["last_attempt_at"] is not None
    assert ann_player["id"] not in json.dumps(body)  # the notice as the inbox has it, nothing more


def test_a_failing_receiver_gets_retries_with_backoff_then_success(
    client: FlaskClient, platform: Platform, receiver: Receiver
) -> None:
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    created = hook(client, ann, receiver, "/ann", events=["your_turn"])
    receiver.statuses = [500, 503]
    game_of(client, ann, bob)
    drain(platform)
    work(platform)  # the first attempt: 500
    [first] = deliveries(client, ann, created["id"])
    assert first["status"] == "retrying" and first["attempts"] == 1 and first["last_status"] == 500
    assert first["last_error"] == "HTTP 500"
    waits = [gap(first)]
    # Its next attempt is a job RQ's scheduler starts when it is due.
    queue = Queue(queue_names(platform.config.prefix)[1], connection=platform.queue_redis)
    scheduled = ScheduledJobRegistry(queue=queue)
    assert len(scheduled.get_job_ids()) == 1
    # The retries, run as the scheduler would when each is due (a clock the test controls).
    clock = time.time() + waits[0] + 1
    assert deliver(platform, first["id"], clock=lambda: clock) == "retrying"  # 503
    [second] = deliveries(client, ann, created["id"])
    assert second["attempts"] == 2 and second["last_status"] == 503 and second["status"] == "retrying"
    waits.append(gap(second))
    early = clock + 1
    assert deliver(platform, first["id"], clock=lambda: early) == "not due"  # a job too early sends nothing
    clock += waits[1] + 1
    assert deliver(platform, first["id"], clock=lambda: clock) == "delivered"
    [third] = deliveries(client, ann, created["id"])
    assert third["status"] == "delivered" and third["attempts"] == 3 and third["last_status"] == 200
    assert waits == [10, 20]  # exponential: the configured first wait, then doubled
    got = receiver.at("/ann")
    assert [r.headers["Tablestream-Attempt"] for r in got] == ["1", "2", "3"]
    assert {r.delivery for r in got} == {first["id"]} and receiver.applied == [first["id"]]
    assert deliver(platform, first["id"], clock=lambda: clock + 1000) == "done"  # delivered is never sent again
    assert len(receiver.at("/ann")) == 3


def gap(delivery: dict[str, Any]) -> float:
    """Seconds between a delivery's last attempt and its next."""
    last = datetime.fromisoformat(delivery["last_attempt_at"].replace("Z", "+00:00"))
    following = datetime.fromisoformat(delivery["next_attempt_at"].replace("Z", "+00:00"))
    return round((following - last).total_seconds())


def test_a_receiver_that_keeps_failing_ends_failed_after_the_last_attempt(receiver: Receiver) -> None:
    p = make_platform(attempts=3)
    client = create_app(p.config, p).test_client()
    _, ann = register(client, "ann")
    created = hook(client, ann, receiver, "/down")
    receiver.statuses = [500] * 10
    [started] = p.webhooks.notify(
        [(created_player(p, ann, client), {"type": "chat", "game": "g", "message": {"id": "1-0"}})]
    )
    outcomes = []
    clock = time.time()
    for _ in range(5):
        outcomes.append(deliver(p, started, clock=lambda: clock))  # noqa: B023 (called at once)
        clock += 3600
    assert outcomes == ["retrying", "retrying", "failed", "done", "done"]
    [listed] = deliveries(client, ann, created["id"])
    assert listed["status"] == "failed" and listed["attempts"] == 3 and listed["last_error"] == "HTTP 500"
    assert len(receiver.at("/down")) == 3 and p.webhooks.open_deliveries() == []


def created_player(p: Platform, key: dict[str, str], client: FlaskClient) -> str:
    return str(client.get("/v1/players/me", headers=key).get_json()["id"])


def test_the_same_notice_noted_twice_is_one_delivery_sent_once(
    client: FlaskClient, platform: Platform, receiver: Receiver
) -> None:
    """The projector notes at least once (a projector killed before it acks notes again):
    the second noting is the same delivery id, and it is not sent again."""
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    created = hook(client, ann, receiver, "/ann")
    game = game_of(client, ann, bob)
    table = platform.tables.load(game["id"])
    assert table is not None
    inbox = Inbox(platform.redis, platform.config.prefix)
    first = platform.webhooks.notify(inbox.note(None, table))
    again = platform.webhooks.notify(inbox.note(None, table))  # noted again before any was sent
    assert first and again == first
    work(platform)
    after = platform.webhooks.notify(inbox.note(None, table))  # and again once they were sent
    assert after == []
    work(platform)
    got = receiver.at("/ann")
    assert sorted(r.delivery for r in got) == sorted(first) and receiver.repeats == 0
    listed = deliveries(client, ann, created["id"])
    assert sorted(d["id"] for d in listed) == sorted(first) and {d["status"] for d in listed} == {"delivered"}
    assert {r.payload["notice"]["type"] for r in got} == {"seated", "your_turn"}


def test_other_players_notices_never_reach_your_webhook(
    client: FlaskClient, platform: Platform, receiver: Receiver
) -> None:
    ann_player, ann = register(client, "ann")
    bob_player, bob = register(client, "bob")
    _, cid = register(client, "cid")
    hook(client, ann, receiver, "/ann")
    hook(client, bob, receiver, "/bob")
    hook(client, cid, receiver, "/cid")
    game = game_of(client, ann, bob, options={"start": 6})
    act(client, game, ann, 2)
    drain(platform)
    act(client, game, bob, 2)  # 10: bob wins
    assert (
        client.post(f"/v1/games/{game['id']}/chat", json={"channel": "seats", "text": "gg"}, headers=ann).status_code
        == 201
    )
    drain(platform)
    work(platform)
    seat_of = {"/ann": 0, "/bob": 1}
    for path, seat in seat_of.items():
        notices = [r.payload["notice"] for r in receiver.at(path)]
        assert notices and all(n.get("seat", seat) == seat for n in notices), (path, notices)
        assert all(n["game"] == game["id"] for n in notices)
    assert receiver.at("/cid") == []  # cid plays no seat of the game
    assert [
        n.payload["notice"]["message"]["text"] for n in receiver.at("/bob") if n.payload["notice"]["type"] == "chat"
    ] == ["gg"]
    assert not [n for n in receiver.at("/ann") if n.payload["notice"]["type"] == "chat"]  # not to its author
    ended = [r.payload["notice"] for r in receiver.at("/ann") if r.payload["notice"]["type"] == "game_ended"]
    assert len(ended) == 1 and ended[0]["outcome"]["winners"] == [1]
    assert receiver.bad_signatures == 0 and receiver.repeats == 0
    assert ann_player["id"] != bob_player["id"]


def test_a_webhook_gets_only_the_types_it_asked_for(
    client: FlaskClient, platform: Platform, receiver: Receiver
) -> None:
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    hook(client, ann, receiver, "/ended", events=["game_ended"])
    hook(client, ann, receiver, "/chat", events=["chat"])
    game = game_of(client, ann, bob, options={"start": 9})
    act(client, game, ann)
    client.post(f"/v1/games/{game['id']}/chat", json={"channel": "seats", "text": "hi"}, headers=bob)
    drain(platform)
    work(platform)
    assert [r.payload["notice"]["type"] for r in receiver.at("/ended")] == ["game_ended"]
    assert [r.payload["notice"]["type"] for r in receiver.at("/chat")] == ["chat"]


def test_a_name_resolving_to_a_refused_address_is_refused_at_delivery(receiver: Receiver) -> None:
    """The allow-list names "localhost" but lists no loopback network: registering passes
    (the name is listed), and the delivery, which resolves it, refuses to connect."""
    p = make_platform(allow=("localhost",))
    client = create_app(p.config, p).test_client()
    _, ann = register(client, "ann")
    port = receiver.url().split(":")[2].split("/")[0]
    created = client.post(HOOKS, json={"url": f"http://localhost:{port}/hook"}, headers=ann).get_json()
    [started] = p.webhooks.notify(
        [(created_player(p, ann, client), {"type": "chat", "game": "g", "message": {"id": "1-0"}})]
    )
    assert deliver(p, started) == "refused"
    [listed] = deliveries(client, ann, created["id"])
    assert listed["status"] == "failed" and "does not call" in listed["last_error"] and listed["attempts"] == 1
    assert receiver.got == []


def test_a_deleted_webhook_sends_nothing_more(client: FlaskClient, platform: Platform, receiver: Receiver) -> None:
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    created = hook(client, ann, receiver, "/ann")
    game_of(client, ann, bob)
    drain(platform)  # deliveries started, not sent yet
    assert platform.webhooks.open_deliveries()
    assert client.delete(f"{HOOKS}/{created['id']}", headers=ann).status_code == 204
    work(platform)
    assert receiver.got == [] and platform.webhooks.open_deliveries() == [] and webhook_keys(platform) == []


def test_the_deliveries_list_keeps_the_latest_hundred(client: FlaskClient, platform: Platform) -> None:
    player, ann = register(client, "ann")
    created = client.post(HOOKS, json={"url": "http://127.0.0.1:9/", "events": ["chat"]}, headers=ann).get_json()
    notices = [(player["id"], {"type": "chat", "game": "g", "message": {"id": f"{i}-0"}}) for i in range(130)]
    for chunk in range(0, 130, 10):
        platform.webhooks.notify(notices[chunk : chunk + 10])
    listed = deliveries(client, ann, created["id"])
    assert len(listed) == 100
    # The open ones stay open (and their records with them) until they are sent or fail.
    assert len(platform.webhooks.open_deliveries()) == 130


def test_delivery_ids_follow_the_notice_and_the_webhook() -> None:
    notice = {"type": "your_turn", "game": "g1", "kind": "tiny", "version": 4, "seat": 1}
    same = delivery_id("wh_a", dict(notice))
    assert same == delivery_id("wh_a", notice) and same.startswith("whd_")
    assert same != delivery_id("wh_b", notice)
    assert same != delivery_id("wh_a", {**notice, "version": 5})
    assert same != delivery_id("wh_a", {**notice, "type": "undo_requested"})
    chat = {"type": "chat", "game": "g1", "message": {"id": "5-0"}}
    assert delivery_id("wh_a", chat) != delivery_id("wh_a", {**chat, "message": {"id": "5-1"}})


class BrokenRunner:
    """A job runner that cannot be reached (its queue's Redis is down)."""

    def start(self, delivery_ids: Any) -> None:
        raise ConnectionError("the queue's Redis is gone")


def test_a_delivery_whose_job_was_lost_is_sent_by_the_next_worker_s_sweep(
    client: FlaskClient, platform: Platform, receiver: Receiver
) -> None:
    player, ann = register(client, "ann")
    created = hook(client, ann, receiver, "/ann")
    platform.webhooks.runner = BrokenRunner()  # the deliveries are made, their jobs never enqueued
    notice = {"type": "chat", "game": "g", "message": {"id": "7-0"}}
    [lost] = platform.webhooks.notify([(player["id"], notice)])
    work(platform)
    assert receiver.got == [] and [d for d, _ in platform.webhooks.open_deliveries()] == [lost]
    assert sweep(platform) == 1  # as a worker does when it starts
    work(platform)
    assert [r.delivery for r in receiver.got] == [lost]
    assert deliveries(client, ann, created["id"])[0]["status"] == "delivered"
    assert sweep(platform) == 0  # nothing open is left to send


def test_a_delivery_held_by_another_sender_waits_out_its_lease(
    client: FlaskClient, platform: Platform, receiver: Receiver
) -> None:
    """A sender killed mid-request leaves its lease: the next one waits it out, then sends
    the same delivery (under the same id)."""
    player, ann = register(client, "ann")
    hook(client, ann, receiver, "/ann")
    platform.webhooks.runner = NoDeliveryRunner()
    [held] = platform.webhooks.notify([(player["id"], {"type": "chat", "game": "g", "message": {"id": "8-0"}})])
    assert platform.webhooks.lease(held, 0.3) is not None  # the killed sender's, lapsing
    assert platform.webhooks.lease(held, 15) is None  # no second sender while it holds
    assert deliver(platform, held) == "delivered"
    assert [r.delivery for r in receiver.got] == [held] and receiver.bad_signatures == 0


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    url=st.builds(
        lambda scheme, rest: scheme + rest,
        st.sampled_from(["http://", "https://", "HTTP://", "ftp://", "", "http:", "//"]),
        st.text(max_size=60) | st.from_regex(r"[\[\]a-z0-9.:@%/?#_-]{0,40}", fullmatch=True),
    )
)
@example(url="http://127.0.0.1/")
@example(url="https://[::1]:8443/x?y=1")
@example(url="HTTP://127.0.0.2:80")
@example(url="http://[::1")
@example(url="http://127.0.0.1:0/")
@example(url="http://[64:ff9b::127.0.0.1]/")
def test_any_url_is_either_registered_or_refused_with_the_rule(url: str) -> None:
    """No URL, however malformed, gets past the rules by raising something else."""
    p = make_platform()
    try:
        created = p.webhooks.register("pl_x", url, None)
    except CommandError as refused:
        assert refused.code == "invalid_request" and "http:// or https://" in refused.extra["rule"]
        assert webhook_keys(p) == []
        return
    # The allow-list lists loopback networks only: what passed names a loopback address,
    # or an IPv6 form carrying loopback addresses only.
    target = Target.parse(url, p.webhooks.allow)
    assert created["url"] == url and target.scheme in ("http", "https")
    address = ipaddress.ip_address(target.host)
    carried = carried_ipv4(address) if isinstance(address, ipaddress.IPv6Address) else ()
    assert address.is_loopback or (carried and all(ipv4.is_loopback for _, ipv4 in carried))


def self_signed(directory: Path) -> tuple[str, str]:
    """A certificate for 127.0.0.1 that no default trust store holds, and its key."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return str(cert), str(key)


def test_https_is_sent_only_to_a_certificate_the_sender_trusts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over https the certificate is verified for the URL's host: an untrusted one fails
    the attempt (nothing reaches the receiver); once its issuer is trusted, it is sent."""
    receiver = Receiver(tls=self_signed(tmp_path)).start()
    try:
        p = make_platform()
        p.webhooks.runner = NoDeliveryRunner()
        created = p.webhooks.register("pl_x", receiver.url("/tls"), None)
        receiver.secrets["/tls"] = created["secret"]
        [started] = p.webhooks.notify([("pl_x", {"type": "chat", "game": "g", "message": {"id": "9-0"}})])
        assert deliver(p, started) == "retrying"
        failed = p.webhooks.delivery(started)
        assert failed is not None and "CERTIFICATE_VERIFY_FAILED" in (failed.error or "")
        assert receiver.got == []
        monkeypatch.setenv("SSL_CERT_FILE", receiver.tls[0] if receiver.tls else "")
        assert deliver(p, started, clock=lambda: time.time() + 60) == "delivered"
        assert [r.delivery for r in receiver.got] == [started] and receiver.bad_signatures == 0
    finally:
        receiver.stop()


def test_a_revoked_player_s_webhooks_go_and_send_nothing_more(
    client: FlaskClient, platform: Platform, receiver: Receiver
) -> None:
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    hook(client, ann, receiver, "/ann")
    hook(client, ann, receiver, "/ann2")
    game_of(client, ann, bob)
    drain(platform)  # deliveries started, not sent yet
    assert client.delete("/v1/players/me/key", headers=ann).status_code == 204
    work(platform)
    assert receiver.got == [] and webhook_keys(platform) == []
