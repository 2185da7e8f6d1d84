"""The rules of Fortress's play: the options a game may start with and the deal
(``check_options``, ``setup``), who may act now (``to_act``) and why another seat may not
(``not_your_turn``), what each seat may do (``legal_actions``), the move for each action type
(``move``) and the actions' schemas (``action_schemas``), the turn passing after a move
(``after_move``), and when the game is over and who won (``is_over``, ``outcome``). The moves
themselves live in the module of their phase of play: ``turn`` (the moves of the player whose
turn it is) and ``combat`` (declaring attackers, the defender's answer and the resolution).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.base import (
    CARD_ID,
    JSON,
    SEAT_NUMBER,
    Action,
    GameEvent,
    IllegalAction,
    Move,
    fields_of,
    next_seat_where,
    outcome_of,
    rules_of,
)
from games.fortress_siege.cards import (
    DECK_SIZE,
    FACTS,
    MIN_PLAYERS,
    PLAYERS_PER_SHARED_DECK,
    deck_ids,
)
from games.fortress_siege.combat import (
    CHARGE_MOVES,
    DEFENSE_MOVES,
    decide_attack,
    legal_attacks,
    legal_defense,
    legal_joins,
)
from games.fortress_siege.state import State
from games.fortress_siege.turn import TURN_MOVES, event, legal_turn_moves

# -- options and setup -------------------------------------------------


def shared_decks(players: int) -> int:
    """Winds of Fate: one deck per two players, rounded up."""
    return -(-players // PLAYERS_PER_SHARED_DECK)


def all_cards(players: int, winds_of_fate: bool) -> list[str]:
    decks = shared_decks(players) if winds_of_fate else players
    return [card for deck in range(decks) for card in deck_ids(deck)]


def fortress_size(players: int, winds_of_fate: bool) -> int:
    return len(all_cards(players, winds_of_fate)) // players if winds_of_fate else DECK_SIZE


def check_options(options: Mapping[str, JSON], players: int) -> list[str]:
    first = options.get("first_player")
    problems = (
        [f"option 'first_player' must be a seat of this game, 0 to {players - 1}, not {first}"]
        if isinstance(first, int) and not isinstance(first, bool) and first >= players
        else []
    )
    return problems + _deck_problems(options, players)


def _deck_problems(options: Mapping[str, JSON], players: int) -> list[str]:
    decks = options.get("decks")
    if decks is None or players < MIN_PLAYERS:
        return []
    if len(decks) != players or not all(isinstance(deck, list) for deck in decks):
        return [f"option 'decks' must hold one list of card ids per player ({players})"]
    winds = bool(options.get("winds_of_fate"))
    size = fortress_size(players, winds)
    problems = []
    for seat, deck in enumerate(decks):
        if len(deck) != size:
            problems.append(f"deck {seat} must have {size} cards, not {len(deck)}")
        if not all(isinstance(card, str) for card in deck):
            problems.append(f"deck {seat} must list card ids as strings")
    if problems:
        return problems
    if winds:
        dealt = [card for deck in decks for card in deck]
        unknown = sorted(set(dealt) - set(all_cards(players, True)))
        if unknown:
            problems.append("unknown cards: " + ", ".join(unknown))
        if len(dealt) != len(set(dealt)):
            problems.append("a card appears more than once across the decks")
        return problems
    for seat, deck in enumerate(decks):
        expected = set(deck_ids(seat))
        if set(deck) != expected or len(set(deck)) != len(deck):
            missing = sorted(expected - set(deck))
            problems.append(
                f"deck {seat} must hold each card of deck {seat} (ids ending '.{seat}') once"
                + (f"; missing {', '.join(missing)}" if missing else "")
            )
    return problems


def setup(options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
    winds = bool(options.get("winds_of_fate"))
    decks = options.get("decks")
    size = fortress_size(players, winds)
    cards = all_cards(players, winds)
    if decks is not None:
        fortresses = [list(deck) for deck in decks]
    elif winds:
        rng.shuffle(cards)
        fortresses = [cards[seat * size : (seat + 1) * size] for seat in range(players)]
    else:
        fortresses = []
        for seat in range(players):
            deck = deck_ids(seat)
            rng.shuffle(deck)
            fortresses.append(deck)
    dealt = {card for fortress in fortresses for card in fortress}
    set_aside = [card for card in cards if card not in dealt]
    tombstones = [fortress[-1] for fortress in fortresses]
    best = max(FACTS[card].destiny for card in tombstones)
    tied = [seat for seat, card in enumerate(tombstones) if FACTS[card].destiny == best]
    stated = options.get("first_player")
    # A stated first player draws no lot.
    first = int(stated) if stated is not None else tied[0] if len(tied) == 1 else rng.choice(tied)
    started: dict[str, JSON] = {
        "players": players,
        "winds_of_fate": winds,
        "fixed_deal": decks is not None,
        "fortresses": fortresses,
        "tombstones": tombstones,
        "set_aside": set_aside,
    }
    revision = rules_of(options)
    if revision >= 2:
        started["rules"] = revision
        started["one_attacker_per_move"] = bool(options.get("one_attacker_per_move"))
    return [
        GameEvent("GameStarted", started),
        GameEvent(
            "FirstPlayerChosen",
            {"seat": first, "tied": tied, **({"stated": True} if stated is not None else {})},
            first,
        ),
    ]


# -- who acts and what they may do ------------------------------------------------


def to_act(state: State) -> frozenset[int]:
    if state.over:
        return frozenset()
    if state.attack is not None:
        return frozenset((state.attack.target_seat,))
    return frozenset((state.active,))


def action_schemas() -> dict[str, dict[str, JSON]]:
    on_character = fields_of({"card": CARD_ID, "character": CARD_ID})
    return {
        "draw": fields_of(),
        "deploy": fields_of({"card": CARD_ID}),
        "armor": on_character,
        "equip": on_character,
        "barrage": fields_of({"card": CARD_ID, "fortress": SEAT_NUMBER}),
        "angel_of_life": on_character,
        "angel_of_death": on_character,
        "discard": fields_of({"card": CARD_ID}),
        "discard_character": fields_of({"character": CARD_ID}),
        "attack": fields_of({"attacker": CARD_ID}, {"fortress": SEAT_NUMBER, "character": CARD_ID}),
        "done_attacking": fields_of(),
        "assign_defender": fields_of({"character": CARD_ID}),
        "add_shield": fields_of({"cards": {"type": "array", "items": CARD_ID, "minItems": 1}}),
        "done_defending": fields_of(),
    }


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state.attack is not None:
        return legal_defense(state, seat)
    if state.declaring:
        return legal_joins(state, seat)
    return legal_turn_moves(state, seat) + legal_attacks(state, seat)


def not_your_turn(state: State, seat: int) -> str:
    if state.attack is not None:
        waiting = f"seat {state.attack.target_seat} to answer the attack"
    elif state.declaring:
        waiting = f"seat {state.active} to declare attackers"
    else:
        waiting = f"seat {state.active} to move"
    return f"It is not your turn: waiting for {waiting}."


def move(state: State, seat: int, kind: str) -> Move:
    if state.attack is not None:
        defense = DEFENSE_MOVES.get(kind)
        if defense is None:
            raise IllegalAction("You are answering an attack: assign a defender, add a shield or finish defending.")
        return defense
    if state.declaring:
        joining = CHARGE_MOVES.get(kind)
        if joining is None:
            raise IllegalAction("You are declaring attackers: add another attacker or finish declaring.")
        return joining
    if kind == "attack":
        return decide_attack
    turn_move = TURN_MOVES.get(kind)
    if turn_move is None:
        raise IllegalAction(f"There is no move called {kind!r} in Fortress.")
    return turn_move


def after_move(state: State, events: list[GameEvent]) -> list[GameEvent]:
    """The turn passes after the third move, or at once if the mover is out."""
    if state.over or state.attack is not None or state.charge:
        return []
    if state.moves_left > 0 and state.players[state.active].in_game:
        return []
    following = next_seat_where(state.active, len(state.players), lambda seat: state.players[seat].in_game)
    return [] if following is None else [event("TurnPassed", following)]


# -- the end ----------------------------------------------------------------


def is_over(state: State) -> bool:
    return bool(state.over)


def outcome(state: State) -> dict[str, JSON] | None:
    if not state.over:
        return None
    winners = state.in_game
    scores = [len(player.fortress) for player in state.players]
    return outcome_of(winners, scores, f"Only seat {winners[0]}'s Fortress still stands.")
