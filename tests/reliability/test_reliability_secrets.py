"""Nothing a seat or a spectator can read names a card
hidden from it, and no brute force over what it read recovers one.

For every kind, two games: a key-less human attacker (seat 0) against bots, and the
attacker with another key-less human (and a bot where the game seats three). After every
action the attacker (with seat 0's token) and a spectator (no token) read everything open
to them: the game, the paged events, the SSE stream, every answer's headers, the history
at each new version, the replay, the replay and audit jobs they start, the jobs another
seat started (whose ids they learned), every other endpoint, and (the seat) forks it
makes, read with each of the fork's tokens. Everything is then attacked by
``tests/reliability/adversary.py`` (hash, digest, salt, same-commitment and opening
attacks over the game's whole card list) and scanned for hidden card ids, other seats'
tokens and the seed; each reader also checks the hash chain live, and the openings a seat
is given of its own values. A spectator is given no openings. A claim counts as a
recovery when its card is hidden from the reader at the version it names (``game.secrets(
state, seat)``, the server's truth): a seat opening its own card recovers nothing. A job
is served only to the token that started it (anyone, for a job started without one).

A second test shows the attack is not vacuous: the same code, on the same kind of log
hashed under envelope schema 1 and shown with its hashes (the old leak), recovers cards.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from core.config import Config
from events.envelope import GENESIS_HASH, Envelope, hash_of
from games import registry
from games.cards import standard_deck
from projections.table import Table, evolve
from projections.views import event_for, openings, shown_data
from service.app import create_app
from stores.platform import Platform
from tests.reliability.adversary import (
    Adversary,
    ChainCheck,
    Claim,
    commitment,
    event_hash,
    json_strings,
    leaves,
    value_at,
)
from tests.short import short
from workers.scheduling import InlineBots
from workers.wiring import wire

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

KINDS = registry.keys()  # "tiny" too: tests/conftest.py registers it for every app
ACTIONS = 24  # human actions per game: the secrets are all there from the deal on
SCHEMA_1_ACTIONS = 80  # enough for every kind to draw a card or two in secret
PAGE = 20  # events per page, so paging is exercised
FORK_EVERY = 3
UNDO_EVERY = 7
FORK_SAMPLE = 20  # hidden cards shown in forks' other seats, below which chance could place half of them
OTHER_ENDPOINTS = (
    "/v1/games",
    "/v1/games?status=active",
    "/v1/stats",
    "/v1/kinds",
    "/v1/ledger",
    "/healthz",
    "/metrics",
)
SPECTATOR = ""  # as a token: read without one
SSE_EVENT = re.compile(r"id: \d+\nevent: \S+\ndata: (.*)\n")
HEADER_WORD = re.compile(r"[^\s,;=\"'<>()/?&]+")


@pytest.fixture
def platform(real_redis: redis.Redis, prefix: str) -> Platform:
    """A platform on the tests' Redis, under a prefix of its own (a real server, as the
    attacked service runs on: fakeredis took two thirds of the time); bots play and jobs run
    inline; no rate limits; short heartbeats."""
    config = Config(
        redis_url="unused: the client is handed in",
        prefix=prefix,
        rate_per_address=10**6,
        rate_per_token=10**6,
        heartbeat_seconds=1,
        inline_jobs=True,
    )
    p = wire(Platform(config, real_redis), bots=False)
    p.handler.scheduler = InlineBots(p)
    return p


def bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


# -- the server's truth ---------------------------------------------------------------


class Truth:
    """One game as the server holds it: the table at every version, what each viewer may
    not see then, the game's card list (every string its full log holds, every hidden card)."""

    def __init__(self, platform: Platform, game_id: str) -> None:
        self.platform, self.id = platform, game_id
        self.tables: dict[int, Table] = {}
        self.cards: set[str] = set()
        self.hidden_cache: dict[tuple[int | None, int], frozenset[str]] = {}
        self.sync()

    def sync(self) -> None:
        """Fold what the log gained since the last call (after every action)."""
        for envelope in self.platform.store.read(self.id, after=max(self.tables, default=0)):
            self.tables[envelope.version] = evolve(
                self.tables.get(envelope.version - 1), envelope, self.tables.__getitem__
            )
            self.cards.update(v for _, v in leaves(envelope.data) if isinstance(v, str) and len(v) <= 40)

    @property
    def now(self) -> Table:
        return self.tables[max(self.tables)]

    @property
    def over(self) -> bool:
        return self.now.status == "finished"

    def hidden(self, seat: int | None, version: int) -> frozenset[str]:
        if (seat, version) not in self.hidden_cache:
            table = self.tables[version]
            secrets = frozenset() if table.state is None else table.game.secrets(table.state, seat)
            self.hidden_cache[seat, version] = secrets
            self.cards.update(secrets)
        return self.hidden_cache[seat, version]


# -- what a reader reads, and what it is judged against ---------------------------------


@dataclass
class Piece:
    """One thing read: ``hidden`` are the cards it must not name (the reader's secrets at the
    version it shows), ``forbidden`` the strings it must not hold (other seats' tokens, a seed
    in play); ``events`` belong to the chain of ``game``."""

    where: str
    text: str
    hidden: frozenset[str]
    forbidden: tuple[str, ...]
    game: str
    events: list[dict[str, Any]] = field(default_factory=list)
    header: bool = False
    raw: bool = False  # the body as sent, its parts judged apart: checked only for tokens and seeds


