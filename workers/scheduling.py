"""Scheduling after each append: bot turns now, turn timers later."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import redis
from rq import Queue, Retry
from rq.job import Job
from rq.scheduler import SCHEDULER_KEY_TEMPLATE
from rq.scheduler import RQScheduler as RQJobScheduler
from rq.scripts import release_lock
from rq.utils import utcparse

from core.jobs import QueueUnavailable
from core.jobs import queue_names as core_queue_names
from projections.lifecycle import ms
from projections.table import Table
from workers import long_jobs, webhooks
from workers.due import enqueue_due
from workers.jobs import CHAINING, bot_turn, flag_check, job_id, open_seats_check, play_bot, turn_deadline, turn_timeout
from workers.matchmaking import reconcile_seeks
from workers.tournaments import reconcile_tournaments

if TYPE_CHECKING:
    from stores.platform import Platform

BOT_TIMEOUT = 30


def queue_names(platform: Platform) -> tuple[str, str]:
    """The bot-turn queue and the long-work queue of this deployment (named by its prefix)."""
    return core_queue_names(platform.config.prefix)


def release_dead_schedulers(platform: Platform) -> int:
    """Free the RQ scheduler locks of this deployment's queues held by a scheduler process
    of this host that no longer runs (a worker killed with ``-9`` leaves its lock for a
    minute, and RQ's other workers try again only every two minutes): the worker starting
    now then runs the scheduled jobs (turn timers, flag checks, open-seat expiry) at once.
    A lock held from another host is left to lapse."""
    connection = platform.queue_redis
    here = socket.gethostname()
    released = 0
    for name in queue_names(platform):
        lock = RQJobScheduler.get_locking_key(name)
        owner = connection.get(lock)
        if owner is None:
            continue
        record = connection.hgetall(SCHEDULER_KEY_TEMPLATE % owner.decode())
        host, pid = record.get(b"hostname"), int(record.get(b"pid", b"0") or 0)
        if host is None or host.decode() != here or pid <= 0 or _alive(pid):
            continue
        released += release_lock(connection, lock, owner.decode())
    return released


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed and not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:  # no /proc: trust the signal
        return True


def sweep_stalled(platform: Platform) -> int:
    """``reconcile`` as a worker starts, enqueuing every job the games call for again, held
    or not (a job a killed worker was running still reads as started), so a turn whose job
    died with a killed worker is played at once; a scheduler lock a killed worker left is
    freed. How many games got jobs."""
    return reconcile(platform, again=True)


RECONCILE_SECONDS = 60
"""How often one worker of a deployment reconciles the queue with the games."""

HELD = ("queued", "scheduled", "deferred")
"""The states of a job the queue holds to run."""


def _held(status: bytes | None, started_at: bytes | None) -> bool:
    """Whether the queue holds a bot-queue job (to run, or running): one started longer
    ago than its timeout allows was running on a worker that died."""
    if status is None:
        return False
    if status.decode() != "started":
        return status.decode() in HELD
    try:
        started = utcparse(started_at.decode()) if started_at else None
    except ValueError:
        return False
    if started is None:
        return False
    return (datetime.now(UTC) - started.replace(tzinfo=UTC)).total_seconds() < BOT_TIMEOUT + 5


def reconcile(platform: Platform, clock: Callable[[], float] = time.time, again: bool = False) -> int:
    """Make the queue hold every job the games call for, read from the store: each bot
    to act, turn timer, clock flag and open game's expiry of every game in play, every
    webhook delivery overdue by more than ``RECONCILE_SECONDS``, and every long job whose
    queue entry is gone. A job the queue holds is left as it is (``again``: enqueued all
    the same). Returns how many games got jobs, and deliveries and long jobs were enqueued.
    A worker runs it as it starts and one worker of the deployment every
    ``RECONCILE_SECONDS`` (``reconcile_when_due``), so a queue Redis that lost its data
    (restarted without its disk, failed over before it replicated, wiped) loses no turn,
    timer, delivery or job: a job run twice finds its work done (its id, the version check
    and the command id make a second run a no-op)."""
    release_dead_schedulers(platform)
    models = platform.read_models
    games = models.ids("active") + models.ids("open")
    # The read models lag the log (and are empty while no projector runs): a recent game they
    # have not applied, or not seen finish, is looked at too, else a lost turn would never come back.
    recent = platform.store.recent_game_ids(10_000)
    statuses = models.statuses(recent) if recent else []
    known = set(games)
    games += [g for g, status in zip(recent, statuses, strict=True) if status != "finished" and g not in known]
    scheduler = RQScheduler(platform, only_missing=not again)
    scheduled = 0
    for game_id in games:
        table = platform.tables.load(game_id)
        if table is not None and table.status in ("open", "active"):
            before = scheduler.enqueued
            scheduler.after_append(table)
            scheduled += scheduler.enqueued > before
    overdue = int((clock() - RECONCILE_SECONDS) * 1000)
    deliveries = [d for d, due in platform.webhooks.open_deliveries() if due < overdue]
    for delivery in deliveries:
        webhooks.enqueue(platform, delivery)
    lost = long_jobs.requeue_lost(platform) + reconcile_tournaments(platform) + reconcile_seeks(platform)
    return scheduled + len(deliveries) + lost


def reconcile_when_due(platform: Platform, clock: Callable[[], float] = time.time) -> int | None:
    """``reconcile``, if no worker of the deployment has in the last ``RECONCILE_SECONDS``
    (a key in the queue's Redis, taken by the first to ask; one lost with the queue's data
    only makes the next reconcile come sooner). None when it was not this worker's turn."""
    taken = platform.queue_redis.set(platform.key("reconciled"), str(clock()), nx=True, px=RECONCILE_SECONDS * 1000)
    return reconcile(platform, clock) if taken else None


class RQScheduler:
    """The jobs an append calls for. ``only_missing``: enqueue only those the queue does not
    hold (queued, scheduled or running), as ``reconcile`` asks."""

    def __init__(self, platform: Platform, only_missing: bool = False) -> None:
        self.bots = Queue(queue_names(platform)[0], connection=platform.queue_redis)
        self.only_missing = only_missing
        self.enqueued = 0

    def _wanted(self, *ids: str) -> bool:
        """Whether to enqueue the job ``ids[0]`` (an early run of it goes on under the
        others): always, unless only missing ones are asked and one of them is held."""
        if not self.only_missing:
            self.enqueued += 1
            return True
        connection = self.bots.connection
        with connection.pipeline(transaction=False) as pipe:
            for held in ids:
                pipe.hmget(Job.key_for(held), "status", "started_at")
            records = pipe.execute()
        if any(_held(status, started) for status, started in records):
            return False
        self.enqueued += 1
        return True

    def after_append(self, table: Table) -> None:
        """``QueueUnavailable`` when the queue's Redis cannot be reached."""
        try:
            self._after_append(table)
        except redis.RedisError as error:
            raise QueueUnavailable(str(error)) from error

    def _after_append(self, table: Table) -> None:
        self.lifecycle(table)
        bots = [seat for seat in sorted(table.to_act()) if table.seats[seat].bot]
        bots = [seat for seat in bots if self._wanted(job_id("bot", table.game_id, table.version, seat))]
        if bots and CHAINING.get() != table.game_id:  # a chain plays its game's next bot turn itself
            # One round trip (one MULTI) for the turns, where RQ alone takes two per job: on a
            # Redis that fsyncs every write, each is an fsync between a move and the bot's answer.
            with self.bots.connection.pipeline() as pipe:
                for seat in bots:
                    self.bots.enqueue_call(
                        bot_turn,
                        args=(table.game_id, seat, table.version),
                        job_id=job_id("bot", table.game_id, table.version, seat),
                        timeout=BOT_TIMEOUT,
                        retry=Retry(max=3, interval=[1, 2, 5]),
                        result_ttl=600,
                        failure_ttl=86400,
                        pipeline=pipe,
                    )
                pipe.execute()
        for seat in sorted(table.to_act()):
            if table.seats[seat].bot:
                continue
            timer = job_id("timeout", table.game_id, table.version, seat)
            if table.turn_seconds and self._wanted(timer, f"{timer}-{turn_deadline(table)}"):
                enqueue_due(
                    self.bots,
                    turn_deadline(table),
                    turn_timeout,
                    table.game_id,
                    seat,
                    table.version,
                    job_id=job_id("timeout", table.game_id, table.version, seat),
                    job_timeout=BOT_TIMEOUT,
                    retry=Retry(max=3, interval=[1, 2, 5]),
                )

    def lifecycle(self, table: Table) -> None:
        """The checks at a running clock's deadline, and at an open game's expiry. Each
        re-reads the game when it runs, so one that finds it moved on does nothing; its
        time is the log's (``Envelope.at``), so a restart loses none of it."""
        if (
            table.status == "open"
            and table.lifecycle
            and table.version <= len(table.seats) + 1
            and self._wanted(f"open-{table.game_id}")
        ):
            expires = ms(table.created_at) + int(table.lifecycle["open_seconds"]) * 1000
            enqueue_due(
                self.bots,
                expires,
                open_seats_check,
                table.game_id,
                job_id=f"open-{table.game_id}",
                job_timeout=BOT_TIMEOUT,
                retry=Retry(max=3, interval=[1, 2, 5]),
            )
        if table.status == "active" and table.clock is not None:
            for seat in table.clock.running():
                deadline = table.clock.deadline(seat)
                if deadline is None or table.seats[seat].bot:
                    continue
                flag = job_id("flag", table.game_id, table.version, seat)
                if not self._wanted(flag, f"{flag}-{deadline}"):
                    continue
                enqueue_due(
                    self.bots,
                    deadline,
                    flag_check,
                    table.game_id,
                    seat,
                    job_id=job_id("flag", table.game_id, table.version, seat),
                    job_timeout=BOT_TIMEOUT,
                    retry=Retry(max=3, interval=[1, 2, 5]),
                )


class InlineBots:
    """Plays bot turns at once in the calling process (tests, and a CLI without workers)."""

    def __init__(self, platform: Platform, limit: int = 100_000) -> None:
        self.platform = platform
        self.limit = limit
        self._running = False

    def after_append(self, table: Table) -> None:
        if self._running:
            return
        self._running = True
        try:
            for _ in range(self.limit):
                current = self.platform.tables.load(table.game_id)
                if current is None:
                    return
                bots = [s for s in sorted(current.to_act()) if current.seats[s].bot]
                if not bots:
                    return
                play_bot(self.platform, current.game_id, bots[0], current.version)
        finally:
            self._running = False
