"""What a seat may see and believe of a Dragon Fortress table: its view (``view``: every
Estate Line and its powers, its own hand, the other hands as counts and their gold, drawn
face up), the events of the feed as it may read them (``redact``: the deal and another
seat's common draw stay hidden), the cards hidden from it (``secrets``: the supply but the
Call card, whose depth everyone saw, and the other hands but their gold), a re-deal of
those cards consistent with what it has seen (``determinize``, for the bots and forks), and
the cards a game dealt or an action played, by the name a player knows them by
(``card_names``, ``action_cards``, for the per-card table of ``bench.balance``).
"""

from __future__ import annotations

import random

from games.base import JSON, Action, GameEvent, redeal, replace, shuffled_hidden
from games.dragon_fortress import reading
from games.dragon_fortress.cards import CALL_CARD, GOLD_IDS, GOLD_TYPE, PHASES, TYPE_OF, TYPES, UPGRADE_INDEX, UPGRADES
from games.dragon_fortress.rules import final_scores, legal_actions
from games.dragon_fortress.state import (
    STEP_ACQUIRE,
    STEP_MOVE,
    STEP_OVER,
    STEP_PLACE,
    STEP_SACRIFICE,
    State,
    dragon_at,
)
from games.viewschema import (
    BOOLEAN,
    INTEGER,
    SEAT,
    STRING,
    Schema,
    action_of,
    array,
    choice,
    described,
    nullable,
    record,
)

# --- cards, for the per-card balance table ----------------------------------------------


def card_names(state: State) -> tuple[str, ...]:
    """Every card a player can bring into play, draw or use: the common cards, gold,
    phases, upgrades, the Dragon Call card and the dragons it calls, as they stand in
    the piles, hands, lines and supply (the Estate Flags, never played, are not)."""
    table: State = state
    cards = set(table.supply) | set(table.gold) | set(table.dragons)
    for pile in table.phase_piles + table.upgrade_piles:
        cards.update(pile)
    for estate in table.estates:
        cards.update(estate.hand, estate.line, estate.trophies)
    return tuple(t.name for t in TYPES if t.group != "flag" and any(TYPE_OF[c] is t for c in cards))


def action_cards(state: State, seat: int, action: Action) -> tuple[str, ...]:
    """The card placed, moved, bought, advanced to or drawn from the gold pile; drawing
    the Dragon Call card (its depth is public) uses it and the dragon it calls; a
    sacrifice uses the Dragon Tower."""
    table: State = state
    kind = action.get("type")
    if kind in ("place", "move"):
        return (TYPE_OF[action["card"]].name,)
    if kind == "purchase":
        return (UPGRADES[UPGRADE_INDEX[action["card"]]].name,)
    if kind == "advance":
        return (PHASES[table.estates[seat].reached].name,)
    if kind == "sacrifice" and table.pending is not None:
        return (TYPE_OF[table.pending.tower].name,)
    if kind == "draw" and action.get("pile") == "gold":
        return (GOLD_TYPE.name,)
    if kind == "draw" and table.supply[:1] == (CALL_CARD,) and table.dragons:
        return (TYPE_OF[CALL_CARD].name, TYPE_OF[table.dragons[0]].name)
    return ()


# --- hidden information -----------------------------------------------------------------


def secrets(state: State, seat: int | None) -> frozenset[str]:
    table: State = state
    hidden = {card for card in table.supply if card != CALL_CARD}
    for other, estate in enumerate(table.estates):
        if other != seat:
            hidden.update(card for card in estate.hand if card not in GOLD_IDS)
    return frozenset(hidden)


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """Re-deal the common cards ``seat`` cannot see (the supply, except the Call card whose
    depth everyone saw, and the other hands, except their gold, drawn face up)."""
    table: State = state
    hidden = secrets(table, seat)
    cards = iter(shuffled_hidden(hidden, rng))
    supply = redeal(table.supply, hidden, cards)
    estates = tuple(
        estate if other == seat else replace(estate, hand=redeal(estate.hand, hidden, cards))
        for other, estate in enumerate(table.estates)
    )
    return replace(table, supply=supply, estates=estates)


