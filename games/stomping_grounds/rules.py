"""The rules: what each seat may do (``legal_actions``), what doing it causes (``decide``)
and the automatic steps between decisions (``settle``): start- and end-of-turn effects,
resolving the stack last-in-first-out, luck draws, phase changes and the win check."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.base import Action, EventBuilder, GameEvent, seats_from

from . import board
from .cards import COLOURS, Card, Effect, card, slug_of
from .evolve import evolve
from .state import Item, Owed, Player, Pos, Realm, State

HAND_LIMIT = 7
PILES = ("deck", "stash", "junk")


class Builder(EventBuilder):
    """The events of one decision, each folded as it is emitted."""

    def __init__(self, state: State) -> None:
        super().__init__(state, evolve)


def at(pos: Pos) -> list[int]:
    return [pos[0], pos[1]]


# --- who acts ---------------------------------------------------------------------


def to_act(state: State) -> frozenset[int]:
    if state.winners is not None:
        return frozenset()
    if state.owed:
        return frozenset({state.owed[0].seat})
    if state.priority is not None:
        return frozenset({state.priority})
    return frozenset({state.active})


# --- luck -------------------------------------------------------------------------


def luck_bonus(state: State, seat: int, colour: str | None) -> int:
    player = state.players[seat]
    bonus = player.luck_bonus
    for held in player.hoard:
        c = card(held)
        if c.bonus_colour is not None and c.bonus_colour == colour:
            bonus += c.bonus_luck
    return bonus


def draw_luck(b: Builder, seat: int) -> int:
    """Reveal the top card of the deck into the junk, once plus once per extra draw, and
    add the luck numbers up; an empty deck gives no luck. Bonuses are not included."""
    total = 0
    for _ in range(1 + b.state.players[seat].extra_luck):
        deck = b.state.players[seat].deck
        if not deck:
            break
        top = deck[0]
        luck = card(top).luck
        b.emit("LuckDrawn", {"seat": seat, "card": top, "luck": luck}, seat)
        total += luck
    return total


# --- effects ----------------------------------------------------------------------


def _targets(state: State, effect: Effect, own: int, controller: int) -> list[int]:
    if effect.target == "self":
        return [own]
    if effect.target == "controller":
        return [controller]
    if effect.target == "active":
        return [state.active]
    return [s for s in seats_from(own, state.count) if s != own]


def apply_effects(b: Builder, effects: Sequence[Effect], own: int, controller: int) -> None:
    for effect in effects:
        for seat in _targets(b.state, effect, own, controller):
            _apply(b, effect, seat)


def _apply(b: Builder, effect: Effect, seat: int) -> None:
    op, n = effect.op, effect.n
    player = b.state.players[seat]
    if op in ("burn", "raze", "move_dragon", "roam", "search"):
        detail = effect.card_type if op == "search" else None
        b.emit("ChoicesOwed", {"choices": [[seat, op, n, detail]]}, seat)
    elif op == "stash":
        if player.deck:
            b.emit("CardsStashed", {"seat": seat, "cards": list(player.deck[:n])}, seat)
    elif op == "draw":
        if player.deck:
            b.emit("CardsDrawn", {"seat": seat, "cards": list(player.deck[:n])}, seat)
    elif op == "junk":
        if player.stash:
            b.emit("StashJunked", {"seat": seat, "cards": list(reversed(player.stash[-n:]))}, seat)
    elif op == "return":
        if player.burned:
            b.emit("BurnReturned", {"seat": seat, "cards": list(reversed(player.burned[-n:]))}, seat)
    elif op == "luck":
        b.emit("LuckGained", {"seat": seat, "amount": n, "draws": 0}, seat)
    elif op == "draw_luck":
        b.emit("LuckGained", {"seat": seat, "amount": 0, "draws": n}, seat)
    elif op == "cancel":
        for index in range(len(b.state.stack) - 1, -1, -1):
            item = b.state.stack[index]
            if item.kind in ("challenge", "duel") and not item.cancelled:
                b.emit("ChallengeCancelled", {"index": index, "seat": item.seat}, seat)
                break


def controlled_in_play(state: State, seat: int) -> list[str]:
    """Cards whose text works for ``seat``: its hoard, its face-up uncovered realms and
    its challenges on face-up realms."""
    out = list(state.players[seat].hoard)
    for realm in state.realms:
        if realm.razed:
            continue
        if realm.challenge is None and realm.owner == seat:
            out.append(realm.card)
        elif realm.challenge is not None and realm.controller == seat:
            out.append(realm.challenge)
    return out


def run_triggers(b: Builder, moment: str) -> None:
    """Start or end of turn: from the current player going left, every card in play."""
    state = b.state
    for seat in seats_from(state.active, state.count):
        for held in controlled_in_play(b.state, seat):
            c = card(held)
            when = c.trigger_when
            if when == f"each_{moment}" or (when == f"your_{moment}" and seat == state.active):
                apply_effects(b, c.trigger, seat, seat)


# --- choices owed -----------------------------------------------------------------


def owed_actions(state: State, owed: Owed) -> list[Action]:
    seat = owed.seat
    player = state.players[seat]
    kind = owed.kind
    if kind == "place_realm":
        spaces = board.open_spaces(state)
        names = sorted({slug_of(c) for c in player.deck if card(c).type == "realm"})
        return [{"type": "place_realm", "card": n, "at": at(p)} for n in names for p in spaces]
    if kind == "place_dragon":
        taken = {p.dragon for p in state.players}
        return [{"type": "place_dragon", "at": at(r.at)} for r in state.realms if r.at not in taken]
    if kind == "burn":
        out: list[Action] = []
        for pile in PILES:
            size = len(getattr(player, pile))
            out += [{"type": "burn", "pile": pile, "count": k} for k in range(1, min(size, owed.count) + 1)]
        out += [{"type": "burn", "card": c} for c in player.hand]
        return out
    if kind == "raze":
        return [{"type": "raze", "at": at(r.at)} for r in state.realms if not r.razed]
    if kind == "move_dragon":
        return [
            {"type": "move_dragon", "seat": s, "to": at(p)}
            for s, other in enumerate(state.players)
            if other.dragon is not None
            for p in board.adjacent_realms(state, other.dragon)
        ]
    if kind == "push":
        loser = state.players[int(owed.detail or 0)]
        if loser.dragon is None:
            return []
        return [{"type": "push", "to": at(p)} for p in board.adjacent_realms(state, loser.dragon)]
    if kind == "roam":
        moves = roam_moves(state, seat, owed.count, ignore_roamed=True)
        return [*moves, {"type": "skip"}] if moves else []
    if kind == "search":
        return search_actions(state, seat, owed.detail or "")
    if kind == "discard":
        return [{"type": "discard", "card": c} for c in player.hand]
    return []


def search_actions(state: State, seat: int, card_type: str) -> list[Action]:
    player = state.players[seat]
    names = sorted({slug_of(c) for c in player.deck if card(c).type == card_type})
    if not names:
        return []
    if card_type == "realm":
        spaces = board.open_spaces(state)
        return [{"type": "search", "card": n, "at": at(p)} for n in names for p in spaces]
    return [{"type": "search", "card": n} for n in names]


def roam_moves(state: State, seat: int, steps: int | None, ignore_roamed: bool = False) -> list[Action]:
    """Moves of ``seat``'s live challenges not under a dragon to a face-up realm
    without a challenge, within the card's Roam X (or ``steps`` from an effect)."""
    dragons = {p.dragon for p in state.players}
    out: list[Action] = []
    for realm in state.realms:
        if realm.controller != seat or board.live_challenge(realm) is None or realm.at in dragons:
            continue
        assert realm.challenge is not None
        reach = steps if steps is not None else card(realm.challenge).roam
        if reach <= 0 or (not ignore_roamed and realm.challenge in state.roamed):
            continue
        for p in board.within(state, realm.at, reach):
            target = state.realms[state.where[p]]
            if target.challenge is None and not target.razed:
                out.append({"type": "roam", "card": realm.challenge, "to": at(p)})
    return out