@dataclass
class Figures:
    games: int = 0
    actions: int = 0
    pieces: int = 0
    bytes: int = 0
    sse: int = 0
    forks: int = 0
    jobs: int = 0
    hidden: int = 0
    places: int = 0
    hash_guesses: int = 0
    salt_guesses: int = 0
    opening_guesses: int = 0
    digest_guesses: int = 0
    chain_events: int = 0
    openings: int = 0
    claims: int = 0
    located: int = 0
    locatable: int = 0
    recovered: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    chain_problems: list[str] = field(default_factory=list)
    doors: list[str] = field(default_factory=list)  # jobs served to a caller that did not start them, or refused


class Reader:
    """A seat (with its token) or a spectator, reading and attacking one game (and its forks)."""

    def __init__(self, name: str, seat: int | None, token: str | None, public: list[str | bytes]) -> None:
        self.name, self.seat, self.token, self.public = name, seat, token, public
        self.adversaries: dict[str, Adversary] = {}
        self.chains: dict[str, ChainCheck] = {}
        self.seen_events: dict[str, int] = {}
        self.seen_stream: dict[str, int] = {}
        self.seen_history = 0
        self.hidden_seen: set[str] = set()
        self.jobs_read: set[str] = set()

    def adversary(self, game: str, cards: set[str]) -> Adversary:
        if game not in self.adversaries:
            self.adversaries[game] = Adversary([game, *self.public, *([self.token] if self.token else [])])
        adversary = self.adversaries[game]
        if len(adversary.cards) != len(cards):
            adversary.add_candidates(cards)
        return adversary

    def chain(self, game: str) -> ChainCheck:
        return self.chains.setdefault(game, ChainCheck())


