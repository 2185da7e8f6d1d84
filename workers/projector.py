"""The read-model projector: consumes the global feed through a consumer group,
applies each notice, acks after applying, and claims the pending entries of dead
consumers. Applying is idempotent (see ``projections.read_models``)."""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable

import redis

from core.platform import Platform
from projections.read_models import ReadModels

GROUP = "projector"
CLAIM_IDLE_MS = 30_000
log = logging.getLogger(__name__)


class Projector:
    def __init__(self, platform: Platform, consumer: str | None = None, claim_idle_ms: int = CLAIM_IDLE_MS) -> None:
        self.platform = platform
        self.claim_idle_ms = claim_idle_ms
        self._recovered = False
        self.models = ReadModels(platform.redis, platform.config.prefix)
        # Named after the host, not the process: a projector restarted after a crash is the
        # same consumer and first finishes the entries its predecessor was handed, instead
        # of leaving them pending until another consumer claims them as idle.
        self.consumer = consumer or os.environ.get("TABLESTREAM_PROJECTOR_NAME") or socket.gethostname()
        self.feed = platform.store.feed_key

    def ensure_group(self) -> None:
        try:
            self.platform.redis.xgroup_create(self.feed, GROUP, id="0", mkstream=True)
        except redis.ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    def apply(self, game_id: str) -> None:
        table = self.platform.tables.load(game_id)
        if table is not None:
            self.models.apply(table)
            # A process killed between ending a game and recording it: the ledger catches up here.
            if table.status == "finished" and self.platform.ledger.of(game_id) is None:
                self.platform.handler.record_finished(table)

    def step(self, block_ms: int = 1000, count: int = 100) -> int:
        """Claim stale entries, read new ones, apply and ack; return how many were handled."""
        r = self.platform.redis
        handled = 0
        # Redis 6.2 answers [cursor, entries]; Redis 7 adds the ids it deleted.
        claimed = r.xautoclaim(self.feed, GROUP, self.consumer, self.claim_idle_ms, "0-0", count=count)[1]
        batches = [claimed] if claimed else []
        if not self._recovered:
            # A restarted consumer first finishes what it was handed before it died.
            for _, entries in r.xreadgroup(GROUP, self.consumer, {self.feed: "0"}, count=10_000) or []:
                batches.append(entries)
            self._recovered = True
        fresh = r.xreadgroup(GROUP, self.consumer, {self.feed: ">"}, count=count, block=block_ms)
        for _, entries in fresh or []:
            batches.append(entries)
        for entries in batches:
            for entry_id, fields in entries:
                # A game that could not be applied stays pending and is claimed again once idle.
                if fields and not self._applied(fields[b"game"].decode()):
                    continue
                r.xack(self.feed, GROUP, entry_id)
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
        info = self.platform.redis.xinfo_groups(self.feed)
        group = next((g for g in info if g["name"].decode() == GROUP), None) if info else None
        return group is not None and group["pending"] == 0 and (group.get("lag") in (0, None))

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
        ids = list(self.platform.store.game_ids())
        for done, game_id in enumerate(ids, start=1):
            self._applied(game_id)
            if progress:
                progress(done, len(ids))
        return len(ids)
