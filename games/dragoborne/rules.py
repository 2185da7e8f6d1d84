"""Dragoborne rules of play: the options a game may start with and the deal (``setup``),
who may act now (``to_act``), what each seat may do (``legal_actions``) and why anything
else is refused (``refusal``), the move for each action type (``move``), the actions' schemas, and
when the game is over and who won (``outcome``).

Each action type has its move (``MOVES``, or ``PENDING_MOVES`` while a step waits for a
choice): its own step, run once the kit's decide template has checked the action is
listed, then ``settle``, which works through the queue of pending steps (effects, the
block step of an attack, Fort Burst choices) until it reaches one that needs a player's
choice, or empties it.
Effects are interpreted from the card data; no card is named here. Each phase of play
has its module: ``turn`` (the mulligan and the main phase), ``combat``, ``effects``, and
``costs`` (what pays for what, and what an effect may target).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.base import CARD_ID, JSON, Action, GameEvent, IllegalAction, Move, fields_of, outcome_of, rules_of, stepped
from games.dragoborne.cards import (
    BARRIERS_PER_FORT,
    FORTS,
    OPENING_HAND,
    SECOND_PLAYER_EXTRA_CARDS,
    card_of,
    cards_of,
    deck_keys,
    deck_problems,
    deck_spec,
    expand,
)
from games.dragoborne.combat import attack, block, block_step, burst, combat_actions, enter_combat, no_block, take
from games.dragoborne.costs import item_choices
from games.dragoborne.effects import Builder, apply_effect
from games.dragoborne.state import State
from games.dragoborne.turn import (
    activate,
    cast,
    cross,
    discard,
    end_turn,
    main_actions,
    move_creature,
    mulligan,
    mulligan_actions,
    resource,
    shield,
    skip_resource,
    summon,
    switch,
)

PLAYERS = 2
SCENARIO_MINIMUM = OPENING_HAND + FORTS * BARRIERS_PER_FORT
REVISION_3_OPTIONS = {
    "shields_match_banners": "a Dragoshield already goes only before the fort whose banner matches its die",
}
"""The options that keep an earlier revision's reading under revision 3, each with what
revisions 1 and 2 always do (so the option is refused there)."""


# ---------------------------------------------------------------- options and the deal


def check_options(options: Mapping[str, JSON], players: int) -> list[str]:
    rules = rules_of(options)
    problems = [
        f"Option '{name}' is a reading of rules revision 3; under revision {rules} {always}."
        for name, always in REVISION_3_OPTIONS.items()
        if options.get(name) and rules < 3
    ]
    pool = cards_of(rules)
    decks = options["decks"]
    if len(decks) != PLAYERS:
        problems.append(f"Option 'decks' must name one deck for each of the {PLAYERS} seats.")
    else:
        for seat, deck in enumerate(decks):
            problems += deck_problems(deck, f"The deck of seat {seat}", rules)
    order = options["deck"]
    if order is not None:
        if len(order) != PLAYERS or not all(isinstance(listed, list) for listed in order):
            problems.append(f"Option 'deck' must be {PLAYERS} lists of card names, one per seat.")
        else:
            minimum = SCENARIO_MINIMUM + (SECOND_PLAYER_EXTRA_CARDS if options.get("second_player_extra_card") else 0)
            for seat, listed in enumerate(order):
                unknown = sorted({c for c in listed if not isinstance(c, str) or c not in pool})
                if unknown:
                    problems.append(f"The deck order of seat {seat} names unknown cards: {unknown}.")
                elif any(pool[c].type == "banner" for c in listed):
                    problems.append(f"The deck order of seat {seat} lists a banner; banners are not in the deck.")
                if len(listed) < minimum:
                    problems.append(
                        f"The deck order of seat {seat} has {len(listed)} cards; the deal needs at least {minimum}."
                    )
    return problems


def opening_hand(seat: int, first: int, extra_card: bool = False) -> int:
    """Five cards (rulebook); the variant ``second_player_extra_card`` gives the second player one more."""
    return OPENING_HAND + (SECOND_PLAYER_EXTRA_CARDS if extra_card and seat != first else 0)


def setup(options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
    first = options.get("first_player")
    if first is None:
        first = rng.randrange(PLAYERS)
    order = options.get("deck")
    rules = rules_of(options)
    decks, banners, dice, names = [], [], [], []
    for seat, choice in enumerate(options["decks"]):
        spec = deck_spec(choice, rules)
        if order is not None:
            dealt = expand(seat, list(order[seat]))
        else:
            dealt = expand(seat, deck_keys(spec))
            rng.shuffle(dealt)
        decks.append(dealt)
        banners.append(expand(seat, list(spec["banners"])))
        dice.append(list(spec["dice"]))
        names.append(choice if isinstance(choice, str) else "custom")
    started: dict[str, Any] = {
        "players": players,
        "first": first,
        "names": names,
        "decks": decks,
        "banners": banners,
        "dice": dice,
    }
    if rules >= 2:
        started["rules"] = rules  # revision 1's GameStarted never said, and still does not
    if options.get("shields_match_banners"):
        started["shields_match_banners"] = True  # only when on: with the default, GameStarted is as revision 2's
    events = [GameEvent("GameStarted", started)]
    extra = bool(options.get("second_player_extra_card", False))
    events += [
        GameEvent("CardsDrawn", {"seat": seat, "cards": decks[seat][: opening_hand(seat, first, extra)]}, seat)
        for seat in range(players)
    ]
    return events


# ---------------------------------------------------------------- who acts, and what they may do


def legal_actions(state: State, seat: int) -> list[Action]:
    if state.phase == "over":
        return []
    if state.pending:
        return _pending_actions(state, seat)
    if state.phase == "mulligan":
        return mulligan_actions(state, seat)
    if seat != state.active:
        return []
    if state.phase == "resource":
        return [{"type": "resource"}, {"type": "skip_resource"}]
    if state.phase == "main":
        return main_actions(state, seat)
    if state.phase == "combat":
        return combat_actions(state, seat)
    if state.phase == "discard":
        return [{"type": "discard", "card": card} for card in state.sides[seat].hand]
    return []


def to_act(state: State) -> frozenset[int]:
    if state.phase == "over":
        return frozenset()
    if state.pending:
        return frozenset({state.pending[0].seat})
    if state.phase == "mulligan":
        return frozenset(s for s, side in enumerate(state.sides) if not side.mulliganed)
    return frozenset({state.active})


def not_your_turn(state: State, seat: int) -> str:
    return "It is not your turn to act."


def is_over(state: State) -> bool:
    return bool(state.phase == "over")


def outcome(state: State) -> dict[str, Any] | None:
    if state.phase != "over":
        return None
    scores = [1 if seat in state.winners else 0 for seat in range(len(state.sides))]
    return outcome_of(state.winners, scores, state.reason)


def _pending_actions(state: State, seat: int) -> list[Action]:
    item = state.pending[0]
    if item.seat != seat:
        return []
    if item.kind == "burst":
        take = {"type": "take"}
        return [{"type": "burst"}, take] if card_of(item.source, state.rules).burst else [take]
    if item.kind == "block":
        assert state.attack is not None
        fort = state.attack[1]
        blockers = [c.id for c in state.sides[seat].on_fort(fort) if not c.rested]
        return [{"type": "block", "creature": c} for c in blockers] + [{"type": "no_block"}]
    return [{"type": "target", "target": t} for t in item_choices(state, item)]


def refusal(state: State, seat: int, action: Any) -> str:
    """A sentence saying why ``action`` is refused."""
    if state.phase == "over":
        return "The game is over."
    if seat not in to_act(state):
        return "It is not your turn to act."
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        return "An action must be an object with a 'type'."
    kinds = sorted({a["type"] for a in legal_actions(state, seat)})
    kind = action["type"]
    if state.phase == "main" and not state.pending and kind in ("move", "switch"):
        return _moving_refusal(state, seat, action)
    if state.phase == "main" and not state.pending and kind == "shield":
        return _shield_refusal(state, seat, action)
    if kind not in kinds:
        return f"You cannot '{kind}' now; you may: {', '.join(kinds)}."
    side = state.sides[seat]
    card = action.get("card")
    if kind in ("summon", "cast", "discard") and card not in side.hand:
        return "That card is not in your hand."
    if kind in ("summon", "cast") and isinstance(card, str):
        return _paying_refusal(state, seat, action)
    if kind == "activate":
        same = [a for a in legal_actions(state, seat) if _same_ability(a, action)]
        wrong_pay = _pay_problem(same, action, "that ability") if same else None
        if wrong_pay is not None:
            return wrong_pay
    if kind in ("attack", "activate", "cross", "block") and "creature" in action:
        return "That creature cannot do that now (it is resting, has moved, or is not yours)."
    if kind == "cross":
        return "That die is already used until your next roll, or is not one of yours."
    if kind == "target":
        return "That is not a legal target for this effect."
    return "That action is not one of the choices open to you now."


def _paying_refusal(state: State, seat: int, action: Mapping[str, Any]) -> str:
    """Why a ``summon`` or ``cast`` of a card in hand is refused: a missing or wrong ``pay``
    is named with the payments that would do, a fort that cannot take the creature with the
    forts that can; else the card cannot be paid for, placed or aimed now."""
    kind, card = action["type"], action["card"]
    listed = [a for a in legal_actions(state, seat) if a["type"] == kind and a["card"] == card]
    wrong_pay = _pay_problem(listed, action, "that card")
    if wrong_pay is not None:
        return wrong_pay
    forts = sorted({a["fort"] for a in listed if "fort" in a})
    if kind == "summon" and forts and action.get("fort") not in forts:
        return f"That creature cannot go to that fort now; it may go to fort {', '.join(map(str, forts))}."
    return "You cannot pay that card's cost now, or it has nowhere to go or nothing to target."


def _index(value: Any, size: int) -> int | None:
    """``value`` when it is an index into a list of ``size``, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size else None


