"""What a seat may see and believe of a Stomping Grounds table: its view (``view``: the map,
every seat's piles with the decks and the other hands by size only, the stack and the
choices owed), the events of the feed as it may read them (``redact``: the deck orders and
another seat's draws stay hidden), the cards hidden from it (``secrets``: every deck above its
known bottom, the cards of the other hands no seat saw arrive), a re-deal of those cards
consistent with what it has seen (``determinize``, for the bots and forks), and the cards a
game dealt or an action uses, by name (``card_names``, ``action_cards``, for the per-card
table of ``bench.balance``)."""

from __future__ import annotations

import random

from games.base import JSON, Action, GameEvent, replace, shuffled_hidden
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
    pair,
    record,
)

from . import board
from .cards import CARDS_BY_RULES, DECK_INFO, card, deck_ids
from .flight import fly_targets
from .rules import outcome, to_act
from .state import PHASES, Realm, State


def view(state: State, seat: int | None) -> dict[str, JSON]:
    dragons: dict[tuple[int, int], list[int]] = {}
    for s, p in enumerate(state.players):
        if p.dragon is not None:
            dragons.setdefault(p.dragon, []).append(s)
    rules = state.rules
    realms = []
    for realm in state.realms:
        top = realm.challenge
        challenge: dict[str, JSON] | None = None
        if top is not None:
            c = card(top, rules)
            challenge = {
                "card": top,
                "name": c.name,
                "colour": c.colour,
                "number": c.number,
                "roam": c.roam,
                "controller": realm.controller,
                "text": c.text,
            }
        printed = card(realm.card, rules)
        realms.append(
            {
                "at": list(realm.at),
                "card": realm.card,
                "name": printed.name,
                "kind": printed.kind,
                "owner": realm.owner,
                "razed": realm.razed,
                "border": "black" if board.is_black(realm, rules) else "white",
                "dragons": dragons.get(realm.at, []),
                "challenge": challenge,
                "challenge_razed": realm.challenge_razed,
            }
        )
    players = []
    for s, p in enumerate(state.players):
        players.append(
            {
                "seat": s,
                "deck_key": p.deck_key,
                "dragon_name": DECK_INFO[p.deck_key]["dragon"],
                "deck": len(p.deck),
                "hand": list(p.hand) if s == seat else len(p.hand),
                "revealed_hand": sorted(p.seen_in_hand) if s != seat else [],
                "stash": list(p.stash),
                "junk": list(p.junk),
                "burned": list(p.burned),
                "hoard": list(p.hoard),
                "dragon": list(p.dragon) if p.dragon is not None else None,
                "luck_bonus": p.luck_bonus,
                "extra_luck": p.extra_luck,
                "remaining": p.remaining,
            }
        )
    return {
        "phase": state.phase,
        "active": state.active,
        "first": state.first,
        "turn": state.turn,
        "round": (state.turn - 1) // state.count + 1 if state.turn else 0,
        "turn_limit": state.turn_limit,
        "rules": state.rules,
        "closing": state.closing,
        "to_act": sorted(to_act(state)),
        "realms": realms,
        "realm_limit": board.REALMS_PER_PLAYER * state.count,
        "players": players,
        "stack": [
            {
                "kind": i.kind,
                "seat": i.seat,
                "card": i.card,
                "at": list(i.at) if i.at else None,
                "opponent": i.opponent,
                "colour": i.colour,
                "cancelled": i.cancelled,
            }
            for i in state.stack
        ],
        "priority": state.priority,
        "owed": [{"seat": o.seat, "kind": o.kind, "count": o.count} for o in state.owed],
        "flight_path": [list(p) for p in state.path],
        "attempted": state.attempted,
        "outcome": outcome(state),
    }


