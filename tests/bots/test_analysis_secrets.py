"""The post-game analysis looks at a decision from the deciding seat's information only
(``games.ismcts.appraise``, which ``core.analysis`` runs at every decision): with every
card hidden from the seat re-dealt, it appraises every action the same, and it reads the
true state only through ``determinize`` and other public reads."""

from __future__ import annotations

import random

import pytest

from games import registry
from games.ismcts import appraise
from tests.bots.positions import game_kinds, positions
from tests.bots.test_bots_secrets import Watched, _is_public

POSITIONS = 3
ITERATIONS = 24


@pytest.mark.parametrize("kind", game_kinds())
def test_an_appraisal_is_the_same_when_the_hidden_cards_are_swapped(kind: str) -> None:
    game = registry.all_games()[kind]
    for index, (state, seat) in enumerate(positions(game, POSITIONS, f"appraise-{kind}")):
        swapped = game.determinize(state, seat, random.Random(f"appraise-swap-{index}"))
        assert game.view(swapped, seat) == game.view(state, seat)
        seen = appraise(game, state, seat, random.Random(index), ITERATIONS)
        assert seen == appraise(game, swapped, seat, random.Random(index), ITERATIONS), index
        assert len(seen) == len(game.legal_actions(state, seat)) and all(a.visits >= 1 for a in seen), (
            "every action is tried"
        )


@pytest.mark.parametrize("kind", game_kinds())
def test_an_appraisal_reads_the_true_state_only_through_determinize(kind: str) -> None:
    game = registry.all_games()[kind]
    for index, (state, seat) in enumerate(positions(game, POSITIONS, f"appraise-reads-{kind}")):
        watched = Watched(game, state)
        appraise(watched, state, seat, random.Random(index), ITERATIONS)  # type: ignore[arg-type]
        leaks = [read for read in watched.reads if not _is_public(read, seat)]
        assert not leaks, f"the analysis read the true state through {leaks}"