class Attack:
    """One game, its attacker at seat 0, its spectator, and everything they read."""

    def __init__(
        self, platform: Platform, client: FlaskClient, kind: str, players: list[dict[str, Any]], figures: Figures
    ) -> None:
        self.platform, self.client, self.figures = platform, client, figures
        created = client.post("/v1/games", json={"kind": kind, "players": players})
        assert created.status_code == 201, created.get_data(as_text=True)
        game = created.get_json()
        self.id = game["id"]
        self.tokens: dict[int, str] = {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}
        self.truth = Truth(platform, self.id)
        self.seed = platform.vault.seed(self.id)
        public = [game["seed_commitment"], bytes.fromhex(game["seed_commitment"])]
        self.seat = Reader("seat 0", 0, self.tokens[0], public)
        self.spectator = Reader("spectator", None, None, public)
        self.other = 1 if 1 in self.tokens else None
        self.learned_jobs: list[str] = []  # started by the other human
        self.seat_jobs: list[str] = []  # started by the attacker, read by the spectator too
        self.fork_seeds: list[str] = []
        self.actions = 0
        figures.games += 1

    # reading

    def forbidden(self, reader: Reader) -> tuple[str, ...]:
        tokens = [t for s, t in self.tokens.items() if s != reader.seat]
        return (*tokens, *self.fork_seeds, *(() if self.truth.over else (self.seed,)))

    def hidden(self, reader: Reader, version: int | None = None) -> frozenset[str]:
        if self.truth.over:
            return frozenset()
        return self.truth.hidden(reader.seat, self.truth.now.version if version is None else version)

    def get(
        self, reader: Reader, path: str, token: str | None = None, method: str = "GET", body: Any = None
    ) -> TestResponse:
        headers = bearer(reader.token if token is None else token or None)
        if method == "POST":
            return self.client.post(path, json=body if body is not None else {}, headers=headers)
        return self.client.get(path, headers=headers)

    def pieces(
        self,
        reader: Reader,
        where: str,
        response: TestResponse,
        game: str | None = None,
        hidden: frozenset[str] | None = None,
    ) -> list[Piece]:
        """A response as pieces: its headers, its body's events each judged at its own version,
        replay-job lines at theirs, and the rest at the current version (or ``hidden``)."""
        game = game or self.id
        now = self.hidden(reader) if hidden is None else hidden
        forbidden = self.forbidden(reader)
        text = response.get_data(as_text=True)
        headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
        out = [Piece(f"{where} headers", headers, now, forbidden, game, header=True)]
        if response.mimetype == "application/x-ndjson":
            for line in filter(None, text.splitlines()):
                row = json.loads(line)
                version = row.get("version")
                at = now if version is None or hidden is not None else self.hidden(reader, version)
                events = [row["event"]] if "event" in row else []
                out.append(Piece(f"{where} line v{version}", line, at, forbidden, game, events))
        else:
            try:
                payload = json.loads(text)
            except ValueError:
                payload = text
            events = payload.pop("events", []) if isinstance(payload, dict) else []
            for event in events if isinstance(events, list) else []:
                at = now if hidden is not None else self.hidden(reader, event["version"])
                out.append(
                    Piece(
                        f"{where} v{event['version']} {event['type']}", json.dumps(event), at, forbidden, game, [event]
                    )
                )
            out.append(Piece(f"{where} rest", json.dumps(payload), now, forbidden, game))
        # Last, the body as sent: its events were judged at their own versions above.
        out.append(Piece(f"{where} body", text, frozenset(), forbidden, game, raw=True))
        return out

    def read(
        self,
        reader: Reader,
        path: str,
        token: str | None = None,
        method: str = "GET",
        body: Any = None,
        game: str | None = None,
        hidden: frozenset[str] | None = None,
    ) -> Any:
        response = self.get(reader, path, token, method, body)
        if method == "POST":
            self.truth.sync()
        assert response.status_code < 500, f"{method} {path}: {response.get_data(as_text=True)[:300]}"
        self.judge(reader, self.pieces(reader, f"{reader.name} {method} {path}", response, game, hidden))
        return response.get_json(silent=True)

    def read_events(
        self, reader: Reader, game: str | None = None, token: str | None = None, hidden: frozenset[str] | None = None
    ) -> None:
        game = game or self.id
        while True:
            after = reader.seen_events.get(game, 0)
            page = self.read(
                reader, f"/v1/games/{game}/events?after={after}&limit={PAGE}", token, game=game, hidden=hidden
            )
            reader.seen_events[game] = page["next_after"]
            reader.chain(game).head(page.get("head"), f"{reader.name} events page")
            if page["next_after"] >= page["last_version"]:
                return

    def read_stream(self, reader: Reader) -> None:
        until, after = self.truth.now.version, reader.seen_stream.get(self.id, 0)
        if until <= after:
            return
        where, forbidden = f"{reader.name} SSE", self.forbidden(reader)
        pieces = []
        for headers, message in sse_messages(self.client, self.id, reader.token, after, until):
            self.figures.sse += 1
            if headers is not None:
                pieces.append(Piece(f"{where} headers", headers, self.hidden(reader), forbidden, self.id, header=True))
            event = sse_event(message)
            if event is None:
                pieces.append(Piece(f"{where} comment", message, self.hidden(reader), forbidden, self.id))
                continue
            version = event["version"]
            pieces.append(
                Piece(f"{where} v{version}", message, self.hidden(reader, version), forbidden, self.id, [event])
            )
            reader.seen_stream[self.id] = version
        self.judge(reader, pieces)

    def read_history(self, reader: Reader) -> None:
        last = self.truth.now.version
        for version in range(reader.seen_history + 1, last + 1):
            self.read(reader, f"/v1/games/{self.id}/history/{version}", hidden=self.hidden(reader, version))
        reader.seen_history = last

    def read_job(self, reader: Reader, job: str, owned: bool) -> None:
        """A job's status and result: the caller's own (or a spectator's) are served; a job
        another token started is not (as if it did not exist)."""
        for path in (f"/v1/jobs/{job}", f"/v1/jobs/{job}/result"):
            response = self.get(reader, path)
            self.judge(reader, self.pieces(reader, f"{reader.name} GET {path}", response))
            served = response.status_code == 200
            if served != owned:
                self.figures.doors.append(f"{reader.name} GET {path}: {response.status_code}, owned: {owned}")

    def start_jobs(self, reader: Reader, token: str | None) -> list[str]:
        jobs = []
        for what in ("replays", "audits"):
            started = self.read(reader, f"/v1/games/{self.id}/{what}", token, method="POST")
            assert started is not None and "id" in started, started
            jobs.append(started["id"])
            self.figures.jobs += 1
        return jobs

    def read_everything(self, reader: Reader) -> None:
        game = self.read(reader, f"/v1/games/{self.id}")
        reader.chain(self.id).head(game.get("head"), f"{reader.name} game")
        self.read_events(reader)
        self.read_stream(reader)
        self.read_history(reader)
        self.read(reader, f"/v1/games/{self.id}/replay")
        jobs = self.start_jobs(reader, reader.token)
        for job in jobs:
            self.read_job(reader, job, owned=True)
        if reader is self.seat:
            self.seat_jobs += jobs
        for job in self.learned_jobs + (self.seat_jobs if reader is self.spectator else []):
            if job not in reader.jobs_read:
                reader.jobs_read.add(job)
                self.read_job(reader, job, owned=False)
        if reader is self.spectator:
            for path in OTHER_ENDPOINTS:
                self.read(reader, path)
        elif self.actions % FORK_EVERY == 0 and not self.truth.over:
            self.fork(reader)

    def fork(self, reader: Reader) -> None:
        """The seat forks the game where it stands, with a token for every seat of the fork,
        and reads the fork as each. Its own seat's reading (and a spectator's) must not name
        a card hidden from it here; no reading may name a card the fork hides from every
        seat (its own deck); and another seat's view shows a re-deal, which must not put
        the cards hidden here where they really are."""
        parent = self.truth.now
        hidden = self.hidden(reader)
        players = [{"name": f"fork-{i}"} for i in range(len(parent.seats))]
        created = self.read(
            reader, f"/v1/games/{self.id}/forks", method="POST", body={"at_version": parent.version, "players": players}
        )
        if created is None or "id" not in created:
            return
        self.figures.forks += 1
        fork = created["id"]
        self.fork_seeds.append(self.platform.vault.seed(fork))
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s.get("token")}
        assert set(tokens) == set(range(len(players))), created
        forked = Truth(self.platform, fork)
        from_nobody = frozenset.intersection(*(forked.hidden(seat, 1) for seat in tokens))
        self.read_events(reader, fork, tokens[reader.seat], hidden | from_nobody)
        for token in (tokens[reader.seat], SPECTATOR):
            self.read(reader, f"/v1/games/{fork}", token, game=fork, hidden=hidden | from_nobody)
        for seat, token in tokens.items():
            if seat != reader.seat:
                view = self.read(reader, f"/v1/games/{fork}", token, game=fork, hidden=from_nobody)["view"]
                same, total = located(parent.game.view(parent.state, seat), view, hidden)
                self.figures.located += same
                self.figures.locatable += total

    # judging

    def judge(self, reader: Reader, pieces: list[Piece]) -> None:
        cards = self.truth.cards
        for piece in pieces:
            self.figures.pieces += 1
            self.figures.bytes += len(piece.text)
            reader.hidden_seen.update(piece.hidden)
            for secret in piece.forbidden:
                if secret and secret in piece.text:
                    self.figures.leaks.append(f"{piece.where}: holds a token or seed: {piece.text[:300]}")
            if reader.seat is None:
                for event in piece.events:
                    if "openings" in event:
                        self.figures.leaks.append(f"{piece.where}: gives the spectator openings: {piece.text[:300]}")
            if piece.raw:
                continue
            if piece.hidden:
                words = set(HEADER_WORD.findall(piece.text)) if piece.header else json_strings(piece.text)
                for card in sorted(words & piece.hidden):
                    self.figures.leaks.append(f"{piece.where}: names hidden card {card!r}: {piece.text[:300]}")
            adversary = reader.adversary(piece.game, cards)
            claims: list[Claim] = adversary.attack_events(piece.events, piece.where)
            claims += adversary.attack_text(piece.text, 0, piece.where)
            self.figures.claims += len(claims)
            self.figures.recovered += [
                f"{c.how}: {c.card!r} at {c.where}" for c in claims if self.recovers(reader, piece, c)
            ]
            for event in piece.events:
                reader.chain(piece.game).receive(event, piece.where)

    def recovers(self, reader: Reader, piece: Piece, claim: Claim) -> bool:
        """Whether ``claim`` names a card hidden from ``reader`` at the version it names (a
        claim made later than that version, as a salt given later allows, included); a
        claim on a fork's event, or on no event, at the piece's."""
        if claim.version and piece.game == self.id:
            return claim.card in self.hidden(reader, claim.version)
        return claim.card in piece.hidden

    # playing

    def act(self, rng: random.Random) -> bool:
        """One random legal action by a human seat to act, sent without an Idempotency-Key;
        the other human's turns start jobs whose ids the attacker learns."""
        summary = self.client.get(f"/v1/games/{self.id}").get_json()
        seats = [s for s in summary["to_act"] if s in self.tokens]
        if summary["status"] != "active" or not seats:
            return False
        seat = rng.choice(seats)
        game = self.client.get(f"/v1/games/{self.id}", headers=bearer(self.tokens[seat])).get_json()
        body = {"action": rng.choice(game["legal_actions"]), "expected_version": game["version"]}
        if seat == self.seat.seat:
            answer = self.read(self.seat, f"/v1/games/{self.id}/actions", method="POST", body=body)
            assert answer is not None and "events" in answer, answer
        else:
            response = self.client.post(f"/v1/games/{self.id}/actions", json=body, headers=bearer(self.tokens[seat]))
            assert response.status_code == 200, response.get_data(as_text=True)
            if seat == self.other:
                self.learned_jobs += self.other_seat_jobs()
        self.actions += 1
        self.figures.actions += 1
        self.truth.sync()
        if self.actions % UNDO_EVERY == 0:
            self.ask_undo()
            self.truth.sync()
        return True

    def other_seat_jobs(self) -> list[str]:
        jobs = []
        for what in ("replays", "audits"):
            response = self.client.post(f"/v1/games/{self.id}/{what}", json={}, headers=bearer(self.tokens[1]))
            assert response.status_code == 202, response.get_data(as_text=True)
            jobs.append(response.get_json()["id"])
            self.figures.jobs += 1
        return jobs

    def ask_undo(self) -> None:
        """The seat asks to take back the last version; the other human, if any, declines."""
        version = self.truth.now.version
        pending = self.read(
            self.seat, f"/v1/games/{self.id}/undo-requests", method="POST", body={"to_version": max(1, version - 1)}
        )
        request = (pending or {}).get("pending")
        if request and self.other is not None:
            path = f"/v1/games/{self.id}/undo-requests/{request['id']}/decline"
            self.client.post(path, json={}, headers=bearer(self.tokens[self.other]))

    def play(self, rng: random.Random, actions: int) -> None:
        for reader in (self.seat, self.spectator):
            self.read_everything(reader)
        for _ in range(actions):
            if not self.act(rng):
                break
            for reader in (self.seat, self.spectator):
                self.read_everything(reader)
        for reader in (self.seat, self.spectator):
            self.figures.hidden += len(reader.hidden_seen)
            for adversary in reader.adversaries.values():
                self.figures.places += adversary.tally.places + adversary.tally.commitments
                self.figures.hash_guesses += adversary.tally.hash_guesses
                self.figures.salt_guesses += adversary.tally.salt_guesses
                self.figures.opening_guesses += adversary.tally.opening_guesses
                self.figures.digest_guesses += adversary.tally.digest_guesses
            for chain in reader.chains.values():
                self.figures.chain_events += chain.events
                self.figures.openings += chain.openings
                self.figures.chain_problems += chain.problems