def view_schema() -> Schema:
    """The shape of what ``view`` returns (and ``final_view``, the same with every hand)."""
    position = described(pair(INTEGER), "A place on the map: column and row.")
    challenge = record(
        {
            "card": STRING,
            "name": STRING,
            "colour": nullable(STRING),
            "number": nullable(INTEGER),
            "roam": INTEGER,
            "controller": described(nullable(SEAT), "The seat that controls the challenge card."),
            "text": STRING,
        }
    )
    realm = record(
        {
            "at": position,
            "card": STRING,
            "name": STRING,
            "kind": nullable(STRING),
            "owner": SEAT,
            "razed": BOOLEAN,
            "border": choice("black", "white"),
            "dragons": described(array(SEAT), "The seats whose dragons stand here."),
            "challenge": described(nullable(challenge), "The challenge card on the realm."),
            "challenge_razed": BOOLEAN,
        }
    )
    player = record(
        {
            "seat": SEAT,
            "deck_key": STRING,
            "dragon_name": STRING,
            "deck": described(INTEGER, "Cards left in the deck."),
            "hand": described(
                either(array(STRING), INTEGER), "The cards in the seat's own view; a count in another's."
            ),
            "revealed_hand": described(array(STRING), "Cards of another seat's hand every seat saw arrive."),
            "stash": array(STRING),
            "junk": array(STRING),
            "burned": array(STRING),
            "hoard": array(STRING),
            "dragon": described(nullable(position), "Where the seat's dragon stands."),
            "luck_bonus": INTEGER,
            "extra_luck": INTEGER,
            "remaining": described(INTEGER, "Deck, stash and junk: the cards between the dragon and a win."),
        }
    )
    play = record(
        {
            "kind": choice("action", "challenge", "duel"),
            "seat": SEAT,
            "card": nullable(STRING),
            "at": nullable(position),
            "opponent": nullable(SEAT),
            "colour": nullable(STRING),
            "cancelled": BOOLEAN,
        }
    )
    return record(
        {
            "phase": choice(*PHASES),
            "active": SEAT,
            "first": SEAT,
            "turn": INTEGER,
            "round": INTEGER,
            "turn_limit": described(nullable(INTEGER), "Rounds the game lasts at most; null for no limit."),
            "rules": described(INTEGER, "The rules revision the game is played under."),
            "closing": BOOLEAN,
            "to_act": array(SEAT),
            "realms": array(realm),
            "realm_limit": INTEGER,
            "players": array(player),
            "stack": described(array(play), "Plays awaiting resolution, the last on top."),
            "priority": nullable(SEAT),
            "owed": described(
                array(record({"seat": SEAT, "kind": STRING, "count": INTEGER})), "Choices owed before play goes on."
            ),
            "flight_path": array(position),
            "attempted": BOOLEAN,
            "outcome": nullable(OUTCOME),
        }
    )


def redact(event: GameEvent, seat: int | None) -> GameEvent:
    data = event.data
    if event.type == "GameStarted":
        data = {**data, "orders": [len(o) for o in data["orders"]]}
    elif event.type == "DeckShuffled":
        data = {"seat": data["seat"], "order": len(data["order"])}
    elif event.type == "CardsDrawn" and data["seat"] != seat:
        data = {"seat": data["seat"], "cards": len(data["cards"])}
    else:
        return event
    return GameEvent(event.type, data, event.seat)


def secrets(state: State, seat: int | None) -> frozenset[str]:
    out: set[str] = set()
    for s, p in enumerate(state.players):
        out.update(p.deck[: len(p.deck) - p.known_bottom])
        if s != seat:
            out.update(c for c in p.hand if c not in p.seen_in_hand)
    return frozenset(out)


def determinize(state: State, seat: int, rng: random.Random) -> State:
    players = []
    for s, p in enumerate(state.players):
        hidden_slots = [] if s == seat else [i for i, c in enumerate(p.hand) if c not in p.seen_in_hand]
        unknown = len(p.deck) - p.known_bottom
        pool = shuffled_hidden([p.hand[i] for i in hidden_slots] + list(p.deck[:unknown]), rng)
        hand = list(p.hand)
        for i, c in zip(hidden_slots, pool, strict=False):
            hand[i] = c
        deck = tuple(pool[len(hidden_slots) :]) + p.deck[unknown:]
        players.append(replace(p, hand=tuple(hand), deck=deck))
    return replace(state, players=tuple(players))


def card_names(state: State) -> tuple[str, ...]:
    return tuple(
        sorted({card(c, state.rules).name for seat, p in enumerate(state.players) for c in deck_ids(seat, p.deck_key)})
    )


def action_cards(state: State, seat: int, action: Action) -> tuple[str, ...]:
    """A card played (from hand, or from the deck by a search or the setup), a challenge
    attempted or roamed, and a realm whose landing text the dragon uses by landing there."""
    kind = action.get("type")
    rules_now = state.rules
    if kind == "play":
        return (card(action["card"], rules_now).name,)
    if kind in ("place_realm", "search"):
        return (CARDS_BY_RULES[rules_now][action["card"]].name,)
    if kind == "roam":
        return (card(action["card"], rules_now).name,)
    if kind == "attempt":
        dragon = state.players[seat].dragon
        held = board.live_challenge(board.realm_at(state, dragon), rules_now) if dragon else None
        return (card(held, rules_now).name,) if held else ()
    if kind in ("fly", "land"):
        landed = _landing_realm(state, seat, action)
        return (card(landed.card, rules_now).name,) if landed is not None else ()
    return ()


def _landing_realm(state: State, seat: int, action: Action) -> Realm | None:
    """The realm whose landing text this fly or land action triggers, if any."""
    if action["type"] == "land":
        where = state.players[seat].dragon
        if where is None or len(state.path) < 2:
            return None
    else:
        where = (action["to"][0], action["to"][1])
        others = [s for s in board.dragons_at(state, where) if s != seat]
        after = replace(state, path=(*state.path, where))
        after = replace(
            after, players=tuple(replace(p, dragon=where) if s == seat else p for s, p in enumerate(state.players))
        )
        realm = board.realm_at(state, where)
        if realm is None or not (others or board.is_black(realm, state.rules) or not fly_targets(after)):
            return None
    realm = board.realm_at(state, where)
    if realm is None or not board.realm_text_live(realm) or not card(realm.card, state.rules).landing:
        return None
    return realm
