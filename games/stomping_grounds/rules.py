"""Stomping Grounds, the rules of play: the options a game may start with and the opening
(``check_options``, ``setup``: the decks, the luck draw for the first player and the two
rounds of realms), who may act now (``to_act``) and why another seat may not
(``not_your_turn``), what each seat may do (``legal_actions``) and why anything else is
refused (``refusal``), the move for each action type (``move``: the action's own step, then
``settle`` runs the automatic steps it sets off) and the actions' schemas
(``action_schemas``), and when the game is over and who won (``is_over``, ``outcome``). The
steps live in the module of their phase of play: ``choices`` (the choices a card or the
setup owes), ``challenge`` (the challenge phase and the stack), ``flight`` (the flight and
dragon phases) and ``turn`` (the automatic steps and the reclaim phase), on ``effects``
(what cards do) and ``board`` (the realm map)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from games.base import (
    CARD_ID,
    JSON,
    SEAT_NUMBER,
    SPACE,
    Action,
    GameEvent,
    IllegalAction,
    Move,
    fields_of,
    outcome_of,
    rules_of,
    seats_from,
    stepped,
)

from .cards import COLOURS, DECK_KEYS, DECKS, card, deck_ids
from .challenge import attempt, can_attempt, pass_priority, play_actions, play_card
from .choices import (
    break_hoard,
    burn,
    discard,
    move_dragon,
    owed_actions,
    place_dragon,
    place_realm,
    push,
    raze,
    roam,
    roam_moves,
    search,
    skip,
)
from .effects import Builder, at
from .flight import duel, duel_targets, fly, fly_targets, land
from .state import State
from .turn import draw_stash, end_phase, junk, junk_burned, settle

REVISION_1_TURN_LIMIT = 40  # on by default under rules revision 1 only


def check_options(options: Mapping[str, JSON], players: int) -> list[str]:
    problems = []
    decks = options.get("decks")
    if decks is not None:
        if len(decks) != players:
            problems.append(f"option 'decks' must name {players} decks, one per seat")
        unknown = [d for d in decks if d not in DECKS]
        if unknown:
            problems.append("unknown decks: " + ", ".join(map(str, unknown)) + "; choose from " + ", ".join(DECK_KEYS))
    order = options.get("deck")
    if order is not None:
        if decks is None or problems:
            problems.append("option 'deck' needs valid 'decks' naming each seat's deck")
        elif len(order) != players or not all(isinstance(o, list) for o in order):
            problems.append(f"option 'deck' must be {players} lists of card ids, one per seat")
        else:
            for seat, (key, given) in enumerate(zip(decks, order, strict=True)):
                if sorted(map(str, given)) != sorted(deck_ids(seat, key)):
                    problems.append(f"seat {seat}'s deck order must hold every card of the {key} deck exactly once")
    return problems


def setup(options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
    decks = list(options.get("decks") or rng.sample(DECK_KEYS, players))
    orders = options.get("deck")
    if orders is None:
        orders = []
        for seat, key in enumerate(decks):
            ids = deck_ids(seat, key)
            rng.shuffle(ids)
            orders.append(ids)
    revision = rules_of(options)
    limit = options.get("turn_limit")
    if limit is None and revision < 2:
        limit = REVISION_1_TURN_LIMIT
    b = Builder(None)  # type: ignore[arg-type]
    b.emit(
        "GameStarted",
        {
            "players": players,
            "decks": decks,
            "orders": [list(o) for o in orders],
            "turn_limit": limit,
            **({"rules": revision} if revision >= 2 else {}),
            **({"stated": True} if options.get("deck") is not None else {}),
        },
    )
    contenders = list(range(players))
    while True:
        drawn = {}
        for seat in contenders:
            deck = b.state.players[seat].deck
            if deck:
                drawn[seat] = card(deck[0], b.state.rules).luck
                b.emit("LuckDrawn", {"seat": seat, "card": deck[0], "luck": drawn[seat]}, seat)
        best = max(drawn.values(), default=0)
        tied = [s for s in contenders if drawn.get(s) == best]
        if len(tied) <= 1 or not drawn:
            first = tied[0] if tied else 0
            break
        contenders = tied
    b.emit("FirstPlayerChosen", {"seat": first}, first)
    # realms: from the first player going right; then the last one again, going right
    round_one = seats_from(first, players, -1)
    round_two = seats_from(round_one[-1], players, -1)
    b.emit("ChoicesOwed", {"choices": [[s, "place_realm", 1, None] for s in round_one + round_two]})
    settle(b, rng)
    return b.events


def to_act(state: State) -> frozenset[int]:
    if state.winners is not None:
        return frozenset()
    if state.owed:
        return frozenset({state.owed[0].seat})
    if state.priority is not None:
        return frozenset({state.priority})
    return frozenset({state.active})


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


REASONS = {
    "place_realm": "Place a realm from your deck by name, on an open space edge to edge with a realm.",
    "place_dragon": "Place your dragon on a realm no dragon is on.",
    "burn": "Burn from your deck, stash or junk (a count up to what you owe) or a card from your hand.",
    "raze": "Choose a face-up realm to raze.",
    "break": "Choose an opponent's hoard to put into its owner's junk.",
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


def refusal(state: State, seat: int, action: Any) -> str:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return "An action is an object with a 'type'."
    kind = action["type"]
    if state.owed and state.owed[0].seat == seat:
        return f"First you owe a choice ({state.owed[0].kind}): " + REASONS.get(state.owed[0].kind, "")
    if kind not in REASONS:
        return f"There is no action '{kind}' in Stomping Grounds."
    return REASONS[kind]


Step = Callable[[Builder, int, Action, random.Random], None]
"""One action type's own step on a builder (``choices``, ``challenge``, ``flight``, ``turn``)."""