FORMS = {
    "move": ('{"type": "move", "creature": id, "fort": f}', {"type", "creature", "fort"}),
    "switch": ('{"type": "switch", "creatures": [id, id]}', {"type", "creatures"}),
    "shield": ('{"type": "shield", "die": i, "fort": f}', {"type", "die", "fort"}),
}
"""The form of the main-phase actions whose refusals name what is wrong, and their fields."""


def _form_problem(action: Mapping[str, Any]) -> str | None:
    form, fields = FORMS[action["type"]]
    return None if set(action) == fields else f"A {action['type']} is {form}, with no other field."


def _moving_refusal(state: State, seat: int, action: Mapping[str, Any]) -> str:
    """Why a ``move`` or ``switch`` is refused: its form, a creature that is not the
    player's, one that has moved this turn (revisions 1 and 2), or a fort it cannot go to."""
    wrong_form = _form_problem(action)
    if wrong_form is not None:
        return wrong_form
    side = state.sides[seat]
    moving = action["type"] == "move"
    named = [action["creature"]] if moving else action["creatures"]
    valid = isinstance(named, list) and len(named) == (1 if moving else 2) and len(set(map(str, named))) == len(named)
    creatures = [side.creature(c) if isinstance(c, str) else None for c in named] if valid else []
    if not creatures or None in creatures:
        return "Name creatures of yours on the field: a move names one, a switch two different ones."
    if state.moves_once_a_turn and any(c is not None and c.moved for c in creatures):
        return (
            f"That creature has already moved or switched this turn; under rules revision {state.rules} "
            "a creature moves once a turn (from revision 3 there is no limit)."
        )
    if not moving:
        if creatures[0] is not None and creatures[1] is not None and creatures[0].fort == creatures[1].fort:
            return "Those creatures are on the same fort; a switch trades creatures on different forts."
        return "A switch trades creatures only between forts that still stand."
    fort = _index(action["fort"], len(side.forts))
    if fort is None or not side.forts[fort]:
        return "A creature moves only onto a fort of yours that still stands."
    if creatures[0] is not None and creatures[0].fort == fort:
        return f"That creature is already on fort {fort}."
    return f"Fort {fort} already holds two creatures, the most a fort may hold."


