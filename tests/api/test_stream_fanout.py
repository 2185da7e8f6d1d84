"""A game's live stream is read once per process and shared (``service.fanout``), and
streams are capped per address and per token (``service.crowd``).

Given listeners of one game of every kind of viewer, when the game is played, then each
gets every version once and in order, exactly what the paged feed shows that viewer,
from one reader, with each event rendered once per kind of viewer and not once per
listener; a listener too slow for its batches still gets everything; and over a cap a
stream is refused with ``429 too_many_streams`` and ``Retry-After``."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import fanout
from service.app import create_app
from service.crowd import HUB
from stores.platform import Platform
from tests.api.conftest import bearer, new_tiny
from tests.api.test_games_api import act

VIEWERS = {"spectator": None, "seat 0": 0, "seat 1": 1}


@pytest.fixture(autouse=True)
def quick_heartbeat(platform: Platform, monkeypatch: pytest.MonkeyPatch) -> None:
    # A reader with no listener left stops after its current wait, a heartbeat long.
    monkeypatch.setattr(platform, "config", replace(platform.config, heartbeat_seconds=1))


class Listening:
    """One stream of the test client, opened and read to its end by a thread of its own
    (an open stream keeps its request's context pushed on the thread that opened it)."""

    def __init__(self, client: FlaskClient, game: dict[str, Any], seat: int | None) -> None:
        headers = {} if seat is None else bearer(game["seats"][seat]["token"])
        self.text = ""
        self.thread = threading.Thread(target=self._read, args=(client, game["id"], headers), daemon=True)
        self.thread.start()

    def _read(self, client: FlaskClient, game_id: str, headers: dict[str, str]) -> None:
        self.response = client.get(f"/v1/games/{game_id}/events/stream", headers=headers, buffered=False)
        for chunk in self.response.response:
            self.text += chunk.decode() if isinstance(chunk, bytes) else chunk

    def ids(self) -> list[int]:
        return [int(line[4:]) for line in self.text.splitlines() if line.startswith("id: ")]

    def data(self) -> list[str]:
        return [line[6:] for line in self.text.splitlines() if line.startswith("data: ")]


def hub_of(app: Flask) -> fanout.Hub:
    return app.extensions[HUB]


def wait_until(condition: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.01)


def listeners_of(app: Flask, game_id: str) -> int:
    hub = app.extensions.get(HUB)
    if hub is None:
        return 0
    reader = hub._readers.get(game_id)
    return 0 if reader is None else len(reader.listeners)


def play_to_the_end(client: FlaskClient, game: dict[str, Any]) -> None:
    """Seat 0 draws a hidden card first, then both add until one wins."""
    while True:
        state = client.get(f"/v1/games/{game['id']}").get_json()
        if state["status"] == "finished":
            return
        action = {"type": "draw"} if state["version"] == game["version"] else {"type": "add", "amount": 2}
        assert act(client, game, state["to_act"][0], action, state["version"]).status_code == 200


def test_listeners_share_one_reader_and_each_event_is_rendered_once_per_kind_of_viewer(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_tiny(client)
    rendered: Counter[tuple[int, int | None]] = Counter()
    real = fanout.event_for

    def counted(table: Any, envelope: Any, seat: int | None, seed: str | None = None) -> dict[str, Any]:
        rendered[(envelope.version, seat)] += 1
        return real(table, envelope, seat, seed)

    monkeypatch.setattr(fanout, "event_for", counted)
    listening = {name: [Listening(client, game, seat) for _ in range(4)] for name, seat in VIEWERS.items()}
    wait_until(lambda: listeners_of(app, game["id"]) == 12)
    assert hub_of(app).readers() == 1
    opened_at = game["version"]
    # What each listener reads from the log before the live events is its own: a listener
    # joins its reader first and then reads its past, so wait until every one has it.
    everyone = [one for group in listening.values() for one in group]
    wait_until(lambda: all(len(one.ids()) >= opened_at for one in everyone))
    rendered.clear()

    play_to_the_end(client, game)
    for group in listening.values():
        for one in group:
            one.thread.join(timeout=20)
            assert not one.thread.is_alive(), "a stream of a finished game did not end"

    final = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    for name in VIEWERS:
        for one in listening[name]:
            assert one.ids() == list(range(1, final + 1))
        assert len({one.text for one in listening[name]}) == 1, f"the {name}s were shown different streams"
    live = {version for version, _ in rendered}
    assert live == set(range(opened_at + 1, final + 1))
    assert max(rendered.values()) == 1, "an event was rendered more than once for one kind of viewer"
    wait_until(lambda: hub_of(app).readers() == 0, seconds=hub_of(app).wait_seconds + 5)


def test_a_stream_shows_each_viewer_what_the_paged_feed_shows_it(app: Flask, client: FlaskClient) -> None:
    game = new_tiny(client)
    listening = {name: Listening(client, game, seat) for name, seat in VIEWERS.items()}
    wait_until(lambda: listeners_of(app, game["id"]) == 3)
    version = game["version"]
    version = act(client, game, 0, {"type": "draw"}, version).get_json()["version"]
    version = act(client, game, 1, {"type": "add", "amount": 1}, version).get_json()["version"]
    for name, seat in VIEWERS.items():
        headers = {} if seat is None else bearer(game["seats"][seat]["token"])
        page = client.get(f"/v1/games/{game['id']}/events?after=0", headers=headers).get_json()
        wait_until(lambda one=listening[name]: len(one.ids()) >= version)
        assert [json.loads(data) for data in listening[name].data()[:version]] == page["events"], name
    # The drawn card is the drawer's alone while the game is on.
    drawn = {name: [json.loads(d)["data"] for d in one.data() if '"CardDrawn"' in d] for name, one in listening.items()}
    assert drawn["seat 1"] == drawn["spectator"] == [{}] != drawn["seat 0"]
    play_to_the_end(client, game)


def test_a_listener_too_slow_for_its_batches_still_gets_every_version_in_order(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fanout, "BACKLOG", 1)
    game = new_tiny(client)
    reading = threading.Event()

    def slow_reader() -> None:
        response = client.get(f"/v1/games/{game['id']}/events/stream", buffered=False)
        chunks = iter(response.response)
        found.append(next(chunks).decode())  # joined: its retry line is sent
        reading.wait()
        found.extend(chunk.decode() for chunk in chunks)

    found: list[str] = []
    slow = threading.Thread(target=slow_reader, daemon=True)
    slow.start()
    wait_until(lambda: listeners_of(app, game["id"]) == 1)
    play_to_the_end(client, game)  # every batch but the first is dropped: its queue holds one
    reading.set()
    slow.join(timeout=20)
    text = "".join(found)
    final = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, final + 1))


