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


def is_black(realm: Realm, rules: int) -> bool:
    """Black-bordered for flight: a challenge's border replaces the realm's; a razed realm
    flies as white. A razed challenge: under revision 1 black whatever its colour, under
    revision 2 its own border ("still count as black bordered": a black one stays black)."""
    if realm.challenge is not None:
        if rules < 2 and realm.razed:
            return True
        return card(realm.challenge, rules).border == "black"
    if realm.razed:
        return False
    return card(realm.card, rules).border == "black"


def challenge_live(realm: Realm, rules: int) -> bool:
    """A challenge's text works unless it was razed (revision 1: unless its realm is face
    down; revision 2 lets a challenge be played onto a razed realm, face up and working)."""
    return not (realm.razed if rules < 2 else realm.challenge_razed)


def live_challenge(realm: Realm | None, rules: int) -> str | None:
    """The challenge on a realm that can be attempted (razed challenges are inactive)."""
    if realm is None or not challenge_live(realm, rules):
        return None
    return realm.challenge


def realm_text_live(realm: Realm) -> bool:
    """A realm's own text works while face up and not covered by a challenge."""
    return not realm.razed and realm.challenge is None


def can_take_challenge(realm: Realm, rules: int) -> bool:
    """A challenge may be played or roam onto a realm without one: under revision 1 only a
    face-up realm; under revision 2 any realm ("Play stacked on any realm")."""
    return realm.challenge is None and (rules >= 2 or not realm.razed)


def can_raze(realm: Realm, rules: int) -> bool:
    """A realm that razing would change: face up, or (revision 2) carrying a live challenge."""
    if not realm.razed:
        return True
    return rules >= 2 and realm.challenge is not None and not realm.challenge_razed


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