def sse_messages(
    client: FlaskClient, game: str, token: str | None, after: int, until: int
) -> Iterator[tuple[str | None, str]]:
    """The stream's messages from ``after`` until the one of version ``until`` (then it is
    closed: a game in play would keep it open), each with the response's headers first."""
    headers = {**bearer(token), "Last-Event-ID": str(after)}
    response = client.get(f"/v1/games/{game}/events/stream", headers=headers, buffered=False)
    assert response.status_code == 200, response.status
    first: str | None = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    try:
        for chunk in response.response:
            # A write may carry several messages (a page of the log, all a move brought).
            for text in (chunk.decode() if isinstance(chunk, bytes) else chunk).split("\n\n"):
                if not text:
                    continue
                message = text + "\n\n"
                yield first, message
                first = None
                event = sse_event(message)
                if event is not None and event["version"] >= until:
                    return
    finally:
        response.close()


def sse_event(message: str) -> dict[str, Any] | None:
    match = SSE_EVENT.match(message)
    return None if match is None else json.loads(match.group(1))


def located(truth_view: Any, fork_view: Any, hidden: frozenset[str]) -> tuple[int, int]:
    """How many of the cards hidden from the attacker that ``truth_view`` shows stand at the
    same place in ``fork_view``, and how many it shows."""
    placed = [(path, card) for path, card in leaves(truth_view) if isinstance(card, str) and card in hidden]
    return sum(value_at(fork_view, path) == (True, card) for path, card in placed), len(placed)