def _shield_refusal(state: State, seat: int, action: Mapping[str, Any]) -> str:
    """Why a ``shield`` is refused: its form, the die or the fort named, a fort that already
    has its Dragoshield, or (revisions 1 and 2, or option ``shields_match_banners``) a banner
    of another colour."""
    wrong_form = _form_problem(action)
    if wrong_form is not None:
        return wrong_form
    side = state.sides[seat]
    die = _index(action["die"], len(side.dice))
    if die is None:
        return f"Name one of your dice, 0 to {len(side.dice) - 1}."
    if side.dice[die].use != "free":
        return f"Die {die} is already used until your next roll."
    fort = _index(action["fort"], len(side.forts))
    if fort is None or not side.forts[fort]:
        return "A Dragoshield goes only before a fort of yours that still stands."
    if side.shield_at(fort) is not None:
        return f"Fort {fort} already has a Dragoshield; a fort has one at a time."
    colour, banner = side.dice[die].colour, card_of(side.banners[fort], state.rules).colour
    if state.shields_follow_banners and colour != banner:
        why = f"under rules revision {state.rules}" if state.rules < 3 else "with the option 'shields_match_banners'"
        return (
            f"Die {die} is {colour} and fort {fort}'s banner is {banner}: {why} a Dragoshield goes only "
            "before a fort whose banner matches its die."
        )
    return "That Dragoshield is not one of the choices open to you now."