class Held:
    """A stream held open by a thread of its own until ``close``; its answer's status and,
    when refused, its problem."""

    def __init__(self, client: FlaskClient, path: str, **options: Any) -> None:
        self.answered = threading.Event()
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self._hold, args=(client, path, options), daemon=True)
        self.thread.start()
        assert self.answered.wait(10)

    def _hold(self, client: FlaskClient, path: str, options: dict[str, Any]) -> None:
        response = client.get(path, buffered=False, **options)
        self.status, self.headers = response.status_code, response.headers
        self.problem = response.get_json() if response.status_code != 200 else None
        self.answered.set()
        self.closing.wait()
        response.close()

    def close(self) -> None:
        self.closing.set()
        self.thread.join(timeout=10)


def test_streams_over_the_address_or_token_cap_are_refused_with_retry_after(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platform, "config", replace(platform.config, streams_per_address=2, streams_per_token=1))
    client = create_app(platform.config, platform).test_client()
    game = new_tiny(client)
    path = f"/v1/games/{game['id']}/events/stream"
    seat_0 = bearer(game["seats"][0]["token"])
    first = Held(client, path)
    second = Held(client, path, headers=seat_0)
    over_address = Held(client, path)
    assert (first.status, second.status, over_address.status) == (200, 200, 429)
    assert over_address.problem["code"] == "too_many_streams"
    assert int(over_address.headers["Retry-After"]) >= 1
    # Another address has its own allowance, but a token's cap holds whatever the address.
    elsewhere = {"REMOTE_ADDR": "10.1.2.3"}
    other = Held(client, path, environ_base=elsewhere)
    same_token = Held(client, path, environ_base=elsewhere, headers=seat_0)
    assert (other.status, same_token.status) == (200, 429)
    assert "token" in same_token.problem["detail"]
    # A stream that ends gives its place back.
    first.close()
    again = Held(client, path)
    assert again.status == 200
    for held in (second, over_address, other, same_token, again):
        held.close()


