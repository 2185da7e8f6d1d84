"""Webhooks: `kill -9` of the RQ worker while it is in the middle of a delivery
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
from stores.platform import Platform
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


def noted(platform: Platform, receiver: Receiver, games: int) -> set[str]:
    """Games between ann and bob, each with a webhook of all types at the receiver's
    ``/<name>``, whose notices the projector (in this process) notes: the deliveries it
    started on RQ."""
    players = [platform.players.register(name)[0] for name in ("ann", "bob")]
    for player in players:
        path = f"/{player['name']}"
        receiver.secrets[path] = platform.webhooks.register(player["id"], receiver.url(path), None)["secret"]
    rng = random.Random(22)
    for _ in range(games):
        play(platform, players, rng, moves=3)
    projector = Projector(platform, "webhooks-crash")
    projector.ensure_group()
    while projector.step(block_ms=None):
        pass
    return {delivery for delivery, _ in platform.webhooks.open_deliveries()}


def test_kill_9_the_worker_mid_delivery_every_delivery_arrives_once_per_id(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    prefix = "hooks"
    config = Config(redis_url=own_redis.url, prefix=prefix, webhook_allow=tuple(LOOPBACK.split(",")))
    platform = wire(Platform(config, own_redis.client()), bots=False)
    receiver = Receiver(hold=KILLS).start()
    try:
        expected = noted(platform, receiver, games=4)
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


def test_kill_9_the_worker_while_deliveries_wait_to_be_retried_every_one_arrives(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    """A receiver failing every first attempt leaves each delivery waiting for its retry (a
    job in RQ's scheduled registry, 1 s later); the worker is killed then, and the next
    one sends them all."""
    prefix = "hooks"
    config = Config(redis_url=own_redis.url, prefix=prefix, webhook_allow=tuple(LOOPBACK.split(",")))
    platform = wire(Platform(config, own_redis.client()), bots=False)
    receiver = Receiver().start()
    try:
        expected = noted(platform, receiver, games=2)
        receiver.statuses = [500] * len(expected)
        env = service_env(
            own_redis.url, prefix, TABLESTREAM_WEBHOOK_ALLOW=LOOPBACK, TABLESTREAM_WEBHOOK_RETRY_SECONDS="1"
        )

        def failed_once() -> bool:
            found = [platform.webhooks.delivery(d) for d in expected]
            return all(d is not None and d.attempts >= 1 for d in found) and len(receiver.got) >= len(expected)

        worker = Service(["worker"], env, tmp_path / "worker-0.log").start()
        try:
            wait_for(failed_once, 60, 0.02, "every delivery attempted once")
        finally:
            worker.kill9()
        waiting = sum(1 for d in expected if (r := platform.webhooks.delivery(d)) and r.status == "retrying")

        def delivered() -> bool:
            found = [platform.webhooks.delivery(d) for d in expected]
            return all(d is not None and d.status == "delivered" for d in found)

        final = Service(["worker"], env, tmp_path / "worker-final.log").start()
        try:
            wait_for(delivered, 120, 0.1, "every delivery delivered")
        finally:
            final.stop()
        received = Counter(r.delivery for r in receiver.got)
        print(
            f"webhooks: kill -9 of a worker with {waiting} of {len(expected)} deliveries waiting for their retry; "
            f"after a new worker: {sum(received.values())} requests, {len(receiver.applied)} effects applied"
        )
        assert set(received) == expected and sorted(receiver.applied) == sorted(expected)
        assert all(received[d] >= 2 for d in expected) and receiver.bad_signatures == 0
        assert platform.webhooks.open_deliveries() == []
    finally:
        receiver.stop()
