"""The read-model projector: consumes the feed through the store's subscription (a
consumer group), applies each notice, acks after applying, and takes over the pending
notices of dead consumers. Applying is idempotent (see ``projections.read_models``)."""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable

import redis

from projections.inbox import Inbox
from stores.platform import Platform

GROUP = "projector"
CLAIM_IDLE_MS = 30_000
log = logging.getLogger(__name__)


class Projector:
    def __init__(self, platform: Platform, consumer: str | None = None, claim_idle_ms: int = CLAIM_IDLE_MS) -> None:
        self.platform = platform
        self.claim_idle_ms = claim_idle_ms
        self.models = platform.read_models
        self.inbox = Inbox(platform.redis, platform.config.prefix)
        self.noting = True  # off while rebuilding: a rebuild tells no player anything
        # Named after the host, not the process: a projector restarted after a crash is the
        # same consumer and first finishes the entries its predecessor was handed, instead
        # of leaving them pending until another consumer claims them as idle.
        self.consumer = consumer or os.environ.get("TABLESTREAM_PROJECTOR_NAME") or socket.gethostname()
        self.subscription = platform.store.subscribe(GROUP, self.consumer, claim_idle_seconds=claim_idle_ms / 1000)

    def ensure_group(self) -> None:
        self.subscription.open()

    def apply(self, game_id: str) -> None:
        table = self.platform.tables.load(game_id)
        if table is not None:
            # The players' inboxes, before the models move (at least once); a game no player
            # holds a seat of tells no one anything, and costs no read.
            if self.noting and any(seat.player for seat in table.seats):
                behind, previous = self.models.before(table)
                if behind:
                    # The players' webhooks, after their inboxes: a delivery's id is the
                    # notice's, so a notice noted again is the same delivery.
                    self.platform.webhooks.notify(self.inbox.note(previous, table))
            self.models.apply(table)
            # A process killed between ending a game and recording it: the ledger catches up here.
            if table.status == "finished" and self.platform.ledger.of(game_id) is None:
                self.platform.handler.record_finished(table)
            if table.status == "finished":  # ratings follow the ledger's order, not the feed's
                self.platform.ratings.catch_up(self.platform.tables.load)

    def step(self, block_ms: int | None = 1000, count: int = 100) -> int:
        """Take over stale notices, receive new ones, apply and ack; return how many were
        handled. A game that could not be applied stays pending and is taken over again
        once idle. ``block_ms`` None: do not wait."""
        handled = 0
        block_seconds = 0.0 if block_ms is None else block_ms / 1000
        for notice in self.subscription.receive(count=count, block_seconds=block_seconds):
            if self._applied(notice.game):
                self.subscription.ack(notice)
                handled += 1
        return handled

    def run(self, should_stop: Callable[[], bool] = lambda: False) -> None:
        self.ensure_group()
        while not should_stop():
            try:
                self.step()
            except (redis.ConnectionError, redis.TimeoutError):
                log.warning("projector lost Redis; retrying")
                time.sleep(1)

    def caught_up(self) -> bool:
        return self.subscription.caught_up()

    def _applied(self, game_id: str) -> bool:
        """Apply one game; False (logged) when it cannot be folded, so that one bad game
        does not stop the models of all the others. Losing Redis still stops the step."""
        try:
            self.apply(game_id)
        except redis.ConnectionError:
            raise
        except Exception:
            log.exception("the read models could not apply game %s", game_id)
            return False
        return True

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Rebuild every read model from zero, from the games' logs."""
        self.models.clear()
        self.platform.ratings.clear()
        ids = list(self.platform.store.game_ids())
        self.noting = False
        try:
            for done, game_id in enumerate(ids, start=1):
                self._applied(game_id)
                if progress:
                    progress(done, len(ids))
        finally:
            self.noting = True
        self.platform.ratings.catch_up(self.platform.tables.load)
        return len(ids)
