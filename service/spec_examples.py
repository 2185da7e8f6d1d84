"""Writes the recorded examples of openapi.yaml from a session with the real service.

The Flask app runs in this process on fakeredis, with RQ's jobs run inline, and one
scripted session calls every operation of the contract through Flask's test client:
players register and rotate keys, a webhook is registered, games of three kinds are
created with fixed seeds, joined, claimed, played, talked over, undone, forked, read
back, replayed and audited, resigned, aborted and rematched; then the read models are
built and the ratings, leaderboards, profiles, stats and ledger read. The first 2xx
answer of each operation (per media type) becomes ``components.examples.<operationId>``
(``<operationId>_<subtype>`` for a second media type), and the JSON body it sent
``<operationId>_request``. Long lists are cut to their first few items (the example
still fits the schema: tests/api/test_spec_examples.py checks it); a text answer (an
event stream, metrics, a page) is kept as a short excerpt. Ids, tokens and times differ
from run to run; the games do not.

Only the part between the markers is written; each operation's media types refer to
their example by ``examples: {recorded: {$ref: ...}}``, written once by hand.
``python -m service.spec_examples`` rewrites the examples; ``--check`` fails when an
operation's success answer (or JSON request body) has no example, or a reference names
none.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import fakeredis
import yaml
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from core.config import Config
from core.webhooks import NoDeliveryRunner
from events.transparency import Signer, cosign, witness_vkey
from service import yamltext
from service.app import create_app
from stores.platform import Platform
from workers import projector as projector_module
from workers import runtime, scheduling, wiring
from workers.matchmaking import match as match_seeks
from workers.tournaments import step as tournament_step

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"
BEGIN = "    # -- recorded examples: written by `python -m service.spec_examples` from a session with the service --\n"
END = "    # -- end of recorded examples --\n"
EXAMPLE_REF = "#/components/examples/"
METHODS = ("get", "put", "post", "delete", "patch")
OPERATOR = "operator-token-for-the-examples"
SEEDS = {"fortress-royals": "docs-example-1", "dragoborne": "docs-example-2", "fortress-siege": "docs-example-3"}
# Lists cut to their first few items in a recorded answer (never inside a view or an event's data).
CUT = {"events": 3, "legal_actions": 3, "games": 2, "entries": 3, "latest": 2, "history": 3, "deliveries": 2}
KINDS_SHOWN = 2
KEEP_WHOLE = {"view", "views", "data", "sealed", "notice", "options", "outcome"}
CARDS_SHOWN = 4
EXCERPT_LINES = 12
EXCERPT_CHARS = 2500
RULES_CHARS = 700

# A witness the recording's service keeps cosignatures of (its key is ours, for examples).
WITNESS_NAME = "witness.example.org"
WITNESS_SEED = hashlib.sha256(b"tablestream example witness").digest()


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every operation of ``spec``: its path, method and object."""
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def success_media(operation: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """The media types of the operation's 2xx answers: (status, media type, media object)."""
    return [
        (status, media, body)
        for status, response in operation["responses"].items()
        if str(status).startswith("2")
        for media, body in (response.get("content") or {}).items()
    ]


def request_media(operation: dict[str, Any]) -> dict[str, Any] | None:
    return ((operation.get("requestBody") or {}).get("content") or {}).get("application/json")


def example_name(operation: dict[str, Any], media: str) -> str:
    """``<operationId>`` for the first media type of its 2xx answer, else with the subtype."""
    op_id = str(operation["operationId"])
    first = success_media(operation)[0][1]
    if media == first:
        return op_id
    return op_id + "_" + re.sub(r"[^a-z0-9]+", "_", media.split("/", 1)[1].lower()).strip("_")


def cut(value: Any, key: str | None = None) -> Any:
    """``value`` with its long lists cut to their first few items (see CUT)."""
    if key in KEEP_WHOLE:
        return value
    if isinstance(value, dict):
        return {k: cut(v, k) for k, v in value.items()}
    if isinstance(value, list):
        items = value[: CUT[key]] if key in CUT else value
        return [cut(item) for item in items]
    return value


def excerpt(text: str, lines: int = EXCERPT_LINES, chars: int = EXCERPT_CHARS) -> str:
    """The first lines of ``text`` (whole lines, within ``chars``); a first line longer
    than that is cut, and ends with an ellipsis."""
    kept: list[str] = []
    for line in text.splitlines()[:lines]:
        if sum(len(k) + 1 for k in kept) + len(line) > chars:
            if not kept:
                kept.append(line[:chars] + " …")
            break
        kept.append(line)
    return "\n".join(kept) + "\n"


def first_paragraphs(text: str, chars: int = RULES_CHARS) -> str:
    """The first paragraphs of a Markdown text, within ``chars`` (at least one)."""
    kept: list[str] = []
    for paragraph in text.split("\n\n"):
        if kept and sum(len(k) + 2 for k in kept) + len(paragraph) > chars:
            break
        kept.append(paragraph)
    return "\n\n".join(kept)


class Session:
    """Calls the app and keeps the first 2xx answer of each operation."""

    def __init__(self, spec: dict[str, Any], client: FlaskClient) -> None:
        self.client = client
        self.routes: list[tuple[str, re.Pattern[str], dict[str, Any]]] = []
        for path, method, operation in operations(spec):
            pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path))
            if path.endswith("{path}"):
                pattern = pattern[: -len("[^/]+")] + ".+"
            self.routes.append((method, re.compile(pattern + "$"), operation))
        # Literal paths first: /v1/players/me before /v1/players/{name}.
        self.routes.sort(key=lambda route: route[1].pattern.count("[^/]+"))
        self.examples: dict[str, dict[str, Any]] = {}

    def operation(self, method: str, path: str) -> dict[str, Any]:
        bare = path.split("?", 1)[0]
        for verb, pattern, operation in self.routes:
            if verb == method and pattern.match(bare):
                return operation
        raise LookupError(f"{method.upper()} {bare} is no operation of the contract")

    def keep(self, name: str, summary: str, value: Any) -> None:
        self.examples.setdefault(name, {"summary": summary, "value": value})

    def call(
        self,
        method: str,
        path: str,
        note: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        shape: Callable[[Any], Any] = cut,
    ) -> TestResponse:
        """Send the request; it must succeed. Its answer (and JSON body) are kept as the
        operation's examples when they are its first."""
        response = self.client.open(path, method=method.upper(), json=body, headers=headers or {})
        if not 200 <= response.status_code < 300:
            raise RuntimeError(f"{method.upper()} {path}: {response.status_code} {response.get_data(as_text=True)}")
        operation = self.operation(method, path)
        if body is not None and request_media(operation) is not None:
            self.keep(f"{operation['operationId']}_request", f"{note} (the request)", body)
        if response.status_code != 204:
            media = response.mimetype or ""
            if media == "application/json":
                value: Any = shape(response.get_json())
            else:
                value = excerpt(response.get_data(as_text=True))
            self.keep(example_name(operation, media), note, value)
        return response

    def stream(self, path: str, note: str, headers: dict[str, str] | None = None, messages: int = 3) -> None:
        """Read an event stream's first ``messages`` messages (heartbeats aside) and keep them."""
        response = self.client.get(path, headers=headers or {}, buffered=False)
        if response.status_code != 200:
            raise RuntimeError(f"GET {path}: {response.status_code} {response.get_data(as_text=True)}")
        heard: list[str] = []
        try:
            for chunk in response.response:
                text = chunk.decode() if isinstance(chunk, bytes) else str(chunk)
                heard.extend(part + "\n\n" for part in text.split("\n\n") if part.strip() and not part.startswith(":"))
                if len(heard) >= messages:
                    break
        finally:
            response.close()
        media = response.mimetype or ""
        self.keep(example_name(self.operation("get", path), media), note, "".join(heard[:messages]))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def kinds_shown(body: dict[str, Any]) -> dict[str, Any]:
    """The first kinds, without their options of type array: Spectral's array-items rule
    reads any object of ``type: array`` without ``items`` as a schema, even in an example."""
    kinds = cut(body)["kinds"][:KINDS_SHOWN]
    return {"kinds": [{**k, "options": [o for o in k["options"] if o["type"] != "array"]} for k in kinds]}


