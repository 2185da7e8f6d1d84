"""The shared simulation test (tests/games/contract.py) on Fortress (royals in hand)."""

from __future__ import annotations

import json
import pickle
import random

import fakeredis
import pytest

from core.errors import CommandError
from core.handler import Handler
from events.memory import MemoryEventStore
from games.codec import decode, encode
from games.fortress_royals import GAME
from games.play import random_game
from projections.snapshots import RedisSnapshots
from projections.tables import Tables
from stores.vault import RedisVault
from tests.games.contract import check_contract
from tests.games.fortress_royals.tables import full_deck, now
from tests.games.fortress_royals.test_fortress_royals_properties import MAX_ACTIONS, near_misses


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
    """Issue: "a random 4-player game plays to a winner through the command handler"; on the
    way, one action legal_actions does not list is sent at every step, and it is refused
    with a reason and appends nothing to the store."""
    client = fakeredis.FakeRedis()
    store = MemoryEventStore()
    handler = Handler(store, Tables(store, RedisSnapshots(client), snapshot_every=25), RedisVault(client))
    created = handler.create_game("fortress-royals", [{"name": name} for name in ("ann", "bob", "cy", "di")])
    table = created.table
    rng = random.Random(4)
    for _ in range(MAX_ACTIONS):
        if table.status == "finished":
            break
        seat = rng.choice(sorted(table.to_act()))
        legal = GAME.legal_actions(table.state, seat)
        wrong = next(a for a in near_misses(table.state, seat, rng) if a not in legal)
        with pytest.raises(CommandError) as refused:
            handler.act(table.game_id, seat, wrong, table.version)
        assert refused.value.code == "illegal_action" and refused.value.detail
        assert store.last_version(table.game_id) == table.version
        table = handler.act(table.game_id, seat, rng.choice(legal), table.version).table
    assert table.status == "finished", f"the game did not end within {MAX_ACTIONS} actions"
    result = GAME.outcome(table.state)
    assert result is not None and result["winners"]
    assert max(result["scores"]) >= 14
    assert handler.load(table.game_id).state == table.state


def test_a_game_on_a_fixed_deck_says_in_its_public_summary_that_the_deal_is_not_fair() -> None:
    """Issue: "A deck option (an explicit card order) for tutorials and scenario tests; a game
    created with it says so in its public summary, since it is not a fair deal." """
    client = fakeredis.FakeRedis()
    store = MemoryEventStore()
    handler = Handler(store, Tables(store, RedisSnapshots(client)), RedisVault(client))
    seats = [{"name": "ann"}, {"name": "bob"}]
    fixed = handler.create_game("fortress-royals", seats, {"deck": full_deck([])}).table
    dealt = handler.create_game("fortress-royals", seats).table
    assert fixed.summary()["fair_deal"] is False
    assert dealt.summary()["fair_deal"] is True