# --- playing cards ----------------------------------------------------------------


def challenge_spots(state: State, c: Card) -> list[Realm]:
    dragons = {p.dragon for p in state.players}
    out = []
    for realm in state.realms:
        if realm.razed or realm.challenge is not None:
            continue
        if c.play_on_kind is not None and card(realm.card).kind != c.play_on_kind:
            continue
        if c.play_on_unoccupied and realm.at in dragons:
            continue
        out.append(realm)
    return out


def _requirement_met(player: Player, c: Card) -> bool:
    return c.requires is None or any(card(h).name == c.requires for h in player.hoard)


def _action_timing_ok(state: State, seat: int, c: Card, in_window: bool) -> bool:
    if seat != state.active:
        return in_window and c.timing == "opponent"
    if c.timing == "challenge":
        return state.phase in ("challenge", "dragon")
    if c.timing == "reclaim":
        return state.phase == "reclaim"
    return False


def play_actions(state: State, seat: int, in_window: bool) -> list[Action]:
    player = state.players[seat]
    out: list[Action] = []
    spaces: list[Pos] | None = None
    has_challenge_on_stack = any(i.kind != "action" and not i.cancelled for i in state.stack)
    reclaim = state.phase == "reclaim" and seat == state.active and not in_window
    for held in sorted(set(player.hand)):
        c = card(held)
        if c.cost > len(player.stash) or not _requirement_met(player, c):
            continue
        if c.type == "action":
            if not _action_timing_ok(state, seat, c, in_window):
                continue
            if any(e.op == "cancel" for e in c.effect) and not has_challenge_on_stack:
                continue
            out.append({"type": "play", "card": held})
        elif not reclaim:
            continue
        elif c.type == "hoard":
            out.append({"type": "play", "card": held})
        elif c.type == "realm":
            if spaces is None:
                spaces = board.open_spaces(state)
            out += [{"type": "play", "card": held, "at": at(p)} for p in spaces]
        elif c.type == "challenge":
            out += [{"type": "play", "card": held, "at": at(r.at)} for r in challenge_spots(state, c)]
    return out


