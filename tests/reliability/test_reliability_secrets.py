"""Check 8 of issue 12: no secret leaves before the end. For every kind, 50 random games
(two played to the end, one by humans in every seat and one by a human against bots; the
others, every seat a human, stopped after a random number of actions);
every byte of every response and Server-Sent Events message sent to a seat (and to a
spectator) is scanned for that seat's secrets at the time: the cards hidden from it
(``game.secrets(state, seat)``), the game's seed before the end, other seats' tokens."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from flask.testing import FlaskClient

from games import registry
from projections.table import Table, evolve
from service.app import create_app
from service.platform import Platform
from tests.games.contract import quoted

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

GAMES = int(__import__("os").environ.get("RELIABILITY_SECRET_GAMES", "50"))
FINISHED = 2
SHORT_ACTIONS = (4, 16)


class Scanner:
    """Scans what one game sends each viewer against that viewer's secrets: an event or an
    SSE message against the secrets at its version, a view against those at the view's
    version; tokens and (before the end) the seed in every byte."""

    def __init__(self, platform: Platform, client: FlaskClient, game: dict[str, Any]) -> None:
        self.platform, self.client = platform, client
        self.id = game["id"]
        self.tokens = {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}
        self.viewers: list[int | None] = [None, *self.tokens]
        self.seed = platform.vault.seed(self.id).encode()
        self.seen_events = {v: 0 for v in self.viewers}
        self.seen_stream = {v: 0 for v in self.viewers}
        self.last: dict[int | None, dict[str, Any]] = {}
        self.tables: dict[int, Table] = {}
        self.hidden: dict[tuple[int | None, int], list[bytes]] = {}
        self.responses = self.sse_messages = self.bytes = 0
        self.leaks: list[str] = []

    def headers(self, viewer: int | None) -> dict[str, str]:
        return {} if viewer is None else {"Authorization": f"Bearer {self.tokens[viewer]}"}

    def table_at(self, version: int) -> Table:
        if version not in self.tables:
            for envelope in self.platform.store.read(self.id, after=max(self.tables, default=0)):
                self.tables[envelope.version] = evolve(
                    self.tables.get(envelope.version - 1), envelope, self.tables.__getitem__
                )
        return self.tables[version]

    def over(self) -> bool:
        return self.table_at(self.platform.store.last_version(self.id)).status == "finished"

    def scan(self, viewer: int | None, payload: bytes, version: int | None, where: str) -> None:
        """``payload`` against the tokens of other seats and the seed (before the end), and,
        when ``version`` is given, against the cards hidden from ``viewer`` at that version."""
        over = self.over()
        secrets = [t.encode() for s, t in self.tokens.items() if s != viewer]
        if not over:
            secrets.append(self.seed)
            if version is not None:
                if (viewer, version) not in self.hidden:
                    table = self.table_at(version)
                    cards = table.game.secrets(table.state, viewer) if table.state is not None else frozenset()
                    self.hidden[viewer, version] = [c.encode() for c in quoted(cards)]
                secrets += self.hidden[viewer, version]
        leaked = [s.decode() for s in secrets if s in payload]
        if leaked:
            self.leaks.append(f"{where} (version {version}) to {viewer}: {leaked[:3]} in {payload[:400]!r}")

    def scan_events(self, viewer: int | None, raw: bytes, events: list[dict[str, Any]], where: str) -> None:
        self.bytes += len(raw)
        self.scan(viewer, raw, None, where)
        for event in events:
            self.scan(viewer, json.dumps(event).encode(), event["version"], f"{where} {event['type']}")

    def look(self, viewer: int | None, events: bool = True, stream: bool = False) -> dict[str, Any]:
        """The viewer's view, and its new events as a page and as SSE messages when asked (an
        event is checked against the secrets at its own version, so reading later is as strict)."""
        response = self.client.get(f"/v1/games/{self.id}", headers=self.headers(viewer))
        assert response.status_code == 200, response.get_data(as_text=True)
        game = response.get_json()
        self.responses += 1
        self.bytes += len(response.get_data())
        self.scan(viewer, response.get_data(), game["version"], "view")
        if events:
            path = f"/v1/games/{self.id}/events?after={self.seen_events[viewer]}&limit=1000"
            response = self.client.get(path, headers=self.headers(viewer))
            assert response.status_code == 200, response.get_data(as_text=True)
            page = response.get_json()
            self.responses += 1
            self.scan_events(viewer, response.get_data(), page["events"], "events page")
            self.seen_events[viewer] = page["next_after"]
        if stream and game["version"] > self.seen_stream[viewer]:
            self.stream(viewer, game["version"])
        self.last[viewer] = game
        return game

    def stream(self, viewer: int | None, until: int) -> None:
        headers = {**self.headers(viewer), "Last-Event-ID": str(self.seen_stream[viewer])}
        response = self.client.get(f"/v1/games/{self.id}/events/stream", headers=headers, buffered=False)
        assert response.status_code == 200
        self.responses += 1
        try:
            for chunk in response.response:
                message = chunk if isinstance(chunk, bytes) else chunk.encode()
                self.sse_messages += 1
                self.bytes += len(message)
                version = int(message.split(b"\n", 1)[0][4:]) if message.startswith(b"id: ") else None
                self.scan(viewer, message, version, "SSE message")
                if version is not None:
                    self.seen_stream[viewer] = version
                    if version >= until:
                        break
        finally:
            response.close()

    def act(self, rng: random.Random) -> bool:
        """One random legal action by a seat to act (as its last look showed); False once over."""
        summary = self.last[None]
        if summary["status"] != "active":
            return False
        seats = [s for s in summary["to_act"] if s in self.tokens]
        if not seats:
            return False
        seat = rng.choice(seats)
        game = self.last[seat]
        body = {"action": rng.choice(game["legal_actions"]), "expected_version": game["version"]}
        response = self.client.post(f"/v1/games/{self.id}/actions", json=body, headers=self.headers(seat))
        assert response.status_code == 200, response.get_data(as_text=True)
        self.responses += 1
        self.scan_events(seat, response.get_data(), response.get_json()["events"], "action answer")
        return True


@pytest.mark.parametrize("kind", [k for k in registry.keys() if k != "tiny"])
def test_no_response_or_sse_message_carries_a_seats_secret(inline_platform: Platform, kind: str) -> None:
    game_kind = registry.get(kind)
    assert game_kind is not None
    client = create_app(inline_platform.config, inline_platform).test_client()
    rng = random.Random(kind)
    started = time.monotonic()
    totals = {"responses": 0, "sse": 0, "bytes": 0, "actions": 0, "finished": 0}
    leaks: list[str] = []
    for index in range(GAMES):
        count = game_kind.min_players + index % (game_kind.max_players - game_kind.min_players + 1)
        played_out = index < FINISHED
        if index == 0:
            players = [{"name": "ann"}] + [{"bot": "random"} for _ in range(game_kind.min_players - 1)]
        else:
            players = [{"name": f"p{i}"} for i in range(count)]
        created = client.post("/v1/games", json={"kind": kind, "players": players})
        assert created.status_code == 201, created.get_data(as_text=True)
        scanner = Scanner(inline_platform, client, created.get_json())
        for viewer in scanner.viewers:
            scanner.look(viewer, events=played_out, stream=played_out)
        budget = 5000 if played_out else rng.randint(*SHORT_ACTIONS)
        for step in range(budget):
            if not scanner.act(rng):
                break
            totals["actions"] += 1
            # Once a game is over everything is public: read a game that will end as it goes.
            for viewer in scanner.viewers:
                scanner.look(viewer, events=played_out, stream=played_out and step % 3 == 2)
        for viewer in scanner.viewers:
            scanner.look(viewer, events=True, stream=True)
        finished = scanner.look(None)["status"] == "finished"
        assert finished or not played_out, f"{kind} game {index} did not end"
        totals["finished"] += finished
        totals["responses"] += scanner.responses
        totals["sse"] += scanner.sse_messages
        totals["bytes"] += scanner.bytes
        leaks += scanner.leaks
    print(
        f"secrets {kind}: {GAMES} games ({totals['finished']} finished), {totals['actions']} actions; scanned "
        f"{totals['responses']} responses and {totals['sse']} SSE messages ({totals['bytes'] / 1e6:.1f} MB) "
        f"in {time.monotonic() - started:.1f} s: secrets found {len(leaks)}"
    )
    assert not leaks, leaks[:5]
