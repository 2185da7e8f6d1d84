"""One prefix of a log everywhere: every read of a game sees versions 1 to some N that its
head vouched for when the read began, never a mix of two moments, and a log that lost any
of them is answered ``log_damaged`` by every route, as ``/replay`` answers it.

Given a game that bots play as fast as they can, when the operator audits and exports it
over and over while they play, then every audit passes and every export verifies (an
audit that read the log before the head called the log cut short, and an export that
read the log after its header ran past the head it named). Given a log whose tail an
operator deleted while the API had its table cached, then the paged feed, the history,
the replay and the stream all answer ``log_damaged`` instead of the shorter game; and a
stream that meets a hole in the log part-way ends with the problem as an event."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest
import redis

from core.config import Config
from core.tooling import audit_game, export_lines
from games.bots import greedy_bot
from service import fanout, verifier
from service.app import create_app
from service.crowd import HUB
from stores.platform import Platform
from tests.short import short
from tests.tooling.conftest import humans, play

TRIES = 50


@pytest.fixture
def on_redis(prefix: str, real_redis: redis.Redis) -> Platform:
    return Platform(Config(redis_url="unused", prefix=prefix), real_redis)


class Bots:
    """A thread that plays games of ``kind`` with greedy bots in every seat, one after
    another, through a platform of its own (another process, as far as reads go)."""

    def __init__(self, platform: Platform, kind: str, seats: int) -> None:
        self.platform, self.kind, self.seats = platform, kind, seats
        self.current = platform.handler.create_game(kind, humans(seats), short(kind)).table.game_id
        self.moves = 0
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Bots:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(30)
        assert self.error is None, self.error

    def _run(self) -> None:
        rng = random.Random(7)
        try:
            table = self.platform.handler.load(self.current)
            while not self.stop.is_set():
                if table.status != "active":
                    table = self.platform.handler.create_game(self.kind, humans(self.seats), short(self.kind)).table
                    self.current = table.game_id
                    continue
                seat = min(table.to_act())
                action = greedy_bot(table.game, table.state, seat, rng)
                table = self.platform.handler.act(table.game_id, seat, action, table.version).table
                self.moves += 1
        except BaseException as error:  # reported by __exit__
            self.error = error


@pytest.mark.parametrize("kind,seats", [("fortress-royals", 2), ("stomping-grounds", 3)])
def test_audit_and_export_of_games_bots_are_playing_are_honest_every_time(
    kind: str, seats: int, prefix: str, real_redis: redis.Redis
) -> None:
    writer = Platform(Config(redis_url="unused", prefix=prefix), real_redis)
    # The operator's tool: another process on the same Redis, with nothing cached.
    reader = Platform(Config(redis_url="unused", prefix=prefix), real_redis)
    failures: list[str] = []
    with Bots(writer, kind, seats) as bots:
        for _ in range(TRIES):
            game_id = bots.current
            report = audit_game(reader, game_id)
            if not report.ok:
                failures.append(f"audit of {game_id}: {report.first_bad_version} {report.reason}")
            export = "\n".join(export_lines(reader, game_id))
            verdict = verifier.verify(verifier.parse_record(export))
            if not verdict.ok:
                failures.append(f"export of {game_id}: {verdict.first_bad_version} {verdict.reason}")
        moves = bots.moves
    assert moves > TRIES, "the bots must be playing while the game is read"
    assert failures == [], f"{len(failures)} of {2 * TRIES} reads dishonest: {failures[:5]}"


def cut_game(platform: Platform, cut: int = 3) -> tuple[str, int]:
    """A finished tiny game whose last ``cut`` events were deleted from the stream (XDEL,
    as an operator with write access could), the head left as it was: ``(id, head)``."""
    table = platform.handler.create_game("tiny", humans(2)).table
    table = play(platform, table, random.Random(3))
    head = table.version
    key = platform.store.key(table.game_id, "events")
    platform.redis.xdel(key, *(f"{version}-0" for version in range(head - cut + 1, head + 1)))
    return table.game_id, head


def assert_damaged(answer: object, head: int, kept: int) -> None:
    body = answer.get_json()  # type: ignore[attr-defined]
    assert answer.status_code == 500, (answer.status_code, body)  # type: ignore[attr-defined]
    assert body["code"] == "log_damaged" and body["head_version"] == head and body["version"] == kept, body


def test_a_cut_tail_is_never_served_shorter_by_any_route(on_redis: Platform) -> None:
    # The API's process played the game: its table is cached at the head, so loading it
    # reads nothing and cannot see the cut; every read of the log must.
    game_id, head = cut_game(on_redis)
    kept = head - 3
    client = create_app(platform=on_redis).test_client()
    assert client.get(f"/v1/games/{game_id}").status_code == 200  # the cached table, not the log
    for after in (0, kept - 1, kept):
        assert_damaged(client.get(f"/v1/games/{game_id}/events?after={after}&limit=1000"), head, kept)
    # A page that ends before the cut is whole, and says where the log goes on.
    page = client.get(f"/v1/games/{game_id}/events?after=0&limit=2")
    assert page.status_code == 200 and [e["version"] for e in page.get_json()["events"]] == [1, 2]
    # A past version inside the cut is folded from the log (the head's own view is the
    # cached table, whole).
    assert_damaged(client.get(f"/v1/games/{game_id}/history/{kept + 1}"), kept + 1, kept)
    assert_damaged(client.get(f"/v1/games/{game_id}/replay"), head, kept)
    for resume in ({"Last-Event-ID": "0"}, {"Last-Event-ID": str(kept)}):
        stream = client.get(f"/v1/games/{game_id}/events/stream", headers=resume)
        assert stream.headers["Content-Type"].startswith("application/problem+json")
        assert_damaged(stream, head, kept)


def sse_messages(chunks: Iterator[bytes | str]) -> list[str]:
    text = "".join(chunk.decode() if isinstance(chunk, bytes) else chunk for chunk in chunks)
    return [message for message in text.split("\n\n") if message]


def test_a_stream_that_meets_a_hole_part_way_ends_with_the_problem(
    on_redis: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pages of 5: the first is read before the stream answers; the hole at version 12 is
    # met while streaming, after 200 was sent, and the page it lies in is not sent.
    monkeypatch.setattr(fanout, "PAGE", 5)
    monkeypatch.setattr(on_redis, "config", replace(on_redis.config, heartbeat_seconds=0.2))
    table = on_redis.handler.create_game("tiny", humans(2)).table
    table = play(on_redis, table, random.Random(4))
    assert table.version > 15
    on_redis.redis.xdel(on_redis.store.key(table.game_id, "events"), "12-0")
    app = create_app(platform=on_redis)
    client = app.test_client()
    stream = client.get(f"/v1/games/{table.game_id}/events/stream", buffered=False)
    assert stream.status_code == 200
    messages = sse_messages(stream.response)
    ids = [int(line[4:]) for message in messages for line in message.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, 11)), ids
    last = messages[-1].splitlines()
    assert last[0] == "event: problem", messages[-1]
    problem = json.loads(last[1].removeprefix("data: "))
    assert problem["code"] == "log_damaged" and problem["version"] == 11 and problem["status"] == 500
    # The game's reader stops once its last listener has left (before the test's Redis goes).
    hub = app.extensions[HUB]
    deadline = time.monotonic() + 10
    while hub.readers():
        assert time.monotonic() < deadline, "the reader did not stop"
        time.sleep(0.05)
