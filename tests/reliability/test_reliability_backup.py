"""Back up a running service and restore it into an empty Redis: taken while a worker plays
bot games and a human plays another, the backup restores (``tablestream restore``) into a
Redis of its own, where every game passes the audit, the ledger verifies, a player's key
and a seat's token still work, and every game goes on; a backup cut or edited, or a
restore into a Redis that holds the deployment already, is refused and writes nothing."""

from __future__ import annotations

import io
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from core.config import Config
from core.tooling import audit_game
from events.ledger import verify_entries
from service.backup import BackupError, backup, restore
from stores.platform import Platform
from tests.reliability.procs import ROOT, RedisServer, Service, service_env, wait_for
from workers.scheduling import RQScheduler

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

PREFIX = "bk"
BOTS = [("stomping-grounds", {"turn_limit": 6}, 2), ("fortress-siege", None, 2), ("dragon-fortress", None, 3)]


def platform_on(server: RedisServer) -> Platform:
    platform = Platform(Config(redis_url=server.url, prefix=PREFIX), server.client())
    platform.handler.scheduler = RQScheduler(platform)
    return platform


def play_humans(platform: Platform, game_id: str, stop: threading.Event) -> None:
    rng = random.Random(game_id)
    while not stop.is_set():
        table = platform.handler.load(game_id)
        if table.status != "active":
            return
        seat = min(table.to_act())
        platform.handler.act(game_id, seat, rng.choice(table.game.legal_actions(table.state, seat)), table.version)


def test_a_backup_taken_under_play_restores_into_an_empty_redis_where_every_game_verifies_and_goes_on(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    source = platform_on(own_redis)
    player, key = source.players.register("backup-ann")
    humans = [{"name": player["name"], "player": player["id"]}, {"name": "bob"}]
    human = source.handler.create_game("fortress-royals", humans, {"rounds": 2})
    ended = source.handler.create_game("fortress-royals", [{"name": "cy"}, {"name": "di"}], {"rounds": 1})
    play_humans(source, ended.table.game_id, threading.Event())  # on the ledger before the backup
    bots = [source.handler.create_game(kind, [{"bot": "random"}] * n, options).table for kind, options, n in BOTS]
    worker = Service(["worker"], service_env(own_redis.url, PREFIX), tmp_path / "worker.log").start()
    stop = threading.Event()
    mover = threading.Thread(target=play_humans, args=(source, human.table.game_id, stop))
    mover.start()
    try:
        wait_for(lambda: all(source.store.last_version(t.game_id) > t.version + 5 for t in bots), 60, 0.1, "play")
        taken = io.StringIO()
        closing = backup(source.redis, PREFIX, taken, lambda: "now")
    finally:
        stop.set()
        mover.join(timeout=30)
        worker.stop()
    lines = taken.getvalue().splitlines(keepends=True)
    assert closing["keys"] > 0 and len(lines) > 3

    target_server = RedisServer(tmp_path / "target")
    target_server.start()
    try:
        (tmp_path / "backup.ndjson").write_text(taken.getvalue())
        env = service_env(target_server.url, PREFIX)
        restored = subprocess.run(
            [sys.executable, "-m", "service.cli", "restore", str(tmp_path / "backup.ndjson")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        games = [human.table.game_id, ended.table.game_id, *(t.game_id for t in bots)]
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert f"{len(games)} games, {len(games)} of them verify" in restored.stdout, restored.stdout
        target = platform_on(target_server)
        for game in games:
            report = audit_game(target, game)
            assert report.ok, (game, report.reason)
        entries = target.ledger.page()
        assert verify_entries(entries) is None and ended.table.game_id in [e["game"] for e in entries]
        assert target.players.authenticate(key) == source.players.authenticate(key) is not None
        assert target.vault.owner(human.tokens[1]) == (human.table.game_id, 1)
        # Every game goes on: the human's with its seats, the bots' with a worker on the target.
        table = target.handler.load(human.table.game_id)
        if table.status == "active":
            seat = min(table.to_act())
            target.handler.act(table.game_id, seat, table.game.legal_actions(table.state, seat)[0], table.version)
        at_restore = {t.game_id: target.store.last_version(t.game_id) for t in bots}
        assert any(target.handler.load(g).status == "active" for g in at_restore), "taken while bots played"
        again = Service(["worker"], env, tmp_path / "worker-target.log").start()
        try:
            wait_for(
                lambda: all(
                    target.handler.load(g).status == "finished" or target.store.last_version(g) > v
                    for g, v in at_restore.items()
                ),
                60,
                0.1,
                "the bot games going on after the restore",
            )
        finally:
            again.stop()

        # Refused, writing nothing: a restore over the deployment, a file cut short, a file edited.
        with pytest.raises(BackupError, match="already holds"):
            restore(target.redis, PREFIX, lines)
        empty = target_server.client()
        empty.select(1)
        with pytest.raises(BackupError, match="cut short"):
            restore(empty, PREFIX, lines[:-1])
        edited = [*lines]
        edited[2] = edited[2].replace('"keys":[["', '"keys":[["x', 1)
        with pytest.raises(BackupError, match="changed or cut"):
            restore(empty, PREFIX, edited)
        assert empty.dbsize() == 0
    finally:
        target_server.stop()
