"""Scheduling after each append: bot turns now, turn timers later."""

from __future__ import annotations

import os
import socket
from typing import TYPE_CHECKING

from rq import Queue, Retry
from rq.scheduler import SCHEDULER_KEY_TEMPLATE
from rq.scheduler import RQScheduler as RQJobScheduler
from rq.scripts import release_lock

from core.jobs import queue_names as core_queue_names
from projections.lifecycle import ms
from projections.table import Table
from workers.due import at_or_after
from workers.jobs import CHAINING, bot_turn, flag_check, job_id, open_seats_check, play_bot, turn_deadline, turn_timeout

if TYPE_CHECKING:
    from core.platform import Platform

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
    """Enqueue the turn of every active game whose seat to act is a bot, and the flag
    checks of its running clocks. Run when a worker starts: a turn whose job died with a
    killed worker is played again (its job id and the version check make a second run of
    a turn that did happen a no-op); a scheduler lock a killed worker left is freed."""
    release_dead_schedulers(platform)
    models = platform.read_models
    active = models.ids("active")
    # The read models lag the log (and are empty while no projector runs): a recent game they
    # have not applied, or not seen finish, is swept too, else its lost turn would never come back.
    recent = platform.store.recent_game_ids(10_000)
    statuses = models.statuses(recent) if recent else []
    known = set(active)
    active += [g for g, status in zip(recent, statuses, strict=True) if status != "finished" and g not in known]
    scheduler = RQScheduler(platform)
    count = 0
    for game_id in active:
        table = platform.tables.load(game_id)
        if table is not None and any(table.seats[s].bot for s in table.to_act()):
            scheduler.after_append(table)
            count += 1
        elif table is not None and table.clock is not None:
            scheduler.lifecycle(table)
    return count


class RQScheduler:
    def __init__(self, platform: Platform) -> None:
        self.bots = Queue(queue_names(platform)[0], connection=platform.queue_redis)

    def after_append(self, table: Table) -> None:
        self.lifecycle(table)
        bots = [seat for seat in sorted(table.to_act()) if table.seats[seat].bot]
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
            if table.turn_seconds:
                self.bots.enqueue_at(
                    at_or_after(turn_deadline(table)),
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
        if table.status == "open" and table.lifecycle and table.version <= len(table.seats) + 1:
            expires = ms(table.created_at) + int(table.lifecycle["open_seconds"]) * 1000
            self.bots.enqueue_at(
                at_or_after(expires),
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
                self.bots.enqueue_at(
                    at_or_after(deadline),
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