def view(state: State, seat: int | None) -> dict[str, JSON]:
    table: State = state
    players = []
    for other, estate in enumerate(table.estates):
        line = estate.line
        at = dragon_at(line)
        dragon = None
        if at is not None:
            kind = TYPE_OF[line[at]]
            dragon = {
                "card": line[at],
                "position": at,
                "damage": reading.damage(line, at),
                "strength": kind.strength,
            }
        players.append(
            {
                "seat": other,
                "flag": estate.flag,
                "line": list(line),
                "hand": list(estate.hand) if other == seat else None,
                "hand_count": len(estate.hand),
                "hand_gold": [card for card in estate.hand if card in GOLD_IDS],
                "fresh_gold": estate.fresh_gold,
                "trophies": list(estate.trophies),
                "phase": PHASES[estate.reached - 1].key if estate.reached else None,
                "estate_power": reading.estate_power(line),
                "fortress_power": reading.fortress_power(line),
                "gold_power": reading.gold_power(line),
                "victory_points": reading.victory_points(estate, table.rules.revision),
                "purchases": {u.key: n for u, n in zip(UPGRADES, estate.bought, strict=True)},
                "purchases_this_phase": {u.key: n for u, n in zip(UPGRADES, estate.bought_this_phase, strict=True)},
                "purchased_last_turn": estate.bought_last_turn,
                "dragon": dragon,
            }
        )
    pending = table.pending
    return {
        "you": seat,
        "step": table.step,
        "turn": table.turn,
        "turns_played": table.turns,
        "players": players,
        "supply": {
            "count": len(table.supply),
            "call_depth": table.supply.index(CALL_CARD) if CALL_CARD in table.supply else None,
        },
        "gold_supply": len(table.gold),
        "piles": {
            **{t.key: len(p) for t, p in zip(PHASES, table.phase_piles, strict=True)},
            **{t.key: len(p) for t, p in zip(UPGRADES, table.upgrade_piles, strict=True)},
        },
        "dragons": list(table.dragons),
        "out_of_game": list(table.out),
        "pending": None
        if pending is None
        else {"dragon": pending.dragon, "tower": pending.tower, "steps_left": pending.steps_left},
        "scores": final_scores(table) if table.step == STEP_OVER else None,
        "legal_actions": legal_actions(table, seat) if seat is not None else [],
    }


def view_schema() -> Schema:
    """The shape of what ``view`` returns (and ``final_view``, the same with every hand)."""
    upgrades = record({u.key: INTEGER for u in UPGRADES})
    return record(
        {
            "you": described(nullable(SEAT), "The seat this view is for; null for a spectator."),
            "step": choice(STEP_MOVE, STEP_SACRIFICE, STEP_ACQUIRE, STEP_PLACE, STEP_OVER),
            "turn": described(SEAT, "The seat whose turn it is."),
            "turns_played": INTEGER,
            "players": array(
                record(
                    {
                        "seat": SEAT,
                        "flag": described(STRING, "The seat's Estate Flag."),
                        "line": described(array(STRING), "The Front Line, from the Estate Flag out."),
                        "hand": described(nullable(array(STRING)), "Null but in the seat's own view."),
                        "hand_count": INTEGER,
                        "hand_gold": described(array(STRING), "Gold in hand: drawn face up, so public."),
                        "fresh_gold": described(nullable(STRING), "Gold drawn this turn, not to be placed yet."),
                        "trophies": array(STRING),
                        "phase": described(
                            nullable(choice(*(t.key for t in PHASES))), "The phase card the Estate reached."
                        ),
                        "estate_power": INTEGER,
                        "fortress_power": INTEGER,
                        "gold_power": INTEGER,
                        "victory_points": INTEGER,
                        "purchases": described(upgrades, "Upgrades bought, by kind."),
                        "purchases_this_phase": upgrades,
                        "purchased_last_turn": BOOLEAN,
                        "dragon": nullable(
                            record(
                                {
                                    "card": STRING,
                                    "position": described(INTEGER, "Its place in the line."),
                                    "damage": INTEGER,
                                    "strength": INTEGER,
                                }
                            )
                        ),
                    }
                )
            ),
            "supply": record(
                {
                    "count": INTEGER,
                    "call_depth": described(nullable(INTEGER), "How deep the Dragon Call card lies, face up."),
                }
            ),
            "gold_supply": INTEGER,
            "piles": described(record({t.key: INTEGER for t in (*PHASES, *UPGRADES)}), "Cards left in each pile."),
            "dragons": array(STRING),
            "out_of_game": array(STRING),
            "pending": described(
                nullable(record({"dragon": STRING, "tower": STRING, "steps_left": INTEGER})),
                "A dragon that passed the Dragon Tower, waiting for the sacrifice to be decided.",
            ),
            "scores": described(
                nullable(
                    array(
                        record(
                            {
                                "victory_points": INTEGER,
                                "estate_bonus": INTEGER,
                                "fortress_bonus": INTEGER,
                                "total": INTEGER,
                            }
                        )
                    )
                ),
                "Per seat, once the game is over.",
            ),
            "legal_actions": array(action_of("dragon-fortress")),
        }
    )


def redact(event: GameEvent, seat: int | None) -> GameEvent:
    if event.type == "CommonCardDrawn" and event.seat != seat:
        return GameEvent(event.type, {"card": None}, event.seat)
    if event.type == "GameSetUp":
        data = dict(event.data)
        supply = list(data["supply"])
        data["hands"] = [list(hand) if index == seat else len(hand) for index, hand in enumerate(data["hands"])]
        data["supply"] = {
            "count": len(supply),
            "call_depth": supply.index(CALL_CARD) if CALL_CARD in supply else None,
        }
        data["options"] = {
            name: (len(value) if name == "deck" and value else value) for name, value in dict(data["options"]).items()
        }
        return GameEvent(event.type, data, event.seat)
    return event
