"""A hypothesis state machine over the event store and the command
handler. Random interleavings of create, act (legal, illegal, stale), retry with the
same key, undo request and answer, fork, and read-model rebuild keep every invariant:
versions gap-free, the hash chain verifies, the fold equals the snapshot and the cached
table, the audit passes, a retry or a refused command appends nothing, and the live
read models equal a rebuild from zero."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import fakeredis
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from core.config import Config
from core.errors import CommandError
from events.envelope import verify_chain
from games.base import GameEvent
from projections.audit import audit_entries
from projections.table import PLATFORM_EVENTS
from stores.platform import Platform
from workers.projector import Projector
from workers.scheduling import InlineBots

pytestmark = pytest.mark.timeout(300)

FIGURES = {
    "machines": 0,
    "steps": 0,
    "commands": 0,
    "refused": 0,
    "retries": 0,
    "undos": 0,
    "rewinds": 0,
    "forks": 0,
    "rebuilds": 0,
}


@dataclass
class Sent:
    game: str
    seat: int
    action: dict[str, Any]
    version: int
    key: str
    first: int
    last: int


class StoreAndHandler(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        config = Config(redis_url="fake", prefix="sm")
        self.platform = Platform(config, fakeredis.FakeRedis(server=fakeredis.FakeServer()))
        self.platform.handler.scheduler = InlineBots(self.platform)
        self.projector = Projector(self.platform, consumer="machine")
        self.projector.ensure_group()
        self.games: list[str] = []
        self.sent: list[Sent] = []
        self.keys = 0
        self.checked: dict[str, tuple[tuple[int, str], int]] = {}
        FIGURES["machines"] += 1

    # -- helpers ---------------------------------------------------------------

    def lengths(self) -> dict[str, int]:
        return {g: self.platform.store.last_version(g) for g in self.games}

    def new_key(self) -> str:
        self.keys += 1
        return f"key-{self.keys}"

    def refused(self, before: dict[str, int]) -> None:
        FIGURES["refused"] += 1
        assert self.lengths() == before, "a refused command appended events"

    # -- rules -----------------------------------------------------------------

    @rule(kind=st.sampled_from(["tiny", "tiny", "fortress-royals"]), bot=st.booleans(), start=st.integers(0, 9))
    def create(self, kind: str, bot: bool, start: int) -> None:
        players = [{"name": "ann"}, {"bot": "random"} if bot else {"name": "bob"}]
        options = {"start": start} if kind == "tiny" else {}
        # A chosen seed, so that hypothesis replays (and shrinks) the same deals.
        created = self.platform.handler.create_game(kind, players, options, seed=f"seed-{len(self.games)}")
        self.games.append(created.table.game_id)
        FIGURES["commands"] += 1

    @precondition(lambda self: self.games)
    @rule(pick=st.integers(0, 10**6), keyed=st.lists(st.booleans(), min_size=1, max_size=8), gentle=st.booleans())
    def act(self, pick: int, keyed: list[bool], gentle: bool) -> None:
        """A few legal actions in a row, some sent with an idempotency key; ``gentle``
        ones draw and reveal nothing where they can, so that they may be undone."""
        game = self.games[pick % len(self.games)]
        rng = random.Random(pick)
        for with_key in keyed:
            table = self.platform.handler.load(game)
            if table.status != "active":
                return
            seat = rng.choice(sorted(table.to_act()))
            legal = table.game.legal_actions(table.state, seat)
            if gentle:
                legal = [a for a in legal if self.reversible(table, seat, a, rng)] or legal
            action = rng.choice(legal)
            key = self.new_key() if with_key else None
            acted = self.platform.handler.act(game, seat, action, table.version, command_id=key)
            assert not acted.duplicate and acted.envelopes[0].version == table.version + 1
            FIGURES["commands"] += 1
            if key is not None:
                self.sent.append(
                    Sent(game, seat, action, table.version, key, acted.envelopes[0].version, acted.version)
                )

    @precondition(lambda self: self.games)
    @rule(pick=st.integers(0, 10**6), how=st.sampled_from(["stale", "ahead", "illegal", "other_seat"]))
    def act_wrongly(self, pick: int, how: str) -> None:
        game = self.games[pick % len(self.games)]
        table = self.platform.handler.load(game)
        if table.status != "active":
            return
        seat = min(table.to_act())
        action: dict[str, Any] = table.game.legal_actions(table.state, seat)[0]
        version = table.version
        if how == "stale":
            version -= 1 + pick % table.version
        elif how == "ahead":
            version += 1 + pick % 5
        elif how == "illegal":
            action = {"type": "no-such-action", "n": pick}
        else:
            others = [s for s in range(len(table.seats)) if s not in table.to_act()]
            if not others:
                return
            seat = others[0]
        before = self.lengths()
        with pytest.raises(CommandError):
            self.platform.handler.act(game, seat, action, version, command_id=self.new_key())
        self.refused(before)

    @precondition(lambda self: self.sent)
    @rule(pick=st.integers(0, 10**6))
    def retry(self, pick: int) -> None:
        sent = self.sent[pick % len(self.sent)]
        before = self.lengths()
        again = self.platform.handler.act(sent.game, sent.seat, sent.action, sent.version, command_id=sent.key)
        assert again.duplicate
        assert (again.envelopes[0].version, again.envelopes[-1].version) == (sent.first, sent.last)
        assert self.lengths() == before, "a retry appended events"
        FIGURES["retries"] += 1

    @staticmethod
    def reversible(table: Any, seat: int, action: dict[str, Any], rng: random.Random) -> bool:
        events = table.game.decide(table.state, seat, action, random.Random(rng.random()))
        return not any(table.game.irreversible(e) for e in events)

    def undoable(self, game: str, table: Any) -> list[int]:
        """The versions an undo may return to, latest first: before each of the last
        commands, back to the first that drew or revealed something."""
        out: list[int] = []
        for envelope in reversed(self.platform.store.read(game, after=max(0, table.version - 40))):
            if envelope.type == "ActionTaken":
                out.append(envelope.version - 1)
            elif envelope.type not in PLATFORM_EVENTS and table.game.irreversible(
                GameEvent(envelope.type, envelope.data, envelope.seat)
            ):
                break
        return [v for v in out if v >= 1]

    @precondition(lambda self: self.games)
    @rule(pick=st.integers(0, 10**6), back=st.integers(1, 8))
    def request_undo(self, pick: int, back: int) -> None:
        game = self.games[pick % len(self.games)]
        table = self.platform.handler.load(game)
        humans = [i for i, s in enumerate(table.seats) if not s.bot]
        # Mostly a version an undo may go to, sometimes any (refused unless it happens to be).
        targets = self.undoable(game, table)
        to_version = targets[min(back, len(targets)) - 1] if targets and back < 7 else max(1, table.version - back)
        before = self.lengths()
        try:
            acted = self.platform.handler.request_undo(
                game, humans[pick % len(humans)], to_version, datetime.now(UTC), 120
            )
        except CommandError:
            self.refused(before)
        else:
            FIGURES["undos"] += 1
            FIGURES["rewinds"] += any(e.type == "Rewound" for e in acted.envelopes)

    @precondition(lambda self: self.games)
    @rule(pick=st.integers(0, 10**6), accept=st.booleans())
    def answer_undo(self, pick: int, accept: bool) -> None:
        game = self.games[pick % len(self.games)]
        table = self.platform.handler.load(game)
        if table.undo is None:
            return
        waiting = [i for i, s in enumerate(table.seats) if not s.bot and i not in table.undo.accepted]
        if not waiting:
            return
        before = self.lengths()
        try:
            acted = self.platform.handler.answer_undo(game, waiting[0], table.undo.id, accept, datetime.now(UTC))
        except CommandError:
            self.refused(before)
        else:
            FIGURES["undos"] += 1
            FIGURES["rewinds"] += any(e.type == "Rewound" for e in acted.envelopes)

    @precondition(lambda self: self.games)
    @rule(pick=st.integers(0, 10**6))
    def undo_with_everyone_s_consent(self, pick: int) -> None:
        """An undo to the latest version it may go to, accepted by every other human seat:
        the game is rewound (random requests and answers reach that end only now and then)."""
        game = self.games[pick % len(self.games)]
        table = self.platform.handler.load(game)
        targets = self.undoable(game, table)
        if table.status != "active" or table.undo is not None or not targets:
            return
        humans = [i for i, s in enumerate(table.seats) if not s.bot]
        asker = humans[pick % len(humans)]
        before = self.lengths()
        try:
            acted = self.platform.handler.request_undo(game, asker, targets[0], datetime.now(UTC), 120)
        except CommandError:
            self.refused(before)
            return
        envelopes = list(acted.envelopes)
        for seat in humans:
            pending = self.platform.handler.load(game).undo
            if seat != asker and pending is not None and seat not in pending.accepted:
                envelopes += self.platform.handler.answer_undo(
                    game, seat, pending.id, True, datetime.now(UTC)
                ).envelopes
        assert any(e.type == "Rewound" for e in envelopes), "an undo every seat agreed to did not rewind"
        FIGURES["undos"] += 1
        FIGURES["rewinds"] += 1

    @precondition(lambda self: self.games and len(self.games) < 12)
    @rule(pick=st.integers(0, 10**6))
    def fork(self, pick: int) -> None:
        game = self.games[pick % len(self.games)]
        table = self.platform.handler.load(game)
        before = self.lengths()
        try:
            created = self.platform.handler.fork(game, 1 + pick % table.version, pick % len(table.seats))
        except CommandError:
            self.refused(before)
            return
        self.games.append(created.table.game_id)
        assert created.table.forked_from is not None
        assert created.table.version == 1 and created.table.forked_from["game"] == game
        FIGURES["forks"] += 1

    @precondition(lambda self: self.games)
    @rule()
    def rebuild_read_models(self) -> None:
        while self.projector.step(block_ms=None, count=1000):  # type: ignore[arg-type]
            pass
        models = self.platform.read_models
        live = models.snapshot()
        Projector(self.platform).rebuild()
        assert models.snapshot() == live, "live read models differ from a rebuild from zero"
        FIGURES["rebuilds"] += 1

    # -- invariants ------------------------------------------------------------------

    @invariant()
    def every_log_keeps_its_promises(self) -> None:
        FIGURES["steps"] += 1
        store, tables = self.platform.store, self.platform.tables
        for game in self.games:
            mark = (store.head(game), self.platform.snapshots.version(game))
            if self.checked.get(game) == mark:
                continue  # the same log and snapshot as when last checked
            self.checked[game] = mark
            raw = store.read_raw(game)
            assert [v for v, _ in raw] == list(range(1, len(raw) + 1)), "versions have a gap"
            assert verify_chain(raw).ok, "the hash chain is broken"
            folded = tables.fold(game, None, store.read(game))
            assert folded == tables.load(game), "the cached table differs from the fold"
            snapshot = self.platform.snapshots.get(game)
            report = audit_entries(game, raw, self.platform.vault.seed(game), snapshot)
            assert report.ok, report.reason
            if snapshot is not None:
                assert tables.fold(game, None, store.read(game, limit=snapshot.version)) == snapshot


def test_random_interleavings_keep_every_invariant() -> None:
    random.seed(0)
    run_state_machine_as_test(
        StoreAndHandler,
        settings=settings(
            max_examples=150,
            stateful_step_count=30,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
    print(f"stateful: {FIGURES}")
    assert all(FIGURES[k] for k in ("retries", "refused", "undos", "rewinds", "forks", "rebuilds")), FIGURES
