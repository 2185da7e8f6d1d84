"""Attacks: which cards may attack together, and what an attack breaks or reveals.

Rulebook, "Blocking attacks and breaking defenses" and "Capturing and protecting
royals". Strength comes from the card data (royals 0). "Equal rank" depends on the
rules: under revision 2 every royal has "a rank of 0", so a Jack beside a Queen are
equal ranks (``royals_pair``); under revision 1, or with the option
``royals_pair_by_face``, equal rank means the same face.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from games.fortress_royals.cards import RANK, ROYAL, STRENGTH

LEFT = "left"
RIGHT = "right"
SIDES = (LEFT, RIGHT)


ROYAL_RANK = "royal"
RANKS_BY_FACE: dict[str, str] = RANK
RANKS_ROYALS_PAIRED: dict[str, str] = {card: ROYAL_RANK if ROYAL[card] else rank for card, rank in RANK.items()}


def ranks(royals_pair: bool) -> dict[str, str]:
    """Each card's rank for "equal rank": every royal shares one when ``royals_pair``."""
    return RANKS_ROYALS_PAIRED if royals_pair else RANKS_BY_FACE


def rank_of(card: str, royals_pair: bool) -> str:
    """The rank that decides "equal rank": every royal shares one when ``royals_pair``."""
    return ranks(royals_pair)[card]


def runs(hand: Sequence[str], royals_pair: bool) -> list[tuple[int, int]]:
    """The hand cut into runs of adjacent equal ranks, as ``(start, stop)`` index pairs."""
    rank = ranks(royals_pair)
    out = []
    start = 0
    for index in range(1, len(hand) + 1):
        if index == len(hand) or rank[hand[index]] != rank[hand[start]]:
            out.append((start, index))
            start = index
    return out


@functools.cache
def _subsets(size: int) -> tuple[tuple[int, ...], ...]:
    """The non-empty subsets of ``range(size)`` by bit mask, each in increasing order."""
    return tuple(tuple(bit for bit in range(size) if mask >> bit & 1) for mask in range(1, 1 << size))


def attack_groups(hand: Sequence[str], royals_pair: bool) -> list[tuple[str, ...]]:
    """Every set of cards that may attack together: any single card, or some or all
    of a run of adjacent equal ranks; each listed in hand order."""
    groups: list[tuple[str, ...]] = []
    for start, stop in runs(hand, royals_pair):
        if stop - start == 1:
            groups.append((hand[start],))
            continue
        run = hand[start:stop]
        groups += [tuple(map(run.__getitem__, subset)) for subset in _subsets(stop - start)]
    return groups


def attack_problem(hand: Sequence[str], cards: Sequence[str], royals_pair: bool) -> str | None:
    """Why ``cards`` may not attack together from ``hand`` (None when they may)."""
    if not cards:
        return "Attack with at least one card."
    positions = []
    for card in cards:
        if not isinstance(card, str) or card not in hand:
            return f"{card!r} is not a card in your hand."
        positions.append(hand.index(card))
    if len(set(positions)) != len(positions):
        return "Name each attacking card once."
    if positions != sorted(positions):
        return "List the attacking cards in the order they sit in your hand, left to right."
    rank = rank_of(cards[0], royals_pair)
    if any(rank_of(card, royals_pair) != rank for card in cards):
        return "Cards that attack together must be of equal rank."
    if any(rank_of(hand[index], royals_pair) != rank for index in range(positions[0], positions[-1] + 1)):
        return "Cards that attack together must lie next to each other in your hand."
    return None


def beats(attackers: int, strength: int, defenders: int, defence: int) -> bool:
    """The table of the rulebook for one to three attack cards against a group of
    ``defenders`` equal cards of strength ``defence``."""
    if attackers == 1:
        return defenders == 1 and strength >= defence
    if attackers == 2:
        return defenders == 1 or (defenders == 2 and strength >= defence)
    return defenders <= 3


@dataclass(frozen=True, slots=True)
class Clash:
    """What an attack does: the defender's cards it breaks, or those it reveals."""

    broken: tuple[str, ...]
    revealed: tuple[str, ...]

    @property
    def blocked(self) -> bool:
        return not self.broken


def resolve(cards: Sequence[str], defender_hand: Sequence[str], side: str, royals_pair: bool) -> Clash:
    """Contest ``cards`` against the ``side`` end of ``defender_hand`` (which has cards)."""
    line = list(defender_hand) if side == LEFT else list(reversed(defender_hand))
    outer_rank = rank_of(line[0], royals_pair)
    group = 1
    while group < len(line) and rank_of(line[group], royals_pair) == outer_rank:
        group += 1
    attackers = len(cards)
    if attackers >= 4:
        swept = 0
        while swept < len(line) and not ROYAL[line[swept]]:
            swept += 1
        if swept:
            return Clash(broken=tuple(line[:swept]), revealed=())
        return Clash(broken=(), revealed=(line[0],))
    strength, defence = STRENGTH[cards[0]], STRENGTH[line[0]]
    if beats(attackers, strength, group, defence):
        broken = line[:group]
        if attackers == 3 and group == 1 and _single_behind(line, royals_pair):
            broken = line[:2]
        return Clash(broken=tuple(broken), revealed=())
    needed = next(k for k in range(1, group + 1) if not beats(attackers, strength, k, defence))
    return Clash(broken=(), revealed=tuple(line[:needed]))


def _single_behind(line: Sequence[str], royals_pair: bool) -> bool:
    """True when the card behind the outer one stands alone (no equal rank beside it)."""
    if len(line) < 2:
        return False
    return len(line) == 2 or rank_of(line[2], royals_pair) != rank_of(line[1], royals_pair)
