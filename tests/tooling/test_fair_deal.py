"""A fair deal: shuffles derived from seeds show no bias (chi-square, p = 0.001)."""

from __future__ import annotations

import math

import pytest

from games.cards import standard_deck
from games.rng import derive_rng

pytestmark = pytest.mark.slow


def chi_square_p_value(statistic: float, dof: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty normal approximation,
    accurate for the hundreds of degrees of freedom used here)."""
    z = ((statistic / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_ten_thousand_derived_shuffles_put_every_card_everywhere_evenly() -> None:
    deck = standard_deck()
    shuffles = 10_000
    counts = [[0] * 52 for _ in range(52)]
    index = {card: i for i, card in enumerate(deck)}
    for n in range(shuffles):
        cards = list(deck)
        derive_rng(f"seed-{n}", 1).shuffle(cards)
        for position, card in enumerate(cards):
            counts[index[card]][position] += 1
    expected = shuffles / 52
    pearson = sum((c - expected) ** 2 / expected for row in counts for c in row)
    # Each shuffle is a permutation: a card is in exactly one position and a position
    # holds exactly one card, so the Pearson sum has mean 52 * 51 rather than 51 * 51;
    # scaled by 51/52 it follows chi-square on (52-1)^2 degrees of freedom.
    statistic = pearson * 51 / 52
    dof = 51 * 51
    p = chi_square_p_value(statistic, dof)
    print(f"chi-square {statistic:.0f} on {dof} degrees of freedom, p = {p:.3f}")
    assert p > 0.001


def test_a_seed_and_version_always_derive_the_same_shuffle_and_versions_differ() -> None:
    first, again, later = (list(standard_deck()) for _ in range(3))
    derive_rng("s", 7).shuffle(first)
    derive_rng("s", 7).shuffle(again)
    derive_rng("s", 8).shuffle(later)
    assert first == again and first != later
