"""What a seat may see and believe of a Dragoborne table: its view, the events of the feed
as it may read them (``redact``), the cards hidden from it (``secrets``), a re-deal of
those cards consistent with what it has seen (``determinize``, for bots and forks), and the
cards a game dealt or an action played, by name (``card_names``, ``action_cards``).

Hidden: hands (but for cards the opponent has seen, such as a creature returned to
hand or a searched card), every deck, every barrier (its owner too only sees one
when it breaks). Public: dice, the field, resources, discard piles.
"""

from __future__ import annotations

import random
from itertools import islice
from typing import Any

from games.base import GameEvent, redeal, replace, shuffled_hidden
from games.dragoborne.cards import card_of
from games.dragoborne.rules import outcome, to_act
from games.dragoborne.state import Pending, State, stats
from games.viewschema import (
    BOOLEAN,
    INTEGER,
    OUTCOME,
    SEAT,
    STRING,
    Schema,
    array,
    choice,
    described,
    either,
    nullable,
    record,
)

# ---------------------------------------------------------------- secrets


def secrets(state: State, seat: int | None) -> frozenset[str]:
    hidden: set[str] = set()
    for owner, side in enumerate(state.sides):
        hidden.update(side.deck)
        for pile in side.forts:
            hidden.update(pile)
        if owner != seat:
            hidden.update(card for card in side.hand if card not in side.known)
            hidden.update(side.lifted)
    return frozenset(hidden)


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """Re-deal every card ``seat`` cannot see among the places it could be: its own deck
    and barriers; the opponent's deck, barriers and unseen hand cards."""
    sides = []
    for owner, side in enumerate(state.sides):
        unseen_hand = [] if owner == seat else [c for c in side.hand if c not in side.known]
        dealt = iter(
            shuffled_hidden(unseen_hand + list(side.deck) + [card for pile in side.forts for card in pile], rng)
        )
        hand = redeal(side.hand, unseen_hand, dealt) if unseen_hand else side.hand
        deck = tuple(islice(dealt, len(side.deck)))
        forts = tuple(tuple(islice(dealt, len(pile))) for pile in side.forts)
        sides.append(replace(side, hand=hand, deck=deck, forts=forts))
    return replace(state, sides=tuple(sides))


# ---------------------------------------------------------------- cards, for bench.balance


def card_names(state: State) -> tuple[str, ...]:
    """Every distinct card dealt to either seat (banners are not dealt), by name."""
    names: set[str] = set()
    for side in state.sides:
        dealt = [*side.deck, *side.hand, *side.resources, *side.discard, *side.lifted]
        dealt += [c.id for c in side.field] + [card for pile in side.forts for card in pile]
        names.update(card_of(c, state.rules).name for c in dealt if c not in side.banners)
    return tuple(sorted(names))


