"""The realm map: a grid of realm cards placed edge to edge (no diagonals)."""

from __future__ import annotations

from .cards import card
from .state import Pos, Realm, State

STEPS: tuple[Pos, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
REALMS_PER_PLAYER = 10


def neighbours(at: Pos) -> list[Pos]:
    x, y = at
    return [(x + dx, y + dy) for dx, dy in STEPS]


def realm_at(state: State, at: Pos) -> Realm | None:
    index = state.where.get(at)
    return None if index is None else state.realms[index]


def adjacent_realms(state: State, at: Pos) -> list[Pos]:
    where = state.where
    return [p for p in neighbours(at) if p in where]


def open_spaces(state: State) -> list[Pos]:
    """Empty cells edge to edge with a realm, where a new realm may go (the first at 0,0)."""
    if not state.realms:
        return [(0, 0)]
    if len(state.realms) >= REALMS_PER_PLAYER * state.count:
        return []
    where = state.where
    seen: set[Pos] = set()
    out = []
    for realm in state.realms:
        for p in neighbours(realm.at):
            if p not in where and p not in seen:
                seen.add(p)
                out.append(p)
    return sorted(out)


def is_black(realm: Realm) -> bool:
    """Black-bordered for flight: a challenge's border replaces the realm's; a razed realm
    flies as white, but a razed challenge still counts as black."""
    if realm.challenge is not None:
        return True if realm.razed else card(realm.challenge).border == "black"
    if realm.razed:
        return False
    return card(realm.card).border == "black"


def live_challenge(realm: Realm | None) -> str | None:
    """The challenge on a realm that can be attempted (razed challenges are inactive)."""
    if realm is None or realm.razed:
        return None
    return realm.challenge


def realm_text_live(realm: Realm) -> bool:
    """A realm's own text works while face up and not covered by a challenge."""
    return not realm.razed and realm.challenge is None


def dragons_at(state: State, at: Pos) -> list[int]:
    return [seat for seat, player in enumerate(state.players) if player.dragon == at]


def within(state: State, start: Pos, steps: int) -> list[Pos]:
    """Realms reachable from ``start`` in 1..``steps`` moves across realms."""
    where = state.where
    frontier = [start]
    seen = {start}
    for _ in range(steps):
        nxt = []
        for at in frontier:
            for p in neighbours(at):
                if p in where and p not in seen:
                    seen.add(p)
                    nxt.append(p)
        frontier = nxt
    seen.discard(start)
    return sorted(seen)
