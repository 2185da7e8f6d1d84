"""Attacks: which cards may attack together, and what an attack breaks or reveals.

Rulebook, "Blocking attacks and breaking defenses" and "Capturing and protecting
royals". Strength comes from the card data (royals 0); "equal rank" means the same
rank (a Jack and a Queen are both 0 but are not equal ranks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.fortress_royals.deck import RANK, ROYAL, STRENGTH

LEFT = "left"
RIGHT = "right"
SIDES = (LEFT, RIGHT)


def runs(hand: Sequence[str]) -> list[tuple[int, int]]:
    """The hand cut into runs of adjacent equal ranks, as ``(start, stop)`` index pairs."""
    out = []
    start = 0
    for index in range(1, len(hand) + 1):
        if index == len(hand) or RANK[hand[index]] != RANK[hand[start]]:
            out.append((start, index))
            start = index
    return out


def attack_groups(hand: Sequence[str]) -> list[tuple[str, ...]]:
    """Every set of cards that may attack together: any single card, or some or all
    of a run of adjacent equal ranks; each listed in hand order."""
    groups = []
    for start, stop in runs(hand):
        run = hand[start:stop]
        for mask in range(1, 1 << len(run)):
            groups.append(tuple(card for bit, card in enumerate(run) if mask >> bit & 1))
    return groups


def attack_problem(hand: Sequence[str], cards: Sequence[str]) -> str | None:
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
    rank = RANK[cards[0]]
    if any(RANK[card] != rank for card in cards):
        return "Cards that attack together must be of equal rank."
    if any(RANK[hand[index]] != rank for index in range(positions[0], positions[-1] + 1)):
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


def resolve(cards: Sequence[str], defender_hand: Sequence[str], side: str) -> Clash:
    """Contest ``cards`` against the ``side`` end of ``defender_hand`` (which has cards)."""
    line = list(defender_hand) if side == LEFT else list(reversed(defender_hand))
    outer_rank = RANK[line[0]]
    group = 1
    while group < len(line) and RANK[line[group]] == outer_rank:
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
        if attackers == 3 and group == 1 and _single_behind(line):
            broken = line[:2]
        return Clash(broken=tuple(broken), revealed=())
    needed = next(k for k in range(1, group + 1) if not beats(attackers, strength, k, defence))
    return Clash(broken=(), revealed=tuple(line[:needed]))


def _single_behind(line: Sequence[str]) -> bool:
    """True when the card behind the outer one stands alone (no equal rank beside it)."""
    if len(line) < 2:
        return False
    return len(line) == 2 or RANK[line[2]] != RANK[line[1]]
