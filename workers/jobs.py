"""The jobs: module-level functions taking simple arguments.

A bot turn re-reads the table and does nothing when the game moved on, so a job
that runs twice (a retry, a worker killed mid-job and its job re-queued) acts once;
its command id is derived from the turn and the game's secret seed (the same for a
bot and a turn timer at that turn), so even a second append is refused as a duplicate,
and nobody can predict it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import time
from collections.abc import Callable
from contextvars import ContextVar

from core.analysis import ITERATIONS as ANALYSIS_ITERATIONS
from core.analysis import analyse
from core.errors import Code, CommandError
from core.tooling import audit_game, render_replay
from games.bots import choose
from games.rng import keyed_rng
from projections.lifecycle import ms
from projections.table import Table
from stores.platform import Platform
from workers.due import again_at
from workers.projector import Projector
from workers.runtime import current

MOVED_ON = (Code.STALE_VERSION, Code.GAME_OVER, Code.NOT_YOUR_TURN, Code.GAME_NOT_STARTED, Code.OUT_OF_TIME)


CHAIN_SECONDS = 0.5
"""How long one bot job goes on playing the bot turns that follow its own, back to back,
before it hands the rest to a new job at the back of the queue (other games' turns wait
no longer than this behind a game of bots). A turn begun within it is finished."""
CHAIN_TURNS = 64
"""The most turns one bot job plays, however quick they are."""

CHAINING: ContextVar[str | None] = ContextVar("chaining", default=None)
"""The game whose bot turns this job is playing one after another: the scheduler enqueues
no job for its next bot turn (``workers.scheduling``), which the chain plays itself."""


def bot_turn(game_id: str, seat: int, version: int, actor: str = "bot", level: str | None = None) -> str:
    """The job of a bot's turn: the turn, then each bot turn that follows it at once.

    A job's own bookkeeping in RQ (claiming, heartbeats, results, registries) costs more
    than a quick bot's move, so the turns of a game whose next seats are bots are played
    in one job, each appended (and streamed) as its own command, for up to ``CHAIN_SECONDS``
    or ``CHAIN_TURNS``; then one job is enqueued for the next. A job run again after its
    worker died finds its own turn played and goes on from where the game is, so a turn
    the dead chain owed is not lost; a turn played twice is refused by its command id,
    which depends only on the game, the version and the seat."""
    platform = current()
    if actor != "bot" or level is not None:  # a job enqueued by an earlier release: one turn
        return play_bot(platform, game_id, seat, version, actor, level)
    started = time.monotonic()
    token = CHAINING.set(game_id)
    try:
        result = play_bot(platform, game_id, seat, version)
        played = 0 if result == "moved on" else 1
        # The bot turns that follow: after this job's own turn, or from where the game is
        # when it had left that turn (this job run again after its worker died).
        while played < CHAIN_TURNS and time.monotonic() - started < CHAIN_SECONDS:
            table = platform.tables.load(game_id)
            bots = [] if table is None else [s for s in sorted(table.to_act()) if table.seats[s].bot]
            if table is None or not bots:
                return _chained(result, played)
            following = play_bot(platform, game_id, bots[0], table.version)
            if following == "moved on":  # another job is playing this game: it goes on
                return _chained(result, played)
            result, played = following if played == 0 else result, played + 1
    finally:
        CHAINING.reset(token)
    table = platform.tables.load(game_id)
    if table is not None and platform.handler.scheduler is not None:
        platform.handler.scheduler.after_append(table)  # the rest of the turns: a new job
    return _chained(result, played)


def _chained(first: str, played: int) -> str:
    return first if played <= 1 else f"{first}, then {played - 1} more turns"


def play_bot(
    platform: Platform, game_id: str, seat: int, version: int, actor: str = "bot", level: str | None = None
) -> str:
    started = time.monotonic()
    table = platform.tables.load(game_id)
    if table is None or table.version != version or seat not in table.to_act():
        return "moved on"
    chosen = level or table.seats[seat].bot or "greedy"
    seed = platform.vault.seed(game_id)
    rng = bot_rng(seed, version, seat)
    stop_at = started + platform.config.bot_seconds
    moved_on = MovedOn(platform, game_id, version)

    def deadline() -> bool:
        return time.monotonic() >= stop_at or moved_on()

    action = choose(chosen, table.game, table.state, seat, rng, deadline=deadline, clock=time.process_time)
    if moved_on.seen:  # another seat acted while this bot thought (a phase where both act)
        return "moved on"
    try:
        platform.handler.act(
            game_id, seat, action, version, command_id=bot_command_id(seed, version, seat), actor=actor
        )
    except CommandError as error:
        if error.code in MOVED_ON:
            return "moved on"
        raise
    return f"played {action['type']}"


def bot_rng(seed: str, version: int, seat: int) -> random.Random:
    """A bot's randomness for one turn: keyed by the game's secret seed, so that no player
    can work out a bot's choices in advance, and by the turn, so that a re-run repeats them."""
    return keyed_rng(seed, f"bot:{version}:{seat}")


