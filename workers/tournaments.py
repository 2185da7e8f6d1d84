"""The tournament worker (``core.tournaments``): ``step`` pairs a tournament's next round
once every game of the one before is over, and finishes it after the last; the job
``tournament_step`` runs it, scheduled at the start and every ``CHECK_SECONDS`` while a
round is played. Each round's games are created with command ids of their own
(tournament, round, table), and the round is appended at the log's expected length, so a
step run twice, or by two workers at once, pairs a round once and creates each game once."""

from __future__ import annotations

import time
from typing import Any

import redis
from rq import Queue

from core.jobs import QueueUnavailable, queue_names
from core.players import account_of
from core.tournaments import CHECK_SECONDS, Tournament, arena_wave, fold, next_round, outcome_reader, pod_of
from stores.platform import Platform
from workers.due import enqueue_due
from workers.runtime import current

STEP_TIMEOUT = 120  # a round's games created: a few per table


def tournament_step(tournament_id: str) -> str:
    return step(current(), tournament_id)


def schedule(platform: Platform, tournament_id: str, seconds: float = 0.0) -> None:
    """``tournament_step`` in ``seconds`` on the bots' queue; ``QueueUnavailable`` if it is away."""
    due = int((time.time() + seconds) * 1000)
    try:
        enqueue_due(
            Queue(queue_names(platform.config.prefix)[0], connection=platform.queue_redis),
            due,
            tournament_step,
            tournament_id,
            job_id=f"tournament-{tournament_id}-{due}",
            job_timeout=STEP_TIMEOUT,
            result_ttl=600,
        )
    except redis.RedisError as error:
        raise QueueUnavailable(str(error)) from error


class RQTournaments:
    """``core.tournaments.TournamentRunner`` on RQ."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform

    def schedule(self, tournament_id: str, seconds: float = 0.0) -> None:
        schedule(self.platform, tournament_id, seconds)


def step(platform: Platform, tournament_id: str, reschedule: bool = True, now_ms: int | None = None) -> str:
    """What the tournament calls for now: the next round paired (its games created), the
    tournament finished, or nothing while a game of the round is played (checked again in
    ``CHECK_SECONDS`` when ``reschedule``). Returns what it did. An arena pairs whoever is
    free until its end (``now_ms``: the time, ms since the epoch), then finishes once its
    last games are over."""
    t = fold(tournament_id, platform.tournaments.read(tournament_id))
    if t is None or t.status != "running":
        return "idle"
    outcome_of = outcome_reader(platform.handler.load)
    if t.format == "arena":
        return _arena(platform, t, outcome_of, int(time.time() * 1000) if now_ms is None else now_ms, reschedule)
    if t.paired:
        if any(outcome_of(table["game"]) is None for table in t.paired[-1]["tables"]):
            if reschedule:
                schedule(platform, tournament_id, CHECK_SECONDS)
            return "waiting"
        if len(t.paired) >= t.rounds:
            platform.tournaments.append(tournament_id, t.length, [{"type": "Finished"}])
            return "finished"
    number = len(t.paired) + 1
    tables, byes = next_round(t, outcome_of, pod_of(t.kind))
    made = [{"game": _game(platform, t, number, index, table), "entrants": table} for index, table in enumerate(tables)]
    event = {"type": "RoundPaired", "round": number, "tables": made, "byes": byes}
    if not platform.tournaments.append(tournament_id, t.length, [event]):
        return "paired by another"
    if reschedule:
        schedule(platform, tournament_id, CHECK_SECONDS)
    return f"round {number} paired"


def _arena(platform: Platform, t: Tournament, outcome_of: Any, now_ms: int, reschedule: bool) -> str:
    playing = any(outcome_of(table["game"]) is None for paired in t.paired for table in paired["tables"])
    if t.ends_at is not None and now_ms >= t.ends_at:
        if playing:
            if reschedule:
                schedule(platform, t.id, CHECK_SECONDS)
            return "waiting"
        platform.tournaments.append(t.id, t.length, [{"type": "Finished"}])
        return "finished"
    tables = arena_wave(t, outcome_of, pod_of(t.kind))
    done = "waiting"
    if tables:
        number = len(t.paired) + 1
        made = [{"game": _game(platform, t, number, i, table), "entrants": table} for i, table in enumerate(tables)]
        event = {"type": "RoundPaired", "round": number, "tables": made, "byes": []}
        done = f"wave {number} paired" if platform.tournaments.append(t.id, t.length, [event]) else "paired by another"
    if reschedule:
        schedule(platform, t.id, CHECK_SECONDS)
    return done


def _game(platform: Platform, t: Tournament, number: int, index: int, table: list[str]) -> str:
    entrants = {e.id: e for e in t.entrants}
    players: list[dict[str, Any]] = []
    for one in table:
        entrant = entrants[one]
        if entrant.bot:
            players.append({"bot": entrant.bot, "name": entrant.name})
        else:
            held = platform.players.get(entrant.id) or {}
            players.append({"name": entrant.name, "player": entrant.id, **account_of(held)})
    created = platform.handler.create_game(
        t.kind,
        players,
        command_id=f"{t.id}-round-{number}-table-{index}",
        lifecycle={"clock": t.clock} if t.clock else None,
    )
    return created.table.game_id


def reconcile_tournaments(platform: Platform) -> int:
    """Schedule a step of every tournament under way (the reconcile's part: a queue that
    lost its data loses no round); a step with nothing to do does nothing."""
    running = 0
    for tournament_id in platform.tournaments.running():
        t = fold(tournament_id, platform.tournaments.read(tournament_id))
        if t is not None and t.status == "running":
            schedule(platform, tournament_id)
            running += 1
    return running
