"""Fortress through the platform: the command handler plays random games to a winner,
and states survive the codec forks use."""

from __future__ import annotations

import json
import pickle
import random

import fakeredis
import pytest

from core.handler import Handler
from events.memory import MemoryEventStore
from games.codec import decode, encode
from games.fortress_siege import GAME
from games.play import random_game
from projections.snapshots import RedisSnapshots
from projections.tables import Tables
from stores.vault import RedisVault

from .scenario import deck


def test_states_survive_the_state_codec_used_by_forks() -> None:
    """A fork starts from an encoded state: every Fortress state must round-trip."""
    for index in range(12):
        options = {"winds_of_fate": index % 3 == 2}
        play = random_game(GAME, 2 + index % 3, random.Random(index), options, max_actions=30 + 20 * index)
        assert decode(json.loads(json.dumps(encode(play.state)))) == play.state
        assert pickle.loads(pickle.dumps(play.state)) == play.state


def handler() -> Handler:
    client = fakeredis.FakeRedis()
    store = MemoryEventStore()
    return Handler(store, Tables(store, RedisSnapshots(client), snapshot_every=50), RedisVault(client))


def test_a_game_created_with_fixed_decks_says_so_in_its_public_summary() -> None:
    """The brief: "A `decks` option (explicit card orders) for tutorials and scenario tests;
    a game created with it says so in its public summary"."""
    commands = handler()
    players = [{"name": "ann"}, {"name": "bob"}]
    decks = [deck(0, ["KH"], "JK1"), deck(1, [], "2C")]
    fixed = commands.create_game("fortress-siege", players, {"decks": decks}).table
    dealt = commands.create_game("fortress-siege", players).table
    assert fixed.summary()["fair_deal"] is False
    assert dealt.summary()["fair_deal"] is True
    assert [list(p.fortress) for p in fixed.state.players] == decks


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_random_game_plays_to_a_winner_through_the_command_handler(players: int) -> None:
    """ "The game ends when all but one of the players' Fortresses have been depleted"."""
    commands = handler()
    names = ("ann", "bob", "cy", "di")[:players]
    table = commands.create_game("fortress-siege", [{"name": name} for name in names]).table
    rng = random.Random(players)
    while table.status != "finished":
        seat = rng.choice(sorted(table.to_act()))
        action = rng.choice(GAME.legal_actions(table.state, seat))
        table = commands.act(table.game_id, seat, action, table.version).table
    result = GAME.outcome(table.state)
    assert result is not None and len(result["winners"]) == 1
    assert commands.load(table.game_id).state == table.state