def rules_shown(body: dict[str, Any]) -> dict[str, Any]:
    return {**body, "how_to_play": first_paragraphs(body["how_to_play"]), "rulings": first_paragraphs(body["rulings"])}


def cards_shown(body: dict[str, Any]) -> dict[str, Any]:
    return {**body, "cards": dict(list(body["cards"].items())[:CARDS_SHOWN])}


class Scenario:
    """The scripted session: every operation of the contract, in an order that makes each
    one's first answer a telling one."""

    def __init__(self, session: Session, platform: Platform) -> None:
        self.s = session
        self.platform = platform
        self.rng = random.Random("spec-examples")

    def game(self, game_id: str, headers: dict[str, str]) -> dict[str, Any]:
        return dict(self.s.client.get(f"/v1/games/{game_id}", headers=headers).get_json())

    def move(self, game_id: str, seats: dict[int, dict[str, str]], note: str = "") -> tuple[int, dict[str, Any]]:
        """The first seat to act plays a random legal action (recorded as act's example when
        it is the first); the seat and the answer."""
        summary = self.game(game_id, {})
        seat = sorted(summary["to_act"])[0]
        mine = self.game(game_id, seats[seat])
        request = {"action": self.rng.choice(mine["legal_actions"]), "expected_version": mine["version"]}
        answer = self.s.call("post", f"/v1/games/{game_id}/actions", note, request, seats[seat]).get_json()
        return seat, dict(answer)

    def drain(self) -> None:
        projector = projector_module.Projector(self.platform, "spec-examples")
        projector.ensure_group()
        while projector.step(block_ms=None):
            pass

    def run(self) -> None:
        call = self.s.call
        call("get", "/healthz", "The service is healthy.")
        call("get", "/openapi.yaml", "The first lines of this description.")
        call("get", "/docs", "The first lines of the documentation page.")
        call("get", "/", "The first lines of the web client's page.")
        call("get", "/client/app.js", "The first lines of the web client's main module.")
        call("get", "/client/style.css", "The first lines of the web client's style sheet.")
        call("get", "/client/index.html", "The first lines of the web client's page, as a file.")
        call("get", "/client/icon.svg", "The web client's icon.")
        call(
            "get",
            "/v1/kinds",
            "The first two kinds (of five); their options of type array not shown.",
            shape=kinds_shown,
        )
        call("get", "/v1/kinds/fortress-royals/cards", "Four of fortress-royals' card faces.", shape=cards_shown)
        call(
            "get",
            "/v1/kinds/fortress-royals/rules",
            "How to play fortress-royals, and its rulings (their first paragraphs).",
            shape=rules_shown,
        )

        ann = call("post", "/v1/players", "ann registers.", {"name": "ann"}).get_json()
        bob = call("post", "/v1/players", "bob registers.", {"name": "bob"}).get_json()
        call("get", "/v1/players/me", "The player of ann's key.", headers=bearer(ann["key"]))
        ann = call("post", "/v1/players/me/key", "ann's new key.", headers=bearer(ann["key"])).get_json()
        ann_key, bob_key = bearer(ann["key"]), bearer(bob["key"])
        hook = call(
            "post",
            "/v1/players/me/webhooks",
            "ann's webhook for her turns and her games' ends, with its secret (shown once).",
            {"url": "https://hooks.example.com/tablestream", "events": ["your_turn", "game_ended"]},
            ann_key,
        ).get_json()
        call("get", "/v1/players/me/webhooks", "ann's webhooks.", headers=ann_key)

        # A game of fortress-royals: ann's seat by her key, an open seat bob takes by name
        # and then claims for his player.
        created = call(
            "post",
            "/v1/games",
            "ann opens a game of fortress-royals with a fixed seed (not a fair deal).",
            {"kind": "fortress-royals", "players": [{"me": True}, {"open": True}], "seed": SEEDS["fortress-royals"]},
            ann_key,
        ).get_json()
        gid = created["id"]
        joined = call(
            "post", f"/v1/games/{gid}/seats/1/join", "bob takes the open seat by name.", {"name": "bob"}
        ).get_json()
        call(
            "post",
            f"/v1/games/{gid}/seats/1/claim",
            "bob's player takes over the seat he joined by name; the game as the seat sees it.",
            {"token": joined["token"]},
            bob_key,
        )
        seats = {0: ann_key, 1: bob_key}
        call("get", f"/v1/games/{gid}", "The game as ann's seat sees it.", headers=ann_key)
        self.move(gid, seats, "A seat plays one of its legal actions at the version it saw.")
        call(
            "post",
            f"/v1/games/{gid}/chat",
            "ann writes to the table.",
            {"channel": "seats", "text": "good luck!"},
            ann_key,
        )
        call("get", f"/v1/games/{gid}/chat", "The game's chat, as a spectator reads it.")
        self.undo(gid, seats)
        version = self.game(gid, {})["version"]
        call(
            "post",
            f"/v1/games/{gid}/forks",
            "A fork of the game in play from ann's side, every card hidden from her dealt again.",
            {"at_version": version},
            ann_key,
        )
        call(
            "get", f"/v1/games/{gid}/events?after=0&limit=20", "The first events, as ann may see them.", headers=ann_key
        )
        call(
            "get", f"/v1/games/{gid}/history/{version}", "The game at a past version, from ann's seat.", headers=ann_key
        )
        self.move(gid, seats)
        self.move(gid, seats)
        offered = self.s.call(
            "post", f"/v1/games/{gid}/draw-offers", "ann offers to end the game with a shared result.", headers=ann_key
        ).get_json()
        offer = next(e["data"]["id"] for e in offered["events"] if e["type"] == "DrawOffered")
        self.s.call(
            "post", f"/v1/games/{gid}/draw-offers/{offer}/decline", "bob declines: play goes on.", headers=bob_key
        )
        resigned = self.s.call("post", f"/v1/games/{gid}/resign", "bob resigns: ann wins.", headers=bob_key)
        assert resigned.get_json()["events"], "resigning appended nothing"

        self.s.stream(f"/v1/games/{gid}/events/stream", "The first events of the finished game's stream.")
        call("get", f"/v1/games/{gid}/replay", "The finished game's replay: every event whole, and its seed.")
        call("get", f"/v1/games/{gid}/export", "The finished game's export: its header, then every event whole.")
        self.s.call("post", f"/v1/games/{gid}/analyses", "An analysis of the finished game, as a job.")
        call("get", f"/v1/games/{gid}/analysis", "The finished game's analysis, decision by decision (the first few).")
        self.job(
            f"/v1/games/{gid}/replays",
            "replay",
            "The replay's first lines: the game, then each version's event and views.",
        )
        self.job(f"/v1/games/{gid}/audits", "audit", "The audit's report: every check passed.")
        call("post", f"/v1/games/{gid}/rematch", "ann offers a rematch: a new game, seats rotated.", headers=ann_key)

        # A rated game of dragoborne between the two players; bob resigns after a move each.
        rated = call(
            "post",
            "/v1/games",
            "A rated game of dragoborne with a seat kept for bob.",
            {
                "kind": "dragoborne",
                "players": [{"me": True}, {"open": True, "for": "bob"}],
                "seed": SEEDS["dragoborne"],
                "rated": True,
            },
            ann_key,
        ).get_json()
        call("post", f"/v1/games/{rated['id']}/seats/1/join", "bob takes his seat.", {}, bob_key)
        for _ in range(2):
            self.move(rated["id"], seats)
        call("post", f"/v1/games/{rated['id']}/resign", "bob resigns.", headers=bob_key)

        # A game of fortress-siege, aborted before anyone sat down.
        opened = call(
            "post",
            "/v1/games",
            "A game of fortress-siege waiting for a seat.",
            {"kind": "fortress-siege", "players": [{"me": True}, {"open": True}], "seed": SEEDS["fortress-siege"]},
            ann_key,
        ).get_json()
        call("post", f"/v1/games/{opened['id']}/abort", "ann aborts the game before it starts.", headers=ann_key)

        self.drain()
        call("get", "/v1/games?status=finished", "Finished games (the first two).")
        call("get", "/v1/players/me/games", "ann's games, newest first (the first two).", headers=ann_key)
        call("get", "/v1/players/ann/ratings", "ann's ratings after the rated game.")
        call("get", "/v1/leaderboards/dragoborne", "The leaderboard of dragoborne.")
        call("get", "/v1/players/ann", "ann's public profile.")
        call("get", "/v1/stats", "The statistics of the kinds played.")
        ledger = call("get", "/v1/ledger", "The ledger of finished games (the first entries).").get_json()
        first_game = ledger["entries"][0]["game"]
        call("get", f"/v1/ledger/games/{first_game}", "A finished game's ledger entry and its proof.")
        checkpoint = call("get", "/v1/ledger/checkpoint", "The ledger's latest checkpoint, signed by the log's key.")
        text = checkpoint.get_data(as_text=True).partition("\n\n")[0] + "\n"
        line = cosign(WITNESS_NAME, WITNESS_SEED, text, 1795867200)
        call("post", "/v1/ledger/cosignatures", "A witness's cosignature.", body={"checkpoint": f"{text}\n{line}\n"})
        call("get", "/v1/ledger/key", "The log's key.")
        call("get", "/v1/ledger/proofs/inclusion?index=1", "Entry 1's audit path in the latest tree.")
        call("get", "/v1/ledger/proofs/consistency?from=1", "That the latest tree extends the tree of one entry.")
        call(
            "get",
            f"/v1/players/me/webhooks/{hook['id']}/deliveries",
            "ann's latest notices (no worker has sent them yet).",
            headers=ann_key,
        )
        self.s.stream("/v1/players/me/stream?after=0", "The first events of ann's player stream.", ann_key)
        self.s.call(
            "post", "/v1/projections/rebuilds", "A rebuild of the read models, queued.", headers=bearer(OPERATOR)
        )
        call("get", "/metrics", "The first lines of the metrics.", headers=bearer(OPERATOR))
        call("delete", f"/v1/players/me/webhooks/{hook['id']}", "ann removes her webhook.", headers=ann_key)
        self.moderate(gid, ann_key, bob_key)
        self.tournament(ann_key, bob_key)
        self.matchmaking(ann_key, bob_key)
        call("delete", "/v1/players/me/key", "bob revokes his key.", headers=bob_key)

    def moderate(self, gid: str, ann_key: dict[str, str], bob_key: dict[str, str]) -> None:
        """Blocks, mutes, a report and its review, and a player closed (eve, who comes for it)."""
        call = self.s.call
        call("put", "/v1/players/me/blocks/bob", "ann blocks bob.", headers=ann_key)
        call("get", "/v1/players/me/blocks", "The players ann blocks.", headers=ann_key)
        call("delete", "/v1/players/me/blocks/bob", "ann unblocks bob.", headers=ann_key)
        call("put", f"/v1/games/{gid}/mutes/bob", "ann mutes bob's chat in the game.", headers=ann_key)
        call("delete", f"/v1/games/{gid}/mutes/bob", "ann hears bob again.", headers=ann_key)
        eve = call("post", "/v1/players", "eve registers.", {"name": "eve"}).get_json()
        operator = bearer(OPERATOR)
        filed = call(
            "post",
            "/v1/reports",
            "ann reports eve, with the game.",
            {"player": "eve", "reason": "abuse", "game": gid, "note": "insults in the chat"},
            ann_key,
        ).get_json()
        call("get", "/v1/reports", "The open reports, for the operator.", headers=operator)
        call(
            "post",
            f"/v1/reports/{filed['id']}/resolve",
            "The operator dismisses the report.",
            {"resolution": "dismissed", "note": "no insult found"},
            operator,
        )
        call("post", f"/v1/players/{eve['name']}/close", "The operator closes eve.", headers=operator)

    def tournament(self, ann_key: dict[str, str], bob_key: dict[str, str]) -> None:
        """A Swiss tournament of four, bots filling two seats, entered and started (its
        first round paired by the worker's step, run here)."""
        call = self.s.call
        tid = call(
            "post",
            "/v1/tournaments",
            "ann creates a Swiss tournament of fortress-royals: 3 rounds, 4 seats, random bots filling those left.",
            {"kind": "fortress-royals", "rounds": 3, "seats": 4, "fill": "random"},
            ann_key,
        ).get_json()["id"]
        call("post", f"/v1/tournaments/{tid}/entries", "ann enters.", headers=ann_key)
        call("post", f"/v1/tournaments/{tid}/entries", "bob enters.", headers=bob_key)
        call("post", f"/v1/tournaments/{tid}/start", "ann starts it: bots fill the two seats left.", headers=ann_key)
        tournament_step(self.platform, tid, reschedule=False)
        call("get", f"/v1/tournaments/{tid}", "The tournament in its first round, with its standings.")
        call("get", "/v1/tournaments", "The tournaments, newest first.")
        bob_out = call(
            "post",
            "/v1/tournaments",
            "bob opens another.",
            {"kind": "fortress-royals", "rounds": 1, "seats": 2},
            bob_key,
        )
        other = bob_out.get_json()["id"]
        call("post", f"/v1/tournaments/{other}/entries", "bob enters his own.", headers=bob_key)
        call("delete", f"/v1/tournaments/{other}/entries/me", "bob withdraws.", headers=bob_key)

    def matchmaking(self, ann_key: dict[str, str], bob_key: dict[str, str]) -> None:
        """Two seeks, the lobby, the worker's match (run here), and a cancelled seek."""
        call = self.s.call
        wanted = {"kind": "fortress-royals", "clock": {"initial": 300, "increment": 5}, "width": 200}
        first = call(
            "post", "/v1/seeks", "ann seeks a game of fortress-royals with a clock.", wanted, ann_key
        ).get_json()
        call("get", "/v1/seeks?kind=fortress-royals", "The open seeks of fortress-royals.")
        call("post", "/v1/seeks", "bob seeks the same.", wanted, bob_key)
        match_seeks(self.platform, "fortress-royals")
        call("get", f"/v1/seeks/{first['id']}", "ann's seek, filled: its game.")
        other = call("post", "/v1/seeks", "bob seeks another.", {"kind": "fortress-royals"}, bob_key).get_json()
        call("delete", f"/v1/seeks/{other['id']}", "bob cancels it.", headers=bob_key)

    def undo(self, gid: str, seats: dict[int, dict[str, str]]) -> None:
        """Play until a seat could undo its last move, then ask and have the other accept."""
        for _ in range(200):
            for seat, headers in seats.items():
                offer = self.game(gid, headers)["undo_offer"]
                if offer and offer["to_version"]:
                    asked = self.s.call(
                        "post",
                        f"/v1/games/{gid}/undo-requests",
                        "A seat asks to take back its last move; the other must agree.",
                        {"to_version": offer["to_version"]},
                        headers,
                    ).get_json()
                    other = seats[1 - seat]
                    self.s.call(
                        "post",
                        f"/v1/games/{gid}/undo-requests/{asked['pending']['id']}/accept",
                        "The other seat agrees: the game is back at the version asked.",
                        headers=other,
                    )
                    return
            self.move(gid, seats)
        raise RuntimeError("no seat could undo a move")

    def job(self, path: str, what: str, result: str) -> None:
        """Start a job on the finished game (as a spectator) and read its status and result."""
        started = self.s.call("post", path, f"A {what} of the finished game, as a job.")
        location = started.headers["Location"]
        self.s.call("get", location, f"The {what} job, finished (jobs ran in the same process).")
        self.s.call("get", f"{location}/result", result)