def test_every_version_is_sent_when_it_is_read_even_where_this_process_already_knows_newer_ones(
    app: Flask, client: FlaskClient, platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The process's table cache holds the versions its own requests appended, often ahead
    # of the reader's wait; reading one event at a time makes that the rule here. A
    # reader that moved on to the cache's version would skip the rest until a heartbeat.
    monkeypatch.setattr(fanout, "PAGE", 1)
    monkeypatch.setattr(platform, "config", replace(platform.config, heartbeat_seconds=60))
    game = new_tiny(client)
    listening = Listening(client, game, 1)
    wait_until(lambda: listeners_of(app, game["id"]) == 1)
    play_to_the_end(client, game)
    listening.thread.join(timeout=20)
    assert not listening.thread.is_alive(), "the stream waited for a heartbeat to send what was appended"
    final = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    assert listening.ids() == list(range(1, final + 1))


def test_a_reader_whose_read_fails_in_any_way_reads_again_and_its_listeners_get_everything(
    app: Flask, client: FlaskClient, platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: a store whose next two blocking reads fail, once as Redis and once as a
    # connection closed under the client's buffer (as when a cluster node goes away)
    game = new_tiny(client)
    real = platform.store.wait_for_either
    failures = [ValueError("I/O operation on closed file."), fanout.RedisError("Connection closed by server.")]

    def flaky(*args: Any, **kwargs: Any) -> Any:
        if failures:
            raise failures.pop()
        return real(*args, **kwargs)

    monkeypatch.setattr(fanout, "RETRY_SECONDS", 0.05)
    monkeypatch.setattr(platform.store, "wait_for_either", flaky)
    # when: a listener follows the game while it is played to the end
    listening = Listening(client, game, None)
    wait_until(lambda: listeners_of(app, game["id"]) == 1)
    play_to_the_end(client, game)
    listening.thread.join(timeout=20)
    # then: the reader lived through both, and the stream held every version once, in order
    final = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    assert not failures and not listening.thread.is_alive()
    assert listening.ids() == list(range(1, final + 1))
    assert ": store unavailable, retrying" in listening.text


def test_a_stopping_server_ends_every_stream_after_what_it_was_handed(app: Flask, client: FlaskClient) -> None:
    # given: listeners of a game under way, one of each kind
    game = new_tiny(client)
    version = act(client, game, 0, {"type": "draw"}, game["version"]).get_json()["version"]
    listening = {name: Listening(client, game, seat) for name, seat in VIEWERS.items()}
    wait_until(lambda: listeners_of(app, game["id"]) == 3)
    wait_until(lambda: all(len(one.ids()) == version for one in listening.values()))
    # when: the server stops
    hub_of(app).end_streams()
    # then: each stream ends at once, with every version so far and the word to reconnect
    for name, one in listening.items():
        one.thread.join(timeout=5)
        assert not one.thread.is_alive(), f"the {name}'s stream outlived the stop"
        assert one.ids() == list(range(1, version + 1)), name
        assert one.text.endswith(": this server is stopping; reconnect\n\n"), one.text[-200:]
    # and a stream opened while it stops gets what it missed, then ends the same way
    late = Listening(client, game, 1)
    late.thread.join(timeout=5)
    assert not late.thread.is_alive() and late.ids() == list(range(1, version + 1))
    assert late.text.endswith(": this server is stopping; reconnect\n\n")
    wait_until(lambda: hub_of(app).readers() == 0, seconds=hub_of(app).wait_seconds + 5)