def line_ups(kind: str) -> Iterator[list[dict[str, Any]]]:
    """The attacker against bots; then the attacker, another human and (where the game seats
    three) a bot. Every human sends its actions without an Idempotency-Key."""
    game = registry.get(kind)
    assert game is not None
    yield [{"name": "eve"}] + [{"bot": "random"}] * (game.min_players - 1)
    count = max(game.min_players, min(3, game.max_players))
    yield [{"name": "eve"}, {"name": "bob"}] + [{"bot": "random"}] * (count - 2)


def report(kind: str, f: Figures, seconds: float) -> str:
    guesses = f.hash_guesses + f.salt_guesses + f.opening_guesses + f.digest_guesses
    return (
        f"secrets {kind}: {f.games} games, {f.actions} human actions; read {f.pieces} pieces ({f.bytes / 1e6:.1f} MB, "
        f"{f.sse} SSE messages, {f.jobs} jobs, {f.forks} forks); attacked {f.hidden} hidden values at {f.places} "
        f"places with {guesses} guesses ({f.hash_guesses} hashed bodies, {f.salt_guesses} salted commitments, "
        f"{f.opening_guesses} commitments under salts given, {f.digest_guesses} digest comparisons): recovered "
        f"{len(f.recovered)} (claims made {f.claims}); literal leaks {len(f.leaks)}; jobs served to others "
        f"{len(f.doors)}; fork re-deals put {f.located}/{f.locatable} hidden cards where they are; chain checked on "
        f"{f.chain_events} events, {f.openings} openings; {seconds:.1f} s"
    )


@pytest.mark.parametrize("kind", KINDS)
def test_no_attack_on_what_a_seat_or_spectator_reads_recovers_a_hidden_card(platform: Platform, kind: str) -> None:
    # given: games of this kind, the attacker at seat 0 and a spectator reading everything after every action
    client = create_app(platform.config, platform).test_client()
    figures = Figures()
    started = time.monotonic()
    # when: they play, and every piece read is attacked
    for index, players in enumerate(line_ups(kind)):
        Attack(platform, client, kind, players, figures).play(random.Random(f"{kind}/{index}"), ACTIONS)
    # then: nothing recovered, no hidden card, token or seed named, every chain checks, no other's job served
    print(report(kind, figures, time.monotonic() - started))
    assert not figures.recovered, figures.recovered[:5]
    assert not figures.leaks, figures.leaks[:5]
    assert not figures.chain_problems, figures.chain_problems[:5]
    assert not figures.doors, figures.doors[:5]
    # A fork copied from the truth would put every hidden card where it is; a re-deal, few.
    assert figures.locatable < FORK_SAMPLE or figures.located * 2 < figures.locatable, (
        f"forks put {figures.located} of {figures.locatable} hidden cards where they really are"
    )


# -- the attack is not vacuous: on a schema-1 log it recovers cards ------------------------


def played(platform: Platform, kind: str, actions: int, rng: random.Random) -> tuple[str, str]:
    """A game of ``kind``, a human at seat 0 against bots, after ``actions`` random legal
    actions of seat 0 (or its end): its id and seat 0's token. The seed is fixed, so the
    bots play the same game every run (a game that happened to hide nothing would prove nothing).
    Under the first rules revision, as every schema-1 log was played (revisions came later)."""
    players = next(line_ups(kind))
    seed = hashlib.sha256(f"schema-1 attack/{kind}".encode()).hexdigest()
    game = registry.get(kind)
    options = {"rules": 1} if game is not None and game.rules_revision > 1 else None
    created = platform.handler.create_game(kind, players, options, seed=seed)
    table = platform.handler.load(created.table.game_id)  # the bots may have begun
    for _ in range(actions):
        if table.status != "active" or 0 not in table.to_act():
            break
        action = rng.choice(table.game.legal_actions(table.state, 0))
        platform.handler.act(table.game_id, 0, action, table.version)
        table = platform.handler.load(table.game_id)  # the bots have answered
    return table.game_id, created.tokens[0]


def schema_1_log(platform: Platform, game_id: str) -> list[Envelope]:
    """The game's log hashed as envelope schema 1 did: over the whole data, no seal."""
    log, prev = [], GENESIS_HASH
    for e in platform.store.read(game_id):
        unhashed = Envelope(
            e.version, e.type, e.seat, e.actor, e.data, e.at, e.command_id, prev, "", schema=1, sealed=None
        )
        log.append(replace(unhashed, hash=hash_of(prev, unhashed.body())))
        prev = log[-1].hash
    return log


def seen_in_play(truth: Truth, envelope: Envelope, seat: int, withheld: bool) -> dict[str, Any]:
    """A schema-1 event as ``seat`` was shown it in play under schema 1: its data redacted,
    its hashes shown; ``withheld``: the hash of an event that hides something withheld, the
    next event's prev_hash still carrying it (the leak schema 2 closed)."""
    table = truth.tables[envelope.version]
    event = envelope.as_dict() | {"schema": 1}
    event["data"] = shown_data(table.game, envelope.type, envelope.seat, envelope.data, seat)
    if withheld and event["data"] != envelope.data:
        event["hash"] = None
    return event


