"""Every bot answers every position of every registered game with a legal action."""

from __future__ import annotations

import random

import pytest

from games import registry
from tests.bots.positions import TESTED_BOTS, game_kinds, positions

POSITIONS = 12


@pytest.mark.parametrize("kind", game_kinds())
@pytest.mark.parametrize("level", sorted(TESTED_BOTS))
def test_bot_returns_a_legal_action(level: str, kind: str) -> None:
    game = registry.all_games()[kind]
    bot = TESTED_BOTS[level]
    for index, (state, seat) in enumerate(positions(game, POSITIONS, f"legal-{level}-{kind}")):
        action = bot(game, state, seat, random.Random(index))
        legal = game.legal_actions(state, seat)
        assert action in legal, f"{level} chose {action} in position {index}; legal: {legal}"
        game.decide(state, seat, action, random.Random(index))
