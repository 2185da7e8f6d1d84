"""Backup and restore on a Redis Cluster: a backup of a deployment on a local cluster (games
in play and finished, the ledger, a player, seat tokens; each game's keys in its feed
partition's slot) restores after every key under the prefix was lost, and every game
passes the audit, the ledger verifies, the player's key and a seat's token still work,
and the game in play goes on. A restore over keys that are there is refused."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
import redis

from core.config import Config
from core.tooling import audit_game
from events.ledger import verify_entries
from service.backup import BackupError, backup, restore
from stores.platform import Platform
from tests.localcluster import LocalCluster, local_cluster  # noqa: F401  (a fixture)
from workers.scheduling import InlineBots

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


@pytest.fixture
def platform(local_cluster: LocalCluster, redis_url: str, prefix: str) -> Iterator[Platform]:  # noqa: F811
    config = Config(redis_url=local_cluster.url, queue_redis_url=redis_url, prefix=prefix)
    p = Platform.from_config(config)
    p.handler.scheduler = InlineBots(p)
    yield p
    wipe(p.redis, prefix)
    p.redis.close()


def wipe(client: redis.RedisCluster, prefix: str) -> int:
    """Delete every key under ``prefix`` on every master: the deployment's data lost."""
    keys = [key for key in client.scan_iter(match=f"{prefix}:*", count=1000)]
    for key in keys:
        client.delete(key)
    return len(keys)


def play(platform: Platform, game_id: str, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        table = platform.handler.load(game_id)
        if table.status != "active":
            return
        seat = min(s for s in table.to_act() if not table.seats[s].bot)
        platform.handler.act(game_id, seat, rng.choice(table.game.legal_actions(table.state, seat)), table.version)


def test_a_cluster_backup_restores_after_the_data_is_lost_and_every_game_verifies_and_goes_on(
    platform: Platform, prefix: str
) -> None:
    assert platform.config.feed_partitions > 1, "the cluster layout: games in their partitions' slots"
    player, key = platform.players.register("cluster-ann")
    mine = [{"name": player["name"], "player": player["id"]}, {"name": "bob"}]
    human = platform.handler.create_game("fortress-royals", mine, {"rounds": 2})
    against_bot = platform.handler.create_game("dragoborne", [{"name": "cy"}, {"bot": "random"}])
    ended = platform.handler.create_game("fortress-royals", [{"name": "di"}, {"name": "ed"}], {"rounds": 1})
    bots = platform.handler.create_game("stomping-grounds", [{"bot": "random"}] * 2, {"turn_limit": 4})
    play(platform, human.table.game_id, 6, 1)
    play(platform, against_bot.table.game_id, 4, 2)
    play(platform, ended.table.game_id, 10_000, 3)
    games = [human.table.game_id, against_bot.table.game_id, ended.table.game_id, bots.table.game_id]
    assert platform.handler.load(ended.table.game_id).status == "finished"
    heads = {game: platform.handler.load(game).head_hash for game in games}

    taken = io.StringIO()
    closing = backup(platform.redis, prefix, taken, lambda: "now")
    lines = taken.getvalue().splitlines(keepends=True)
    assert closing["keys"] > 0
    with pytest.raises(BackupError, match="already holds"):
        restore(platform.redis, prefix, lines)

    assert wipe(platform.redis, prefix) >= closing["keys"], "the deployment's data lost"
    restored = restore(platform.redis, prefix, lines)
    assert restored == closing["keys"]

    # A new process on the cluster, as after the loss: nothing from before is cached.
    again = Platform.from_config(platform.config)
    again.handler.scheduler = InlineBots(again)
    try:
        for game in games:
            report = audit_game(again, game)
            assert report.ok, (game, report.reason)
            assert again.handler.load(game).head_hash == heads[game]
        entries = again.ledger.page()
        assert verify_entries(entries) is None
        assert {ended.table.game_id, bots.table.game_id} <= {e["game"] for e in entries}
        assert again.players.authenticate(key) is not None
        assert again.vault.owner(human.tokens[1]) == (human.table.game_id, 1)
        for game in (human.table.game_id, against_bot.table.game_id):
            before = again.handler.load(game).version
            play(again, game, 2, 4)
            assert again.handler.load(game).version > before, "the game goes on after the restore"
    finally:
        again.redis.close()
