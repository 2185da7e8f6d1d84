"""Webhooks (issue 22): `kill -9` of the RQ worker while it is in the middle of a delivery
(the receiver holds the request), three times, then a new worker: every delivery arrives
under its id, signed; none is lost; and a receiver that dedups by the delivery id applies
each one's effect once. A delivery may arrive twice under its id (the one killed in
flight), never under two."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from core.config import Config
from core.platform import Platform
from tests.reliability.procs import RedisServer, Service, service_env, wait_for
from tests.webhook_receiver import Receiver
from workers.projector import Projector
from workers.wiring import wire

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

KILLS = 3
LOOPBACK = "127.0.0.0/8,::1"


def play(platform: Platform, players: list[dict[str, str]], rng: random.Random, moves: int) -> None:
    """A game between the players, played a few random legal moves in."""
    seats = [{"name": p["name"], "player": p["id"]} for p in players]
    table = platform.handler.create_game("fortress-royals", seats).table
    for _ in range(moves):
        if table.status != "active":
            return
        seat = min(table.to_act())
        action = rng.choice(table.game.legal_actions(table.state, seat))
        table = platform.handler.act(table.game_id, seat, action, table.version).table


def test_kill_9_the_worker_mid_delivery_every_delivery_arrives_once_per_id(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    prefix = "hooks"
    config = Config(redis_url=own_redis.url, prefix=prefix, webhook_allow=tuple(LOOPBACK.split(",")))
    platform = wire(Platform(config, own_redis.client()), bots=False)
    receiver = Receiver(hold=KILLS).start()
    try:
        players = [platform.players.register(name)[0] for name in ("ann", "bob")]
        for player in players:
            path = f"/{player['name']}"
            receiver.secrets[path] = platform.webhooks.register(player["id"], receiver.url(path), None)["secret"]
        rng = random.Random(22)
        for _ in range(4):
            play(platform, players, rng, moves=3)
        projector = Projector(platform, "webhooks-crash")  # notes the notices and starts their deliveries on RQ
        projector.ensure_group()
        while projector.step(block_ms=None):
            pass
        expected = {delivery for delivery, _ in platform.webhooks.open_deliveries()}
        assert len(expected) >= 10

        env = service_env(own_redis.url, prefix, TABLESTREAM_WEBHOOK_ALLOW=LOOPBACK)
        kills, started, held = 0, 0, []
        while kills < KILLS:
            assert started < 2 * KILLS, f"only {kills} of {started} workers were caught mid-delivery"
            worker = Service(["worker"], env, tmp_path / f"worker-{started}.log").start()
            started += 1
            try:
                caught = receiver.holding.wait(60)
                assert caught or worker.alive(), worker.log()
                if caught:
                    held.append(receiver.got[-1].delivery)
                    kills += 1
            finally:
                worker.kill9()  # while the receiver holds its request
            receiver.let_go()
            wait_for(lambda: not receiver.holding.is_set(), 10, 0.02, "the held request let go")

        def delivered() -> bool:
            found = [platform.webhooks.delivery(d) for d in expected]
            return all(d is not None and d.status == "delivered" for d in found)

        final = Service(["worker"], env, tmp_path / "worker-final.log").start()
        try:
            wait_for(delivered, 120, 0.1, "every delivery delivered")
        finally:
            final.stop()

        received = Counter(r.delivery for r in receiver.got)
        records = {d: record for d in expected if (record := platform.webhooks.delivery(d)) is not None}
        print(
            f"webhooks: {kills} kill -9 of a worker mid-delivery ({started} workers started, then one more); "
            f"{len(expected)} deliveries, {sum(received.values())} requests received, "
            f"{receiver.repeats} repeats dropped by id, {len(receiver.applied)} effects applied, "
            f"attempts of the held deliveries {[records[d].attempts for d in held]}"
        )
        assert len(held) == KILLS and len(set(held)) == KILLS
        assert set(received) == expected  # every one arrived, and nothing else
        assert sorted(receiver.applied) == sorted(expected)  # each one's effect, once
        assert receiver.bad_signatures == 0
        for delivery in held:  # sent again under the same id after its worker died
            assert received[delivery] >= 2 and records[delivery].attempts >= 2
        assert platform.webhooks.open_deliveries() == []
    finally:
        receiver.stop()
