"""The shared simulation test (tests/games/contract.py) on Fortress (royals in hand)."""

from __future__ import annotations

import json
import pickle
import random

import fakeredis

from events.memory import MemoryEventStore
from games.codec import decode, encode
from games.fortress_royals import GAME
from games.play import random_game
from projections.snapshots import RedisSnapshots
from projections.tables import Tables
from service.handler import Handler, Vault
from tests.games.contract import check_contract
from tests.games.fortress_royals.tables import now


def test_random_games_keep_the_contract_for_every_player_count() -> None:
    lengths = check_contract(GAME, players=[2, 3, 4, 5], games=12, check_every=3)
    assert all(length > 0 for length in lengths)


def test_short_games_by_rounds_keep_the_contract() -> None:
    check_contract(GAME, players=[2, 5], games=10, options={"rounds": 2}, seed=7)


def test_states_survive_the_state_codec_used_by_forks() -> None:
    for index in range(20):
        play = random_game(GAME, 2 + index % 4, random.Random(index), max_actions=40 + 9 * index)
        text = json.dumps(encode(now(play)))
        assert decode(json.loads(text)) == now(play)
        assert pickle.loads(pickle.dumps(now(play))) == now(play)


def test_a_random_four_player_game_plays_to_a_winner_through_the_command_handler() -> None:
    client = fakeredis.FakeRedis()
    store = MemoryEventStore()
    handler = Handler(store, Tables(store, RedisSnapshots(client), snapshot_every=25), Vault(client))
    created = handler.create_game("fortress-royals", [{"name": name} for name in ("ann", "bob", "cy", "di")])
    table = created.table
    rng = random.Random(4)
    while table.status != "finished":
        seat = rng.choice(sorted(table.to_act()))
        action = rng.choice(GAME.legal_actions(table.state, seat))
        table = handler.act(table.game_id, seat, action, table.version).table
    result = GAME.outcome(table.state)
    assert result is not None and result["winners"]
    assert max(result["scores"]) >= 14
    assert handler.load(table.game_id).state == table.state