def recovered_by(adversary: Adversary, truth: Truth, events: list[dict[str, Any]], seat: int) -> set[Claim]:
    """What the attacker recovers reading ``events`` page by page: the claims whose card is
    hidden from ``seat`` at the claimed version."""
    claims: list[Claim] = []
    for start in range(0, len(events), PAGE):
        claims += adversary.attack_events(events[start : start + PAGE], "schema-1 log")
    return {claim for claim in claims if claim.card in truth.hidden(seat, claim.version)}


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_attack_recovers_hidden_cards_from_a_schema_1_log(platform: Platform, kind: str) -> None:
    # given: a game of this kind in play, and its log as schema 1 hashed it
    game_id, token = played(platform, kind, SCHEMA_1_ACTIONS, random.Random(kind))
    truth = Truth(platform, game_id)
    in_play = [v for v, table in truth.tables.items() if table.status == "active"]
    old = schema_1_log(platform, game_id)[: max(in_play)]
    public = [game_id, truth.now.seed_commitment, token]
    hidden = {card for version in truth.tables for card in truth.hidden(0, version)}
    found: dict[str, set[Claim]] = {}
    guesses: dict[str, int] = {}
    # when: seat 0's attacker reads it as schema 1 showed it, with its hashes, then with redacted events' hashes
    # withheld; and, for contrast, the same game as the service shows it now
    for name, events in (
        ("schema 1, hashes shown", [seen_in_play(truth, e, 0, withheld=False) for e in old]),
        ("schema 1, hashes withheld", [seen_in_play(truth, e, 0, withheld=True) for e in old]),
        ("schema 2", [event_for(truth.tables[e.version], e, 0) for e in platform.store.read(game_id)[: len(old)]]),
    ):
        adversary = Adversary(public)
        adversary.add_candidates(truth.cards)
        found[name] = recovered_by(adversary, truth, events, 0)
        guesses[name] = adversary.tally.guesses
    # then: the schema-1 forms give hidden cards away (so a zero elsewhere means something); schema 2 none
    print(
        f"schema-1 attack {kind}: {len(hidden)} cards hidden from seat 0 over {len(old)} versions, "
        f"{len(truth.cards)} candidates; "
        + "; ".join(
            f"{name}: {len(claims)} recovered ({len({c.card for c in claims})} cards) with {guesses[name]} guesses"
            for name, claims in found.items()
        )
    )
    assert found["schema 1, hashes shown"], "the attack recovers nothing even where the hashes cover the cards"
    assert found["schema 1, hashes withheld"], "the attack misses the leak schema 2 closed"
    assert not found["schema 2"], sorted(found["schema 2"], key=str)[:5]


PLANTED_KIND = "fortress-siege"


EVENT_FOR_USERS = ("service.routes.games", "service.routes.lifecycle", "service.fanout", "core.tooling")


def plant(monkeypatch: pytest.MonkeyPatch, leak: str) -> None:
    """Put back one door the service closed: events hashed over their whole data while
    redacted (no seal), job results for anyone, forks that copy the truth; or open one it
    never had: the openings of every commitment, to every reader."""
    if leak == "unsealed events":
        monkeypatch.setattr("core.commands.sealed_data", lambda *args, **kwargs: None)
    elif leak == "openings for all":
        seed_of = Platform.opening_seed
        monkeypatch.setattr(Platform, "opening_seed", lambda self, table, seat: seed_of(self, table, 0))

        def opened_for_all(table: Table, envelope: Envelope, seat: int | None, seed: str | None = None) -> Any:
            event = event_for(table, envelope, seat, seed)
            if seed is not None and envelope.sealed is not None and table.status != "finished":
                # Every commitment as if its value were shown whole.
                given = openings(envelope.sealed, envelope.data, envelope.data, seed, envelope.version)
                event.update({"openings": given} if given else {})
            return event

        for module in EVENT_FOR_USERS:
            monkeypatch.setattr(f"{module}.event_for", opened_for_all)
    elif leak == "open jobs":
        monkeypatch.setattr("service.routes.history._readable_job", lambda job_id: None)
    else:
        game = registry.get(PLANTED_KIND)
        monkeypatch.setattr(type(game), "determinize", lambda self, state, seat, rng: state)