def record() -> dict[str, dict[str, Any]]:
    """Run the session on a fresh in-process service; the examples by name."""
    spec = yamltext.load(SPEC.read_text())
    config = Config(
        redis_url="fake",
        rate_per_address=10**6,
        rate_per_token=10**6,
        admin_token=OPERATOR,
        inline_jobs=True,
        heartbeat_seconds=1,
        witnesses=(witness_vkey(WITNESS_NAME, Signer(WITNESS_NAME, WITNESS_SEED).public_key),),
    )
    platform = Platform(config, fakeredis.FakeRedis())
    wiring.wire(platform, bots=False)  # with inline jobs: RQ's jobs run here, at once
    platform.handler.scheduler = scheduling.InlineBots(platform)
    platform.webhooks.runner = NoDeliveryRunner()  # nothing leaves this process
    session = Session(spec, create_app(config, platform).test_client())
    try:
        Scenario(session, platform).run()
    finally:  # wiring with inline jobs made this process's jobs act through it: no more
        overrides = runtime._override
        while platform in overrides:
            overrides.remove(platform)
    return session.examples


class _Dumper(yaml.SafeDumper):  # type: ignore[misc]
    """Writes a text of several lines as a literal block."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def rendered(spec_text: str, examples: dict[str, dict[str, Any]]) -> str:
    """``spec_text`` with ``examples`` written between the markers."""
    before, rest = spec_text.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    ordered = {name: examples[name] for name in sorted(examples)}
    body = yaml.dump(ordered, Dumper=_Dumper, sort_keys=False, width=100, allow_unicode=True, default_flow_style=None)
    return before + BEGIN + "".join(f"    {line}\n" if line else "\n" for line in body.splitlines()) + END + after


def problems(spec: dict[str, Any]) -> list[str]:
    """Every operation's success answer and JSON request body without a recorded example,
    and every example reference that names none."""
    known = set((spec.get("components") or {}).get("examples") or {})
    found: list[str] = []

    def refs(where: str, media: dict[str, Any], wanted: str) -> None:
        named = [
            str(example.get("$ref", "")) for example in (media.get("examples") or {}).values() if "$ref" in example
        ]
        if EXAMPLE_REF + wanted not in named:
            found.append(f"{where}: no example ref {EXAMPLE_REF}{wanted}")
        for ref in named:
            if not ref.startswith(EXAMPLE_REF) or ref[len(EXAMPLE_REF) :] not in known:
                found.append(f"{where}: {ref} names no example")

    for path, method, operation in operations(spec):
        where = f"{method.upper()} {path} ({operation.get('operationId')})"
        for status, media, body in success_media(operation):
            refs(f"{where} {status} {media}", body, example_name(operation, media))
        request = request_media(operation)
        if request is not None:
            refs(f"{where} request", request, f"{operation['operationId']}_request")
    return found


def main(argv: list[str]) -> int:
    current = SPEC.read_text()
    if "--check" in argv:
        found = problems(yamltext.load(current))
        for problem in found:
            print(problem, file=sys.stderr)
        return 1 if found else 0
    SPEC.write_text(rendered(current, record()))
    print(json.dumps({"examples": len(yamltext.load(SPEC.read_text())["components"]["examples"])}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