def _same_ability(listed: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    """Whether a listed action activates the ability ``action`` names, of the same creature."""
    return listed["type"] == "activate" and all(listed.get(k) == action.get(k) for k in ("creature", "ability"))


def _pay_problem(listed: Sequence[Mapping[str, Any]], action: Mapping[str, Any], what: str) -> str | None:
    """What is wrong with ``action``'s ``pay``, given the listed actions that do the same
    thing (the same card, or the same creature's ability), naming the payments that would
    do; None when its ``pay`` is not what is wrong."""
    pays = sorted({tuple(a["pay"]) for a in listed if "pay" in a})
    ways = "; ".join(f"[{', '.join(pay)}]" if pay else "[] (it costs nothing)" for pay in pays)
    if pays and "pay" not in action:
        return f"'pay' is missing: name the resources (by colour) to rest for {what}; it may be paid with {ways}."
    if pays and not any(list(pay) == action["pay"] for pay in pays):
        return f"That 'pay' does not pay for {what} now; it may be paid with {ways}."
    if listed and not pays and "pay" in action:
        return "Under rules revision 1 the cost is paid for you: leave 'pay' out."
    return None


# ---------------------------------------------------------------- the moves


def _target(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    item = b.state.pending[0]
    b.emit("PendingResolved", {})
    apply_effect(b, item, action["target"], rng)


def settle(b: Builder, rng: random.Random) -> None:
    """Resolve queued steps until one needs a player's choice or none is left."""
    while b.state.phase != "over" and b.state.pending:
        item = b.state.pending[0]
        if item.kind == "burst":
            return
        if item.kind == "block":
            if not block_step(b):
                return
            continue
        targets = item_choices(b.state, item)
        if item.effect(b.state.rules).targeted and len(targets) > 1:
            return
        b.emit("PendingResolved", {})
        apply_effect(b, item, targets[0] if targets else None, rng)


Step = Callable[[Builder, int, Action, random.Random], None]
"""One action type's own step on a builder (``turn``, ``combat``), before the queue settles."""


def settled(step: Step) -> Move:
    """The kit's move for one step, then the queued steps it set off (``settle``)."""
    return stepped(Builder, step, settle)


MOVES: dict[str, Move] = {
    "mulligan": settled(mulligan),
    "resource": settled(resource),
    "skip_resource": settled(skip_resource),
    "summon": settled(summon),
    "cast": settled(cast),
    "shield": settled(shield),
    "cross": settled(cross),
    "activate": settled(activate),
    "move": settled(move_creature),
    "switch": settled(switch),
    "combat": settled(enter_combat),
    "attack": settled(attack),
    "end_turn": settled(end_turn),
    "discard": settled(discard),
}
"""The moves while nothing is pending, by action type."""


PENDING_MOVES: dict[str, Move] = {
    "target": settled(_target),
    "burst": settled(burst),
    "take": settled(take),
    "block": settled(block),
    "no_block": settled(no_block),
}
"""The moves that answer the pending step at the head of the queue, by action type."""


def move(state: State, seat: int, kind: str) -> Move:
    """The move for an action of type ``kind`` (the template has found the action listed,
    so there is one; otherwise it is refused as ``decide`` would refuse it)."""
    found = (PENDING_MOVES if state.pending else MOVES).get(kind)
    if found is None:
        raise IllegalAction(refusal(state, seat, {"type": kind}))
    return found


def action_schemas() -> dict[str, dict[str, JSON]]:
    fort = {"type": "integer", "minimum": 0, "description": "A fort, counted from 0."}
    die = {"type": "integer", "minimum": 0, "description": "A die of the seat's pool, by its index."}
    pay = {
        "type": "array",
        "items": {"type": "string"},
        "description": "The resources rested to pay (from revision 2).",
    }
    return {
        "mulligan": fields_of({"cards": {"type": "array", "items": CARD_ID}}),
        "summon": fields_of({"card": CARD_ID, "fort": fort}, {"pay": pay}),
        "cast": fields_of({"card": CARD_ID}, {"pay": pay}),
        "shield": fields_of({"die": die, "fort": fort}),
        "cross": fields_of({"die": die, "creature": CARD_ID}),
        "activate": fields_of(
            {"creature": CARD_ID, "ability": {"type": "integer", "minimum": 0}}, {"die": die, "pay": pay}
        ),
        "move": fields_of({"creature": CARD_ID, "fort": fort}),
        "switch": fields_of({"creatures": {"type": "array", "items": CARD_ID, "minItems": 2, "maxItems": 2}}),
        "combat": fields_of(),
        "end_turn": fields_of(),
        "attack": fields_of({"creature": CARD_ID, "fort": fort}),
        "resource": fields_of(),
        "skip_resource": fields_of(),
        "discard": fields_of({"card": CARD_ID}),
        "burst": fields_of(),
        "take": fields_of(),
        "block": fields_of({"creature": CARD_ID}),
        "no_block": fields_of(),
        "target": fields_of(
            {"target": {"type": ["integer", "string"], "description": "A fort (by number) or a card (by id)."}}
        ),
    }