# --- legal actions ----------------------------------------------------------------


def duel_targets(state: State) -> list[int]:
    me = state.players[state.active].dragon
    return (
        [s for s in board.dragons_at(state, me) if s != state.active and s not in state.dueled]
        if me is not None
        else []
    )


def can_attempt(state: State) -> bool:
    if state.attempted:
        return False
    dragon = state.players[state.active].dragon
    return dragon is not None and board.live_challenge(board.realm_at(state, dragon)) is not None


def fly_targets(state: State) -> list[Pos]:
    dragon = state.players[state.active].dragon
    if dragon is None:
        return []
    visited = set(state.path)
    return [p for p in board.adjacent_realms(state, dragon) if p not in visited]


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state.owed:
        return owed_actions(state, state.owed[0])
    if state.priority is not None:
        return [{"type": "pass"}, *play_actions(state, seat, in_window=True)]
    phase = state.phase
    player = state.players[seat]
    if phase == "challenge":
        out: list[Action] = [{"type": "attempt"}] if can_attempt(state) else []
        return out + play_actions(state, seat, in_window=False) + [{"type": "end_phase"}]
    if phase == "flight":
        return [{"type": "fly", "to": at(p)} for p in fly_targets(state)] + [{"type": "land"}]
    if phase == "roam":
        return roam_moves(state, seat, None) + [{"type": "end_phase"}]
    if phase == "dragon":
        duels: list[Action] = [
            {"type": "duel", "opponent": s, "colour": c} for s in duel_targets(state) for c in COLOURS
        ]
        return duels + play_actions(state, seat, in_window=False) if duels else []
    if phase == "reclaim":
        out = [{"type": "draw"}] if player.stash else []
        out += [{"type": "junk", "card": c} for c in sorted(set(player.hand))]
        if player.burned:
            out.append({"type": "junk_burned"})
        return out + play_actions(state, seat, in_window=False) + [{"type": "end_phase"}]
    return []


# --- decide -----------------------------------------------------------------------

REASONS = {
    "place_realm": "Place a realm from your deck by name, on an open space edge to edge with a realm.",
    "place_dragon": "Place your dragon on a realm no dragon is on.",
    "burn": "Burn from your deck, stash or junk (a count up to what you owe) or a card from your hand.",
    "raze": "Choose a face-up realm to raze.",
    "move_dragon": "Move a dragon to a realm next to it.",
    "push": "Move the losing dragon to a realm next to it.",
    "roam": "That challenge cannot roam there.",
    "skip": "There is nothing to skip now.",
    "search": "Choose a card of the right type from your deck (and where it goes).",
    "discard": "Discard a card from your hand.",
    "pass": "You may only pass when it is your turn to respond.",
    "play": "You cannot play that card now: check the phase, its cost, what it requires and where it goes.",
    "attempt": "Your dragon is not on a challenge you may attempt now.",
    "end_phase": "You cannot end this phase now.",
    "fly": "Your dragon can only fly to a realm next to it that it has not visited this flight.",
    "land": "You can only land during your flight.",
    "duel": "Challenge a dragon on your space with a colour: red, white or blue.",
    "draw": "You can only draw from your stash during your reclaim phase, when it has cards.",
    "junk": "You can only junk a card from your hand during your reclaim phase.",
    "junk_burned": "You can only junk from your burn pile during your reclaim phase.",
}


