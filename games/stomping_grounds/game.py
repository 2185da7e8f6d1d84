"""Stomping Grounds: dragons race to empty their decks by burning cards, flying over a
shared map of realms and completing challenges. Implemented on the decider contract."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import (
    CARD_ID,
    JSON,
    SEAT_NUMBER,
    SPACE,
    Action,
    GameBase,
    GameEvent,
    Move,
    Option,
    fields_of,
    outcome_of,
    replace,
    rules_of,
    seats_from,
    shuffled_hidden,
)

from . import board, faces, rules
from .cards import CARDS_BY_RULES, DECK_INFO, DECK_KEYS, DECKS, Effect, card, deck_ids
from .evolve import EVOLVERS
from .flight import fly_targets
from .state import Player, Realm, State

REVISION_1_TURN_LIMIT = 40  # on by default under rules revision 1 only

HOARD_TURNS = 4.0
EFFECT_VALUE = {
    "burn": 1.0,
    "draw": 0.7,
    "stash": 0.1,
    "luck": 0.15,
    "draw_luck": 0.5,
    "raze": 0.3,
    "move_dragon": 0.2,
    "roam": 0.1,
    "cancel": 0.8,
    "search": 0.8,
    "junk": 0.2,
    "return": 0.6,
    "break": 0.8,
}


class StompingGrounds(GameBase):
    key = "stomping-grounds"
    title = "Stomping Grounds"
    summary = (
        "Two to four dragons fight for a land of realms laid edge to edge. Fly over the map, "
        "complete challenges and duel other dragons to burn your own 60-card deck away: the first "
        "dragon with no cards left in deck, stash and junk at the end of a turn wins."
    )
    min_players = 2
    max_players = 4
    rules_revision = 2
    options: tuple[Option, ...] = (
        Option(
            "decks",
            "array",
            None,
            "Deck key per seat (" + ", ".join(DECK_KEYS) + "); dealt at random when null.",
            nullable=True,
        ),
        Option(
            "deck",
            "array",
            None,
            "Explicit deck order per seat, top first (card ids 's<seat>-<card slug>-<copy>'), for "
            "scenarios and tutorials; needs 'decks'.",
            nullable=True,
        ),
        Option(
            "turn_limit",
            "integer",
            None,
            "Rounds after which the dragon with the fewest cards left wins (our rule, not the "
            f"rulebook's); null: no limit (rules revision 1 plays {REVISION_1_TURN_LIMIT} when null).",
            minimum=1,
            maximum=200,
            nullable=True,
        ),
    )
    # events that draw, shuffle or reveal a face-down card (a deck's top, a searched card)
    irreversible_types = frozenset(
        {
            "GameStarted",
            "LuckDrawn",
            "DeckShuffled",
            "CardsDrawn",
            "CardsStashed",
            "DragonFlew",
            "CardsBurned",
            "RealmPlayed",
            "HoardPlayed",
        }
    )
    unfair_options = ("deck",)
    evolvers = EVOLVERS
    lists_every_action = True
    strict_json = True

    # --- options and setup --------------------------------------------------------

    def check_options(self, options: Mapping[str, JSON], players: int) -> list[str]:
        problems = []
        decks = options.get("decks")
        if decks is not None:
            if len(decks) != players:
                problems.append(f"option 'decks' must name {players} decks, one per seat")
            unknown = [d for d in decks if d not in DECKS]
            if unknown:
                problems.append(
                    "unknown decks: " + ", ".join(map(str, unknown)) + "; choose from " + ", ".join(DECK_KEYS)
                )
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

    def setup(self, options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
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
        b = rules.Builder(None)  # type: ignore[arg-type]
        b.emit(
            "GameStarted",
            {
                "players": players,
                "decks": decks,
                "orders": [list(o) for o in orders],
                "turn_limit": limit,
                **({"rules": revision} if revision >= 2 else {}),
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
        rules.settle(b, rng)
        return b.events

    # --- the decider --------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        return rules.to_act(state)

    def action_schemas(self) -> dict[str, dict[str, JSON]]:
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

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def is_over(self, state: State) -> bool:
        return state.winners is not None

    def not_your_turn(self, state: State, seat: int) -> str:
        return "It is not your turn to act."

    def refusal(self, state: State, seat: int, action: Any) -> str:
        return rules.explain(state, seat, action)

    def move(self, state: State, seat: int, kind: str) -> Move:
        return rules.move(state, seat, kind)

    def outcome(self, state: State) -> dict[str, JSON] | None:
        if state.winners is None:
            return None
        return outcome_of(state.winners, [60 - p.remaining for p in state.players], state.reason)

    # --- what each seat sees ------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        dragons: dict[tuple[int, int], list[int]] = {}
        for s, p in enumerate(state.players):
            if p.dragon is not None:
                dragons.setdefault(p.dragon, []).append(s)
        realms = []
        for realm in state.realms:
            top = realm.challenge
            entry: dict[str, JSON] = {
                "at": list(realm.at),
                "card": realm.card,
                "name": card(realm.card, state.rules).name,
                "kind": card(realm.card, state.rules).kind,
                "owner": realm.owner,
                "razed": realm.razed,
                "border": "black" if board.is_black(realm, state.rules) else "white",
                "dragons": dragons.get(realm.at, []),
                "challenge": None,
            }
            entry["challenge_razed"] = realm.challenge_razed
            if top is not None:
                c = card(top, state.rules)
                entry["challenge"] = {
                    "card": top,
                    "name": c.name,
                    "colour": c.colour,
                    "number": c.number,
                    "roam": c.roam,
                    "controller": realm.controller,
                    "text": c.text,
                }
            realms.append(entry)
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
            "to_act": sorted(rules.to_act(state)),
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
            "outcome": self.outcome(state),
        }

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
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

    def secrets(self, state: State, seat: int | None) -> frozenset[str]:
        out: set[str] = set()
        for s, p in enumerate(state.players):
            out.update(p.deck[: len(p.deck) - p.known_bottom])
            if s != seat:
                out.update(c for c in p.hand if c not in p.seen_in_hand)
        return frozenset(out)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
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

    # --- cards: their faces for the web client, and the per-card table of bench.balance

    def card_faces(self) -> dict[str, dict[str, JSON]]:
        """Every card of the four decks by slug (``faceKey`` in the client module strips a
        card id's seat and copy), as the current rules revision prints it."""
        return faces.card_faces(self.rules_revision)

    def card_names(self, state: State) -> tuple[str, ...]:
        return tuple(
            sorted(
                {card(c, state.rules).name for seat, p in enumerate(state.players) for c in deck_ids(seat, p.deck_key)}
            )
        )

    def action_cards(self, state: State, seat: int, action: Action) -> tuple[str, ...]:
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

    # --- the greedy bot's heuristic -----------------------------------------------

    def evaluate(self, state: State, seat: int) -> float:
        if state.winners is not None:
            return 1.0 / len(state.winners) if seat in state.winners else 0.0
        scores = [_score(state, s) for s in range(state.count)]
        best_other = max(v for s, v in enumerate(scores) if s != seat)
        return min(0.99, max(0.01, 0.5 + (scores[seat] - best_other) / 80.0))


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


def _effects_value(effects: tuple[Effect, ...], for_self: bool = True) -> float:
    total = 0.0
    for e in effects:
        worth = EFFECT_VALUE.get(e.op, 0.0) * max(1, abs(e.n))
        total += worth if (e.target == "self") == for_self or e.op in ("junk", "return", "luck") else 0.0
    return total


def _chance(state: State, seat: int, colour: str | None, number: int) -> float:
    """Rough chance that one luck draw (0..8) plus bonuses reaches ``number``."""
    need = number - rules.luck_bonus(state, seat, colour)
    draws = 1 + state.players[seat].extra_luck
    single = min(1.0, max(0.0, (9 - need / draws) / 9))
    return single


def _score(state: State, seat: int) -> float:
    p: Player = state.players[seat]
    score = 60 - p.remaining - max(0, len(p.hand) - rules.HAND_LIMIT) + 0.08 * min(len(p.stash), 8)
    for o in state.owed:
        if o.seat == seat and o.kind == "burn":
            score += min(o.count, p.remaining)
    for item in state.stack:
        if item.cancelled or item.seat != seat:
            continue
        if item.kind == "action" and item.card is not None:
            score += _effects_value(card(item.card, state.rules).effect)
        elif item.kind == "challenge" and item.at is not None:
            held = board.live_challenge(board.realm_at(state, item.at), state.rules)
            if held is not None:
                c = card(held, state.rules)
                score += _chance(state, seat, c.colour, c.number or 0) * _effects_value(c.effect)
    # a hoard keeps working: its triggers for some turns yet (fewer as the deck runs out)
    turns_left = HOARD_TURNS * min(1.0, p.remaining / 30)
    for held in p.hoard:
        c = card(held, state.rules)
        score += turns_left * _effects_value(c.trigger) + 0.5 * c.bonus_luck
    if p.dragon is not None and not (state.active == seat and state.attempted):
        held = board.live_challenge(board.realm_at(state, p.dragon), state.rules)
        if held is not None:
            c = card(held, state.rules)
            score += 0.6 * _chance(state, seat, c.colour, c.number or 0) * _effects_value(c.effect)
    return score


GAME = StompingGrounds()