def bot_command_id(seed: str, version: int, seat: int) -> str:
    """The command id of the bot's (or the turn timer's) move at ``version``."""
    return "bot-" + hmac.new(seed.encode(), f"bot-command:{version}:{seat}".encode(), hashlib.sha256).hexdigest()[:32]


class MovedOn:
    """Whether the game has left ``version``, asked of Redis at most every ``every`` seconds,
    so a search for a position that no longer exists stops and frees the worker."""

    def __init__(self, platform: Platform, game_id: str, version: int, every: float = 0.05) -> None:
        self.platform, self.game_id, self.version, self.every = platform, game_id, version, every
        self.asked = time.monotonic()
        self.seen = False

    def __call__(self) -> bool:
        if not self.seen and time.monotonic() - self.asked >= self.every:
            self.asked = time.monotonic()
            self.seen = self.platform.store.last_version(self.game_id) != self.version
        return self.seen


def turn_deadline(table: Table) -> int:
    """When the turn timer of ``table``'s seats to act falls due (ms since the epoch): the
    per-turn limit after the last event, by the log's own time (``Envelope.at``)."""
    return ms(table.updated_at) + int(table.turn_seconds or 0) * 1000


def turn_timeout(game_id: str, seat: int, version: int) -> str:
    """The seat did not act in time: the greedy bot plays for it, as ``timeout``; a seat
    it has played for in too many turns in a row has abandoned the game
    (``core.lifecycle``). A timer that runs before its deadline by the clock events are
    stamped with (a host whose clock runs ahead) schedules itself again for the deadline
    and plays nothing."""
    platform = current()
    table = platform.tables.load(game_id)
    if table is not None and table.version == version and table.turn_seconds:
        due = turn_deadline(table)
        if platform.handler.now_ms() < due:
            again_at(due, turn_timeout, game_id, seat, version, job_id=job_id("timeout", game_id, version, seat))
            return f"not due until {due}"
    played = play_bot(platform, game_id, seat, version, actor="timeout", level="greedy")
    if played.startswith("played"):
        left = current().handler.abandoned(game_id, seat)
        if left == "abandoned":
            return f"{played}; seat {seat} abandoned the game"
    return played


def flag_check(game_id: str, seat: int) -> str:
    """At a clock's deadline: the flag falls if the seat's time has run out. A check that
    finds the seat's clock still running with time left ran early (a host whose clock runs
    ahead of the one that stamped the moves): it schedules itself again for the deadline."""
    platform = current()
    checked = platform.handler.flag(game_id, seat)
    if checked != "time left":
        return checked
    table = platform.tables.load(game_id)
    deadline = table.clock.deadline(seat) if table is not None and table.clock is not None else None
    if table is None or deadline is None:
        return checked
    if not again_at(deadline, flag_check, game_id, seat, job_id=job_id("flag", game_id, table.version, seat)):
        return checked
    return f"time left: again at {deadline}"


def open_seats_check(game_id: str) -> str:
    """Once a game's open seats have had their time: a game still open is aborted."""
    return current().handler.expire_open(game_id)


def job_id(kind: str, game_id: str, version: int, seat: int) -> str:
    return f"{kind}-{game_id}-{version}-{seat}"


# -- long work: replays, audits, rebuilds ---------------------------------------

RESULT_SECONDS = 24 * 3600


def _progress(platform: Platform, job: str) -> Callable[[int, int], None]:
    key = platform.key("job", job)

    def report(done: int, total: int) -> None:
        platform.redis.hset(key, mapping={"done": done, "total": total})
        platform.redis.expire(key, RESULT_SECONDS)

    return report


def _store_result(platform: Platform, job: str, media_type: str, body: str) -> None:
    key = platform.key("job", job)
    platform.redis.hset(key, mapping={"media_type": media_type, "result": body})
    platform.redis.expire(key, RESULT_SECONDS)


def replay_job(job: str, game_id: str, seat: int | None) -> str:
    platform = current()
    lines = list(render_replay(platform, game_id, seat, _progress(platform, job)))
    _store_result(platform, job, "application/x-ndjson", "\n".join(lines) + "\n")
    return f"{len(lines) - 1} versions rendered"


def analysis_job(job: str, game_id: str, iterations: int = ANALYSIS_ITERATIONS) -> str:
    """The post-game analysis (``core.analysis``), kept as the game's read model and as the job's result."""
    platform = current()
    found = analyse(platform, game_id, iterations, _progress(platform, job))
    platform.analyses.save(game_id, found)
    _store_result(platform, job, "application/json", json.dumps(found))
    return f"{len(found['decisions'])} decisions analysed"


def audit_job(job: str, game_id: str) -> str:
    platform = current()
    report = audit_game(platform, game_id, _progress(platform, job))
    _store_result(platform, job, "application/json", json.dumps(report.as_json()))
    return "ok" if report.ok else f"fails at version {report.first_bad_version}: {report.reason}"


def rebuild_job(job: str) -> str:
    platform = current()
    count = Projector(platform).rebuild(_progress(platform, job))
    _store_result(platform, job, "application/json", json.dumps({"games": count}))
    return f"rebuilt from {count} games"