def explain(state: State, seat: int, action: Any) -> str:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return "An action is an object with a 'type'."
    kind = action["type"]
    if state.owed and state.owed[0].seat == seat:
        return f"First you owe a choice ({state.owed[0].kind}): " + REASONS.get(state.owed[0].kind, "")
    if kind not in REASONS:
        return f"There is no action '{kind}' in Stomping Grounds."
    return REASONS[kind]


def play(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    """Every move, once the template has found it legal: its own step, then the automatic
    steps it sets off (``settle``)."""
    b = Builder(state)
    HANDLERS[action["type"]](b, seat, action, rng)
    settle(b, rng)
    return b.events


def _place_realm(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    player = b.state.players[seat]
    chosen = next(c for c in player.deck if slug_of(c) == action["card"])
    b.emit(
        "RealmPlayed",
        {"seat": seat, "card": chosen, "at": action["at"], "source": "deck", "settles": True},
        seat,
    )
    _shuffle(b, seat, rng)


def _shuffle(b: Builder, seat: int, rng: random.Random) -> None:
    order = list(b.state.players[seat].deck)
    rng.shuffle(order)
    b.emit("DeckShuffled", {"seat": seat, "order": order}, seat)


def _search(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    player = b.state.players[seat]
    chosen = next(c for c in player.deck if slug_of(c) == action["card"])
    kind = card(chosen).type
    if kind == "realm":
        b.emit(
            "RealmPlayed",
            {"seat": seat, "card": chosen, "at": action["at"], "source": "deck", "settles": True},
            seat,
        )
    else:
        b.emit("HoardPlayed", {"seat": seat, "card": chosen, "source": "deck", "settles": True}, seat)
    _shuffle(b, seat, rng)


def _place_dragon(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DragonPlaced", {"seat": seat, "at": action["at"], "settles": True}, seat)


def _burn(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    player = b.state.players[seat]
    if "card" in action:
        b.emit("CardsBurned", {"seat": seat, "pile": "hand", "cards": [action["card"]], "settles": True}, seat)
        return
    pile, count = action["pile"], action["count"]
    cards = list(player.deck[:count]) if pile == "deck" else list(reversed(getattr(player, pile)[-count:]))
    b.emit("CardsBurned", {"seat": seat, "pile": pile, "cards": cards, "settles": True}, seat)


def _raze(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("RealmRazed", {"seat": seat, "at": action["at"], "settles": True}, seat)


def _move_dragon(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DragonMoved", {"seat": action["seat"], "at": action["to"], "by": seat, "settles": True}, seat)


def _push(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    loser = int(b.state.owed[0].detail or 0)
    b.emit("DragonMoved", {"seat": loser, "at": action["to"], "by": seat, "settles": True}, seat)


def _roam(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    realm = next(r for r in b.state.realms if r.challenge == action["card"])
    settles = bool(b.state.owed)
    b.emit("ChallengeRoamed", {"seat": seat, "from": at(realm.at), "to": action["to"], "settles": settles}, seat)


def _skip(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("ChoiceSkipped", {"seat": seat}, seat)


def _discard(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CardJunked", {"seat": seat, "card": action["card"], "source": "hand", "settles": True}, seat)


def _pass(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("Passed", {"seat": seat}, seat)
    if b.state.passes >= b.state.count:
        b.emit("WindowClosed", {}, None)


def _play(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    held = action["card"]
    c = card(held)
    player = b.state.players[seat]
    if c.cost:
        b.emit("CostPaid", {"seat": seat, "cards": list(reversed(player.stash[-c.cost :]))}, seat)
    if c.type == "action":
        b.emit("ActionPlayed", {"seat": seat, "card": held}, seat)
    elif c.type == "hoard":
        b.emit("HoardPlayed", {"seat": seat, "card": held}, seat)
    elif c.type == "realm":
        b.emit("RealmPlayed", {"seat": seat, "card": held, "at": action["at"], "source": "hand"}, seat)
    else:
        b.emit("ChallengePlaced", {"seat": seat, "card": held, "at": action["at"]}, seat)


def _attempt(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    dragon = b.state.players[seat].dragon
    assert dragon is not None
    b.emit("ChallengeAttempted", {"seat": seat, "at": at(dragon)}, seat)


def _end_phase(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    following = {"challenge": "flight", "roam": "dragon", "reclaim": "end"}[b.state.phase]
    b.emit("PhaseBegan", {"phase": following}, None)


def _fly(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    player = b.state.players[seat]
    b.emit("DragonFlew", {"seat": seat, "to": action["to"], "stashed": list(player.deck[:1])}, seat)
    to = (action["to"][0], action["to"][1])
    realm = board.realm_at(b.state, to)
    assert realm is not None
    others = [s for s in board.dragons_at(b.state, to) if s != seat]
    if others or board.is_black(realm) or not fly_targets(b.state):
        _land(b, seat, action, rng)


def _land(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    state = b.state
    spaces = len(state.path) - 1
    dragon = state.players[seat].dragon
    assert dragon is not None
    b.emit("DragonLanded", {"seat": seat, "at": at(dragon), "spaces": spaces}, seat)
    realm = board.realm_at(b.state, dragon)
    if spaces > 0 and realm is not None and board.realm_text_live(realm):
        apply_effects(b, card(realm.card).landing, seat, realm.owner)
    b.emit("PhaseBegan", {"phase": "roam"}, None)


def _duel(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DuelDeclared", {"seat": seat, "opponent": action["opponent"], "colour": action["colour"]}, seat)


def _draw(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("StashDrawn", {"seat": seat, "card": b.state.players[seat].stash[-1]}, seat)


def _junk(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CardJunked", {"seat": seat, "card": action["card"], "source": "hand"}, seat)


def _junk_burned(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CardJunked", {"seat": seat, "card": b.state.players[seat].burned[-1], "source": "burn"}, seat)


HANDLERS = {
    "place_realm": _place_realm,
    "place_dragon": _place_dragon,
    "search": _search,
    "burn": _burn,
    "raze": _raze,
    "move_dragon": _move_dragon,
    "push": _push,
    "roam": _roam,
    "skip": _skip,
    "discard": _discard,
    "pass": _pass,
    "play": _play,
    "attempt": _attempt,
    "end_phase": _end_phase,
    "fly": _fly,
    "land": _land,
    "duel": _duel,
    "draw": _draw,
    "junk": _junk,
    "junk_burned": _junk_burned,
}


# --- the automatic steps ----------------------------------------------------------


def resolve_top(b: Builder) -> None:
    state = b.state
    item: Item = state.stack[-1]
    b.emit("ItemResolved", {"kind": item.kind, "seat": item.seat}, item.seat)
    if item.cancelled:
        return
    if item.kind == "action":
        assert item.card is not None
        apply_effects(b, card(item.card).effect, item.seat, item.seat)
    elif item.kind == "challenge":
        _resolve_challenge(b, item)
    else:
        _resolve_duel(b, item)


def _resolve_challenge(b: Builder, item: Item) -> None:
    assert item.at is not None
    realm = board.realm_at(b.state, item.at)
    held = board.live_challenge(realm)
    if realm is None or held is None:
        b.emit("ChallengeFizzled", {"seat": item.seat, "at": at(item.at)}, item.seat)
        return
    c = card(held)
    total = draw_luck(b, item.seat) + luck_bonus(b.state, item.seat, c.colour)
    number = c.number or 0
    result = {"seat": item.seat, "at": at(item.at), "card": held, "total": total, "number": number}
    if total >= number:
        b.emit("ChallengeWon", result, item.seat)
        apply_effects(b, c.effect, item.seat, realm.controller if realm.controller is not None else item.seat)
    else:
        b.emit("ChallengeLost", result, item.seat)


def _resolve_duel(b: Builder, item: Item) -> None:
    """Both draw luck; the higher total (luck plus bonuses) wins, ties to the active player.
    The winner burns the difference in luck drawn, nothing if its own luck was lower."""
    assert item.opponent is not None
    lucks = [draw_luck(b, item.seat), draw_luck(b, item.opponent)]
    totals = [
        lucks[0] + luck_bonus(b.state, item.seat, item.colour),
        lucks[1] + luck_bonus(b.state, item.opponent, item.colour),
    ]
    won = 0 if totals[0] >= totals[1] else 1
    winner, loser = (item.seat, item.opponent) if won == 0 else (item.opponent, item.seat)
    burn = max(0, lucks[won] - lucks[1 - won])
    b.emit(
        "DuelResolved",
        {
            "seat": item.seat,
            "opponent": item.opponent,
            "colour": item.colour,
            "luck": lucks,
            "totals": totals,
            "winner": winner,
            "loser": loser,
            "burn": burn,
        },
        item.seat,
    )
    if burn:
        b.emit("ChoicesOwed", {"choices": [[winner, "burn", burn, None]]}, winner)
    loser_at = b.state.players[loser].dragon
    if loser_at is not None and board.adjacent_realms(b.state, loser_at):
        b.emit("ChoicesOwed", {"choices": [[winner, "push", 1, str(loser)]]}, winner)


def settle(b: Builder, rng: random.Random) -> None:
    """Run every automatic step until a seat has a decision to make or the game ends."""
    while True:
        state = b.state
        if state.winners is not None:
            return
        if state.owed:
            if owed_actions(state, state.owed[0]):
                return
            head = state.owed[0]
            if head.kind == "search":
                b.emit("ChoiceSkipped", {"seat": head.seat}, head.seat)
                _shuffle(b, head.seat, rng)
            else:
                b.emit("ChoiceSkipped", {"seat": head.seat}, head.seat)
            continue
        if state.priority is not None:
            return
        if state.stack:
            resolve_top(b)
            continue
        if not _advance(b):
            return


def _advance(b: Builder) -> bool:
    """One automatic phase step; False when the active seat must decide."""
    state = b.state
    phase = state.phase
    if phase == "setup":
        for seat in range(state.count):
            b.emit("CardsDrawn", {"seat": seat, "cards": list(state.players[seat].deck[:HAND_LIMIT])}, seat)
        order = seats_from(state.first, state.count)
        b.emit("ChoicesOwed", {"choices": [[s, "place_dragon", 1, None] for s in order]}, None)
        b.emit("PhaseBegan", {"phase": "setup_dragons"}, None)
    elif phase == "setup_dragons":
        b.emit("TurnBegan", {"seat": state.first, "turn": 1}, state.first)
    elif phase == "start":
        run_triggers(b, "start")
        b.emit("PhaseBegan", {"phase": "challenge"}, None)
    elif phase == "challenge":
        if not state.attempted:
            return False
        b.emit("PhaseBegan", {"phase": "flight"}, None)
    elif phase == "roam":
        if roam_moves(state, state.active, None):
            return False
        b.emit("PhaseBegan", {"phase": "dragon"}, None)
    elif phase == "dragon":
        if duel_targets(state):
            return False
        b.emit("PhaseBegan", {"phase": "reclaim"}, None)
    elif phase == "end":
        extra = len(state.players[state.active].hand) - HAND_LIMIT
        if extra > 0:
            b.emit("ChoicesOwed", {"choices": [[state.active, "discard", extra, None]]}, state.active)
        b.emit("PhaseBegan", {"phase": "end_effects"}, None)
    elif phase == "end_effects":
        b.emit("JunkReturned", {"seat": state.active}, state.active)
        run_triggers(b, "end")
        b.emit("PhaseBegan", {"phase": "end_check"}, None)
    elif phase == "end_check":
        _end_check(b)
    else:
        return False
    return True


def _end_check(b: Builder) -> None:
    state = b.state
    active = state.players[state.active]
    scores = [60 - p.remaining for p in state.players]
    if active.remaining == 0:
        b.emit(
            "GameEnded",
            {"winners": [state.active], "scores": scores, "reason": "no cards left in deck, stash and junk"},
            state.active,
        )
        return
    if state.turn >= state.turn_limit * state.count:
        fewest = min(p.remaining for p in state.players)
        winners = [s for s, p in enumerate(state.players) if p.remaining == fewest]
        b.emit(
            "GameEnded",
            {
                "winners": winners,
                "scores": scores,
                "reason": f"turn limit: fewest cards left after {state.turn_limit} rounds",
            },
            None,
        )
        return
    nxt = (state.active + 1) % state.count
    b.emit("TurnBegan", {"seat": nxt, "turn": state.turn + 1}, nxt)