def settled(step: Step) -> Move:
    """The kit's move for one step, then the automatic steps it sets off (``settle``)."""
    return stepped(Builder, step, settle)


MOVES: dict[str, Move] = {
    "place_realm": settled(place_realm),
    "place_dragon": settled(place_dragon),
    "search": settled(search),
    "burn": settled(burn),
    "raze": settled(raze),
    "break": settled(break_hoard),
    "move_dragon": settled(move_dragon),
    "push": settled(push),
    "roam": settled(roam),
    "skip": settled(skip),
    "discard": settled(discard),
    "pass": settled(pass_priority),
    "play": settled(play_card),
    "attempt": settled(attempt),
    "end_phase": settled(end_phase),
    "fly": settled(fly),
    "land": settled(land),
    "duel": settled(duel),
    "draw": settled(draw_stash),
    "junk": settled(junk),
    "junk_burned": settled(junk_burned),
}
"""One move per action type."""


def move(state: State, seat: int, kind: str) -> Move:
    """The move for an action of type ``kind`` (the template has found the action listed,
    so there is one; otherwise it is refused as ``decide`` would refuse it)."""
    found = MOVES.get(kind)
    if found is None:
        raise IllegalAction(refusal(state, seat, {"type": kind}))
    return found


def action_schemas() -> dict[str, dict[str, JSON]]:
    return {
        "place_realm": fields_of({"card": CARD_ID, "at": SPACE}),
        "place_dragon": fields_of({"at": SPACE}),
        "burn": fields_of(
            {}, {"pile": {"type": "string"}, "count": {"type": "integer", "minimum": 1}, "card": CARD_ID}
        ),
        "raze": fields_of({"at": SPACE}),
        "break": fields_of({"card": CARD_ID}),
        "move_dragon": fields_of({"seat": SEAT_NUMBER, "to": SPACE}),
        "push": fields_of({"to": SPACE}),
        "skip": fields_of(),
        "discard": fields_of({"card": CARD_ID}),
        "search": fields_of({"card": CARD_ID}, {"at": SPACE}),
        "roam": fields_of({"card": CARD_ID, "to": SPACE}),
        "play": fields_of({"card": CARD_ID}, {"at": SPACE}),
        "pass": fields_of(),
        "attempt": fields_of(),
        "end_phase": fields_of(),
        "fly": fields_of({"to": SPACE}),
        "land": fields_of(),
        "duel": fields_of({"opponent": SEAT_NUMBER, "colour": {"type": "string"}}),
        "draw": fields_of(),
        "junk": fields_of({"card": CARD_ID}),
        "junk_burned": fields_of(),
    }


def not_your_turn(state: State, seat: int) -> str:
    return "It is not your turn to act."


def is_over(state: State) -> bool:
    return state.winners is not None


def outcome(state: State) -> dict[str, JSON] | None:
    if state.winners is None:
        return None
    return outcome_of(state.winners, [60 - p.remaining for p in state.players], state.reason)