@pytest.mark.parametrize("leak", ["unsealed events", "openings for all", "open jobs", "exact forks"])
def test_the_live_attack_finds_each_leak_planted_back(
    platform: Platform, monkeypatch: pytest.MonkeyPatch, leak: str
) -> None:
    # given: the service with one closed door opened again
    plant(monkeypatch, leak)
    client = create_app(platform.config, platform).test_client()
    figures = Figures()
    # when: the attacker and the spectator play and read a game as in the test above
    players = list(line_ups(PLANTED_KIND))[1]
    Attack(platform, client, PLANTED_KIND, players, figures).play(random.Random(leak), ACTIONS // 2)
    print(f"planted {leak}: " + report(PLANTED_KIND, figures, 0))
    # then: the same reading and judging catch it
    if leak == "unsealed events":
        assert figures.recovered
    elif leak == "openings for all":
        assert any(r.startswith("opening: ") for r in figures.recovered), figures.recovered[:5]
        assert any("gives the spectator openings" in text for text in figures.leaks), figures.leaks[:5]
        assert figures.chain_problems  # a seat given the opening of a value it is not shown
    elif leak == "open jobs":
        assert figures.doors and figures.leaks
    else:
        assert figures.locatable and figures.located == figures.locatable


SPEC_SEED = "5eed" * 16
SPEC_SALT = "6756e7cb28ddc865a3390742fd96fcf629b1eabba07b4695f5c1ddb13e2550f8"  # version 5, path ["card"]
SPEC_EVENT: dict[str, Any] = {  # docs/verification.md section 9, as a seat that does not hold the drawn card sees it
    "schema": 2,
    "version": 5,
    "type": "CardDrawn",
    "seat": 1,
    "actor": "human",
    "data": {"seat": 1},
    "sealed": {"card": {"$commit": "4d76819fa2edd233ab00223eb0602b59bf984e78a8982206adf8986afba41228"}, "seat": 1},
    "at": "2026-11-23T12:00:00.000Z",
    "command_id": "seat-1:k1",
    "prev_hash": "a" * 64,
    "hash": "a60c5e4a4b243c6892f071dfa745eb27b5491a2521737d23f396b6e9426606b2",
}


def attacker(*public: str) -> Adversary:
    adversary = Adversary(public or ["game-id"])
    adversary.add_candidates(standard_deck(jokers=True))
    return adversary


def test_each_attack_recovers_a_card_where_its_weakness_is_planted() -> None:
    # given: the spec's example event, whose hash the attacker's own rules recompute
    chain = ChainCheck()
    chain.hashes[4] = "a" * 64
    chain.receive(SPEC_EVENT, "spec vector")
    assert not chain.problems and chain.hashes[5] == SPEC_EVENT["hash"]
    # when/then: as published, no attack names its card
    assert attacker().attack_events([SPEC_EVENT], "as published") == []
    # then: each attack names it where its weakness is planted:
    # a seed known to the attacker makes every salt computable
    assert {c.card for c in attacker(SPEC_SEED).attack_events([SPEC_EVENT], "seed")} == {"QH"}
    # a plain digest of the card
    digest = hashlib.sha256(b'"QH"').hexdigest()
    assert {c.card for c in attacker().attack_text(f'{{"x": "{digest}"}}', 5, "digest")} == {"QH"}
    # a digest keyed by a public value
    keyed = hmac.new(b"game-id", b"QH", hashlib.sha256).hexdigest()
    assert {c.card for c in attacker().attack_text(keyed, 5, "keyed digest")} == {"QH"}
    # the same commitment shown again where the value is in the open
    again = {**SPEC_EVENT, "version": 7, "data": {"seat": 1, "card": "QH"}, "hash": None, "prev_hash": None}
    assert {c.card for c in attacker().attack_events([again, SPEC_EVENT], "twice")} == {"QH"}
    # a hash over the data whole (schema 1), the card left out or replaced by null
    old = {**SPEC_EVENT, "schema": 1, "data": {"seat": 1, "card": "QH"}}
    old.pop("sealed")
    old["hash"] = event_hash(old["prev_hash"], old)
    for shown in ({"seat": 1}, {"seat": 1, "card": None}):
        assert {c.card for c in attacker().attack_events([{**old, "data": shown}], "schema 1")} == {"QH"}
    # a list of two cards replaced by its count, once the attacker saw that field hold a list
    pair = {**old, "data": {"seat": 1, "cards": ["QH", "2C"]}}
    pair["hash"] = event_hash(pair["prev_hash"], pair)
    own = {**pair, "version": 3, "seat": 0, "data": {"seat": 0, "cards": ["3D", "4D"]}, "hash": None}
    found = attacker().attack_events([own, {**pair, "data": {"seat": 1, "cards": 2}}], "pair")
    assert {c.card for c in found} == {"QH", "2C"}


def test_openings_check_for_the_seat_shown_the_value_and_give_away_nothing_else() -> None:
    # given: the spec's example event as seat 1, which holds the card, is shown it: with its opening
    opening = {"path": ["card"], "salt": SPEC_SALT}
    mine = {**SPEC_EVENT, "data": {"seat": 1, "card": "QH"}, "openings": [opening]}
    # when/then: its chain check opens the commitment, and the attacker learns nothing new from it
    chain = ChainCheck()
    chain.receive(mine, "own card")
    assert not chain.problems and chain.openings == 1
    assert attacker().attack_events([mine], "own card") == []
    # then: an opening that does not open (another salt, another value shown, no commitment there, no value
    # shown there) is a problem of the chain
    wrong = [
        {**mine, "openings": [{**opening, "salt": "00" * 32}]},
        {**mine, "data": {"seat": 1, "card": "QS"}},
        {**mine, "openings": [{**opening, "path": ["seat"]}]},
        {**mine, "data": {"seat": 1}},
        {**mine, "openings": [{"path": "card", "salt": SPEC_SALT}]},
    ]
    for event in wrong:
        chain = ChainCheck()
        chain.receive(event, "bad opening")
        assert len(chain.problems) == 1 and chain.openings == 0, (event, chain.problems)
    # then: the opening attack names the hidden card where its weakness is planted:
    # the opening of the card itself given to a seat not shown it, after that seat saw the event without it
    adversary = attacker()
    assert adversary.attack_events([SPEC_EVENT], "without") == []
    assert {c.card for c in adversary.attack_events([{**SPEC_EVENT, "openings": [opening]}], "with")} == {"QH"}
    # a salt that ignores the path: the seat's own card at another path of the same event, salted alike
    salt = bytes.fromhex(SPEC_SALT)
    both = {
        **SPEC_EVENT,
        "data": {"seat": 1, "mine": "2C"},
        "sealed": {**SPEC_EVENT["sealed"], "mine": {"$commit": commitment(salt, "2C")}},
        "openings": [{"path": ["mine"], "salt": SPEC_SALT}],
    }
    found = attacker().attack_events([both], "path ignored")
    assert {(c.how, c.card) for c in found} == {("opening", "QH")}
    # a salt that ignores the version: the seat's own card at the same path, an earlier version, given after
    earlier = {
        **SPEC_EVENT,
        "version": 3,
        "seat": 0,
        "data": {"seat": 0, "card": "2C"},
        "sealed": {"card": {"$commit": commitment(salt, "2C")}, "seat": 0},
        "openings": [opening],
    }
    adversary = attacker()
    assert adversary.attack_events([SPEC_EVENT], "version ignored") == []
    found = adversary.attack_events([earlier], "version ignored")
    assert {(c.how, c.version, c.card) for c in found} == {("opening", 5, "QH")}
    # and each salt is tried on each commitment once, however often it comes again
    guesses = adversary.tally.opening_guesses
    adversary.attack_events([earlier, SPEC_EVENT, {**SPEC_EVENT, "openings": []}], "again")
    assert adversary.tally.opening_guesses == guesses


# -- the chain, live ---------------------------------------------------------------------


class LiveSeat:
    """Seat 0 of a whole game, checking every event it receives as it arrives: on the chain
    of its route (events pages, the stream, action answers), and, while the game is in
    play, for the cards hidden from it, by name and by the attack."""

    ROUTES = ("events pages", "SSE", "action answers")

    def __init__(self, platform: Platform, game_id: str, token: str) -> None:
        self.truth = Truth(platform, game_id)
        self.chains = {route: ChainCheck() for route in self.ROUTES}
        self.adversary = Adversary([game_id, self.truth.now.seed_commitment, token])
        self.leaks: list[str] = []

    def hidden(self, version: int) -> frozenset[str]:
        return frozenset() if self.truth.over else self.truth.hidden(0, version)

    def receive(self, route: str, events: list[dict[str, Any]]) -> None:
        self.truth.sync()
        for event in events:
            self.chains[route].receive(event, route)
            hidden = self.hidden(event["version"])
            text = json.dumps(event)
            self.leaks += [f"{route} v{event['version']} names {card!r}" for card in json_strings(text) & hidden]
            self.adversary.add_candidates(self.truth.cards)
            claims = self.adversary.attack_events([event], route) + self.adversary.attack_text(text, 0, route)
            # A claim on another version (a salt given later) is judged at its own.
            self.leaks += [
                f"{c.how}: {c.card!r} at {c.where}"
                for c in claims
                if c.card in (self.hidden(c.version) if c.version else hidden)
            ]


@pytest.mark.parametrize("kind", KINDS)
def test_a_seat_checks_the_chain_live_on_every_event_of_a_whole_game(platform: Platform, kind: str) -> None:
    # given: a whole game of this kind, a key-less human at seat 0 against bots
    client = create_app(platform.config, platform).test_client()
    body = {"kind": kind, "players": next(line_ups(kind)), "options": short(kind) or {}}
    created = client.post("/v1/games", json=body).get_json()
    game_id, token = created["id"], created["seats"][0]["token"]
    seat, rng = LiveSeat(platform, game_id, token), random.Random(kind)
    seen = {"events pages": 0, "SSE": 0}
    # when: after every action, seat 0 reads its new events from the pages and the stream, and its answers
    for _ in range(5000):
        game = client.get(f"/v1/games/{game_id}", headers=bearer(token)).get_json()
        seat.chains["events pages"].head(game["head"], "game")
        while seen["events pages"] < game["version"]:
            path = f"/v1/games/{game_id}/events?after={seen['events pages']}&limit={PAGE}"
            page = client.get(path, headers=bearer(token)).get_json()
            seat.receive("events pages", page["events"])
            seen["events pages"] = page["next_after"]
        for _, message in sse_messages(client, game_id, token, seen["SSE"], game["version"]):
            event = sse_event(message)
            if event is not None:
                seat.receive("SSE", [event])
                seen["SSE"] = event["version"]
        if game["status"] != "active" or not game["legal_actions"]:
            break
        body = {"action": rng.choice(game["legal_actions"]), "expected_version": game["version"]}
        answer = client.post(f"/v1/games/{game_id}/actions", json=body, headers=bearer(token)).get_json()
        seat.receive("action answers", answer["events"])
        seat.chains["action answers"].head(answer["head"], "action answer")
    # then: every event recomputes and links, from version 1 to the end, and every opening opens its
    # commitment; none gave a hidden card away
    pages, stream = seat.chains["events pages"], seat.chains["SSE"]
    tally = seat.adversary.tally
    print(
        f"chain {kind}: {game['status']} at version {game['version']}; checked "
        + ", ".join(f"{c.events} events ({c.openings} openings) from {route}" for route, c in seat.chains.items())
        + f"; attacked with {tally.guesses} guesses ({tally.opening_guesses} under salts given): "
        + f"{len(seat.leaks)} hidden cards given away"
    )
    assert game["status"] == "finished", f"{kind} did not end"
    assert pages.events == stream.events == game["version"]
    assert pages.openings > 0 and stream.openings > 0, "seat 0 was given no opening of its own values"
    assert sorted(pages.hashes) == list(range(1, game["version"] + 1))
    for route, chain in seat.chains.items():
        assert not chain.problems, (route, chain.problems[:5])
    assert not seat.leaks, seat.leaks[:5]
