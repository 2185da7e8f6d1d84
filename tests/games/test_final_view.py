"""Once a game is over, anyone sees every hand (``GameBase.final_view``): whatever any
seat could see at the end, a spectator sees too; while it is in play, ``board`` still
gives each seat its own view only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import registry
from games.play import random_game


def leaves(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(leaves(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(leaves(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize("kind", [k for k in registry.keys() if k != "tiny"])
@pytest.mark.parametrize("seed", range(3))
def test_a_finished_game_shows_a_spectator_all_that_any_seat_saw(kind: str, seed: int) -> None:
    game = registry.get(kind)
    assert game is not None
    players = game.min_players + seed % (game.max_players - game.min_players + 1)
    play = random_game(game, players, random.Random(f"{kind}-{seed}"))
    assert game.outcome(play.state) is not None, f"{kind}: the random game did not end"
    seen_by_seats = set().union(*(leaves(game.view(play.state, s)) for s in range(players)))
    final = game.final_view(play.state, None)
    missing = seen_by_seats - leaves(final)
    # What a seat's own view names that no final view shows is a hidden card still hidden.
    assert not missing, f"{kind}: a spectator cannot see {sorted(missing)[:10]} at the end"
    for s in range(players):
        assert leaves(game.view(play.state, s)) <= leaves(game.final_view(play.state, s)), (kind, s)