def action_cards(state: State, seat: int, action: Any) -> tuple[str, ...]:
    """The card an action plays (summon, cast), whose [ACT] ability it uses (activate), or
    whose Fort Burst it fires (burst)."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind in ("summon", "cast"):
        played = action["card"]
    elif kind == "activate":
        played = action["creature"]
    elif kind == "burst" and state.pending:
        played = state.pending[0].source
    else:
        return ()
    return (card_of(played, state.rules).name,)


# ---------------------------------------------------------------- views


def _pending_view(item: Pending, seat: int | None, rules: int) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": item.kind, "seat": item.seat}
    if item.kind == "effect":
        effect = item.effect(rules)
        out.update(source=item.source, where=item.where, index=item.index, op=effect.op)
    elif item.kind == "burst" and item.seat == seat:
        out["source"] = item.source
    return out


def _side_view(state: State, owner: int, seat: int | None) -> dict[str, Any]:
    side = state.sides[owner]
    mine = owner == seat
    colours = [card_of(b, state.rules).colour for b in side.banners]
    return {
        "seat": owner,
        "deck": len(side.deck),
        "hand": list(side.hand) if mine else len(side.hand),
        "known": [c for c in side.hand if c in side.known],
        "forts": [
            {
                "banner": side.banners[f],
                "colour": colours[f],
                "barriers": len(side.forts[f]),
                "destroyed": not side.forts[f],
                "shield": side.shield_at(f),
            }
            for f in range(len(side.forts))
        ],
        "creatures": [
            {
                "id": c.id,
                "card": card_of(c.id, state.rules).key,
                "fort": c.fort,
                "rested": c.rested,
                "damage": c.damage,
                "atk": atk,
                "edr": edr,
                "cross": c.cross,
                "moved": c.moved,
            }
            for c in side.field
            for atk, edr in [stats(side, c, state.rules)]
        ],
        "resources": [
            {"id": r, "colour": card_of(r, state.rules).colour, "rested": r in side.rested} for r in side.resources
        ],
        "dice": [
            {
                "colour": d.colour,
                "value": d.value,
                "use": d.use,
                "fort": d.fort,
                "creature": d.creature,
                "damage": d.damage,
            }
            for d in side.dice
        ],
        "discard": list(side.discard),
        "lifted": list(side.lifted) if mine else len(side.lifted),
        "mulliganed": side.mulliganed,
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    return {
        "you": seat,
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "first": state.first,
        "to_act": sorted(to_act(state)),
        "decks": list(state.decks),
        "attack": None if state.attack is None else {"creature": state.attack[0], "fort": state.attack[1]},
        "pending": [_pending_view(item, seat, state.rules) for item in state.pending],
        "players": [_side_view(state, owner, seat) for owner in range(len(state.sides))],
        "result": outcome(state),
    }


def view_schema() -> Schema:
    """The shape of what ``view`` returns (and ``final_view``, the same with every hand)."""
    seat_or_none = nullable(SEAT)
    cards_or_count = either(array(STRING), INTEGER)
    side = record(
        {
            "seat": SEAT,
            "deck": described(INTEGER, "Cards left in the deck."),
            "hand": described(cards_or_count, "The cards in the seat's own view; a count in another's."),
            "known": described(array(STRING), "Cards in the hand the opponent has seen."),
            "forts": array(
                record(
                    {
                        "banner": STRING,
                        "colour": STRING,
                        "barriers": described(INTEGER, "Barriers left, face down."),
                        "destroyed": BOOLEAN,
                        "shield": described(nullable(INTEGER), "The die standing as its Dragoshield."),
                    }
                )
            ),
            "creatures": array(
                record(
                    {
                        "id": STRING,
                        "card": STRING,
                        "fort": INTEGER,
                        "rested": BOOLEAN,
                        "damage": INTEGER,
                        "atk": INTEGER,
                        "edr": INTEGER,
                        "cross": described(nullable(INTEGER), "The die Dragocrossed on it."),
                        "moved": BOOLEAN,
                    }
                )
            ),
            "resources": array(record({"id": STRING, "colour": STRING, "rested": BOOLEAN})),
            "dice": array(
                record(
                    {
                        "colour": STRING,
                        "value": INTEGER,
                        "use": choice("free", "shield", "cross", "spent"),
                        "fort": nullable(INTEGER),
                        "creature": nullable(STRING),
                        "damage": INTEGER,
                    }
                )
            ),
            "discard": array(STRING),
            "lifted": described(cards_or_count, "Broken barriers its owner is looking at; a count in another's view."),
            "mulliganed": BOOLEAN,
        }
    )
    pending = record(
        {
            "kind": choice("effect", "burst", "block"),
            "seat": SEAT,
            "source": described(STRING, "The card it comes from (a Fort Burst's only to its owner)."),
            "where": STRING,
            "index": INTEGER,
            "op": STRING,
        },
        optional=["source", "where", "index", "op"],
    )
    return record(
        {
            "you": described(seat_or_none, "The seat this view is for; null for a spectator."),
            "phase": choice("mulligan", "resource", "main", "combat", "discard", "over"),
            "turn": INTEGER,
            "active": SEAT,
            "first": SEAT,
            "to_act": array(SEAT),
            "decks": described(array(STRING), "Each seat's deck name."),
            "attack": nullable(record({"creature": STRING, "fort": INTEGER})),
            "pending": array(pending),
            "players": array(side),
            "result": nullable(OUTCOME),
        }
    )


# ---------------------------------------------------------------- the event feed


def redact(event: GameEvent, seat: int | None) -> GameEvent:
    data = dict(event.data)
    kind = event.type
    owner = data.get("seat")
    mine = seat is not None and owner == seat
    if kind == "GameStarted":
        data["decks"] = [len(deck) for deck in data["decks"]]
    elif kind == "CardsDrawn" and not mine:
        data["cards"] = len(data["cards"])
    elif kind == "HandMulliganed":
        data = {
            "seat": owner,
            "returned": len(data["returned"]),
            "drawn": list(data["drawn"]) if mine else len(data["drawn"]),
        }
    elif kind == "BarriersPlaced":
        data["forts"] = [len(pile) for pile in data["forts"]]
    elif kind in ("BarrierBroken", "BarrierTaken") and not mine or kind == "BarrierAdded":
        data.pop("card", None)
    elif kind == "DeckShuffled":
        data["deck"] = len(data["deck"])
    elif kind == "EffectsQueued":
        data["items"] = [
            item if item[0] != "burst" or item[1] == seat else [item[0], item[1], None, item[3], item[4]]
            for item in data["items"]
        ]
    else:
        return event
    return GameEvent(kind, data, event.seat)
