"""RQ's workers with fewer round trips of bookkeeping between a job's arrival and its start.

A bot's answer waits for every Redis round trip the worker makes between taking the
turn off the queue and running it, and on a Redis that fsyncs every write (the embedded
one of ``tablestream serve``) each write waits for the disk. RQ's own loop sends its
heartbeat as three separate writes, twice around every wait for a job, and writes the
worker's state again when it has not changed. These classes send the same heartbeat in
one round trip, skip a heartbeat that repeats one sent moments before with the same
lifetime, and skip a state already written. Nothing else changes: the jobs' registries,
executions, timeouts, retries and the recovery of abandoned jobs are RQ's own.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from rq import SimpleWorker, Worker
from rq.defaults import DEFAULT_LOGGING_DATE_FORMAT, DEFAULT_LOGGING_FORMAT
from rq.scheduler import RQScheduler

from workers.due import PreciseScheduledJobRegistry
from workers.runtime import current
from workers.scheduling import reconcile_when_due

log = logging.getLogger(__name__)

# How often the deployment's scheduler looks for due jobs (RQ's looks once a second).
LOOK_SECONDS = 0.1
# A heartbeat repeating one sent this recently, with the same lifetime, is left out: it
# would move the worker's expiry by less than this, out of the minutes RQ gives it.
FRESH_SECONDS = 1.0


class RecordedScheduler(RQScheduler):
    """RQ's scheduler, with its record (host and pid) written before it takes a lock.

    RQ writes the record only once the scheduler's own process has forked and started, so a
    worker killed in between leaves a lock nobody can tell from a live one; it lapses only
    after a minute, and the other workers look for it again only every two, while turn
    timers and clock flags wait. With the record first, the lock always names a process,
    and a worker starting after a crash frees it at once
    (``workers.scheduling.release_dead_schedulers``). The forked scheduler writes the record
    again with its own pid, as RQ does."""

    def prepare_registries(self, queue_names: Any = None) -> None:
        """RQ's, each asked for due jobs to the microsecond (``workers.due``)."""
        super().prepare_registries(queue_names)
        self._scheduled_job_registries = [
            PreciseScheduledJobRegistry(registry.name, connection=self.connection, serializer=self.serializer)
            for registry in self._scheduled_job_registries
        ]

    def work(self) -> None:
        """RQ's loop, looking for due jobs every ``LOOK_SECONDS`` rather than every second
        (a turn timer then plays within about that of its deadline); the heartbeat, which
        keeps the record and the locks, still once a second."""
        self._install_signal_handlers()
        self.register_birth()
        beat = 0.0
        while not self._stop_requested:
            if self.should_reacquire_locks:
                self.acquire_locks()
            if time.monotonic() - beat >= self.interval:
                self.heartbeat()
                beat = time.monotonic()
            self.enqueue_scheduled_jobs()
            time.sleep(LOOK_SECONDS)
        self.stop()

    def acquire_locks(self, auto_start: bool = False) -> set[str]:
        recorded = not self.acquired_locks
        if recorded:
            self.register_birth()
        locks: set[str] = super().acquire_locks(auto_start)
        if recorded and not locks:
            self.register_death()  # another scheduler holds them: no record of ours is wanted
        return locks


class Bookkeeping:
    """The overrides, mixed into RQ's worker classes below."""

    def _start_scheduler(
        self,
        burst: bool = False,
        logging_level: str | None = "INFO",
        date_format: str = DEFAULT_LOGGING_DATE_FORMAT,
        log_format: str = DEFAULT_LOGGING_FORMAT,
    ) -> None:
        """RQ's, with a ``RecordedScheduler``."""
        worker: Any = self
        worker.scheduler = RecordedScheduler(
            worker.queues,
            connection=worker.connection,
            logging_level=logging_level if logging_level is not None else worker.log.level,
            date_format=date_format,
            log_format=log_format,
            serializer=worker.serializer,
        )
        scheduler = worker.scheduler
        if not scheduler.acquire_locks():
            return
        if not burst:
            scheduler.start()
            return
        try:
            scheduler.enqueue_scheduled_jobs()
        finally:
            scheduler.release_locks()
            scheduler.register_death()

    _beat: tuple[float, int] | None = None

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        lifetime = timeout or self.worker_ttl + 60  # type: ignore[attr-defined]
        if pipeline is not None:  # part of RQ's own pipeline: no round trip of its own
            super().heartbeat(timeout, pipeline=pipeline)  # type: ignore[misc]
            self._beat = (time.monotonic(), lifetime)
            return
        if self._beat is not None and self._beat[1] == lifetime and time.monotonic() - self._beat[0] < FRESH_SECONDS:
            return
        with self.connection.pipeline(transaction=False) as batch:  # type: ignore[attr-defined]
            super().heartbeat(timeout, pipeline=batch)  # type: ignore[misc]
            batch.execute()
        self._beat = (time.monotonic(), lifetime)

    def run_maintenance_tasks(self) -> None:
        """RQ's own (registries, the scheduler), then, when it is this worker's turn, the
        reconcile of the queue with the games (``workers.scheduling.reconcile_when_due``). A
        reconcile that fails is logged and tried again at a later turn: the worker goes on."""
        super().run_maintenance_tasks()  # type: ignore[misc]
        try:
            reconciled = reconcile_when_due(current())
        except Exception:
            log.exception("the reconcile of the queue with the games failed; it is tried again later")
            return
        if reconciled:
            log.warning("reconcile: the queue lacked jobs for %d games, deliveries or long jobs", reconciled)

    def set_state(self, state: str, pipeline: Any = None) -> None:
        if pipeline is None and state == getattr(self, "_state", None):
            return  # written already
        super().set_state(state, pipeline=pipeline)  # type: ignore[misc]


class TurnWorker(Bookkeeping, SimpleWorker):
    """``SimpleWorker`` (jobs in the worker's own process) with less bookkeeping."""


class ForkingTurnWorker(Bookkeeping, Worker):
    """``Worker`` (each job in a work horse of its own) with less bookkeeping."""
