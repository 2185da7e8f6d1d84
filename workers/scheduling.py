"""Scheduling after each append: bot turns now, turn timers later."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from rq import Queue, Retry

from core.jobs import queue_names as core_queue_names
from projections.table import Table
from workers.jobs import bot_turn, job_id, play_bot, turn_timeout

if TYPE_CHECKING:
    from core.platform import Platform

BOT_TIMEOUT = 30


def queue_names(platform: Platform) -> tuple[str, str]:
    """The bot-turn queue and the long-work queue of this deployment (named by its prefix)."""
    return core_queue_names(platform.config.prefix)


def sweep_stalled(platform: Platform) -> int:
    """Enqueue the turn of every active game whose seat to act is a bot. Run when a worker
    starts: a turn whose job died with a killed worker is played again (its job id and
    the version check make a second run of a turn that did happen a no-op)."""
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
    return count


class RQScheduler:
    def __init__(self, platform: Platform) -> None:
        self.bots = Queue(queue_names(platform)[0], connection=platform.queue_redis)

    def after_append(self, table: Table) -> None:
        for seat in sorted(table.to_act()):
            if table.seats[seat].bot:
                self.bots.enqueue_call(
                    bot_turn,
                    args=(table.game_id, seat, table.version),
                    job_id=job_id("bot", table.game_id, table.version, seat),
                    timeout=BOT_TIMEOUT,
                    retry=Retry(max=3, interval=[1, 2, 5]),
                    result_ttl=600,
                    failure_ttl=86400,
                )
            elif table.turn_seconds:
                self.bots.enqueue_in(
                    timedelta(seconds=table.turn_seconds),
                    turn_timeout,
                    table.game_id,
                    seat,
                    table.version,
                    job_id=job_id("timeout", table.game_id, table.version, seat),
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
