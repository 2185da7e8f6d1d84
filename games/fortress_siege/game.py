"""Fortress v1.1 (Carl and Arne Bystrom) on the decider contract.

Each player's shuffled 54-card deck is both their draw pile and their Fortress;
its bottom card, the Tombstone, is shown to all at the start and the highest one
plays first. A turn is exactly three moves. An attack waits for the attacked
player's out-of-turn answer (defenders and shields, one choice at a time), then
resolves in the rulebook's order of combat. A player is out when their
Tombstone is drawn or discarded; the last Fortress standing wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import (
    CARD_ID,
    JSON,
    SEAT_NUMBER,
    Action,
    GameBase,
    GameEvent,
    IllegalAction,
    Move,
    Option,
    fields_of,
    next_seat_where,
    outcome_of,
    replace,
    rules_of,
    shuffled_hidden,
)
from games.fortress_siege import faces
from games.fortress_siege.cards import (
    ANGEL,
    BARRAGE,
    CHARACTER,
    DECK_SIZE,
    FACTS,
    MAX_PLAYERS,
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
from games.fortress_siege.state import EVOLVE, Attack, Character, Player, State
from games.fortress_siege.turn import TURN_MOVES, event, legal_turn_moves

REVEALING_EVENTS = frozenset(
    {
        "GameStarted",
        "FirstPlayerChosen",
        "CardDrawn",
        "TombstoneDrawn",
        "BarrageFired",
        "FortressBreached",
        # A card played from hand is seen by everyone: taking it back would not unsee it.
        "CharacterDeployed",
        "ArmorFitted",
        "WeaponFitted",
        "CardDiscarded",
        "AngelOfLifePlayed",
        "AngelOfDeathPlayed",
        "ShieldRaised",
        "PlayerDefeated",
    }
)


def shared_decks(players: int) -> int:
    """Winds of Fate: one deck per two players, rounded up."""
    return -(-players // PLAYERS_PER_SHARED_DECK)


def all_cards(players: int, winds_of_fate: bool) -> list[str]:
    decks = shared_decks(players) if winds_of_fate else players
    return [card for deck in range(decks) for card in deck_ids(deck)]


def fortress_size(players: int, winds_of_fate: bool) -> int:
    return len(all_cards(players, winds_of_fate)) // players if winds_of_fate else DECK_SIZE


class FortressSiege(GameBase):
    key = "fortress-siege"
    title = "Fortress"
    summary = (
        "Each player's own 54-card deck is both their draw pile and their Fortress. Deploy Jacks, "
        "Queens and Kings, armor and arm them with number cards, block with pairs and trios, and "
        "batter the other Fortresses down to their Tombstones: the last Fortress standing wins."
    )
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    rules_revision = 2
    """Revision 2: "The attacking player must declare a target for each attacking
    character": one attack move sends every armed character its player declares."""
    options: tuple[Option, ...] = (
        Option(
            "one_attacker_per_move",
            "boolean",
            False,
            "Our first reading: each attacking character is an attack move of its own, answered "
            "and resolved before the next. By default one attack move sends any number of armed "
            "characters, each with its own target, answered together and resolved in order.",
        ),
        Option(
            "winds_of_fate",
            "boolean",
            False,
            "Winds of Fate: one deck per two players, shuffled together and dealt equally; "
            "any Ace may be played as either Angel.",
        ),
        Option(
            "decks",
            "array",
            None,
            "Explicit Fortress orders for tutorials and tests: one list of card ids per seat, "
            "top card first, Tombstone last.",
            nullable=True,
        ),
    )
    irreversible_types = REVEALING_EVENTS
    unfair_options = ("decks",)
    evolvers = EVOLVE

    # -- options and setup -------------------------------------------------

    def check_options(self, options: Mapping[str, JSON], players: int) -> list[str]:
        decks = options.get("decks")
        if decks is None or not MIN_PLAYERS <= players <= MAX_PLAYERS:
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

    def setup(self, options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
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
        first = tied[0] if len(tied) == 1 else rng.choice(tied)
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
            GameEvent("FirstPlayerChosen", {"seat": first, "tied": tied}, first),
        ]

    # -- folding and deciding ------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        if state.over:
            return frozenset()
        if state.attack is not None:
            return frozenset((state.attack.target_seat,))
        return frozenset((state.active,))

    def action_schemas(self) -> dict[str, dict[str, JSON]]:
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

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.attack is not None:
            return legal_defense(state, seat)
        if state.declaring:
            return legal_joins(state, seat)
        return legal_turn_moves(state, seat) + legal_attacks(state, seat)

    def is_over(self, state: State) -> bool:
        return bool(state.over)

    def not_your_turn(self, state: State, seat: int) -> str:
        if state.attack is not None:
            waiting = f"seat {state.attack.target_seat} to answer the attack"
        elif state.declaring:
            waiting = f"seat {state.active} to declare attackers"
        else:
            waiting = f"seat {state.active} to move"
        return f"It is not your turn: waiting for {waiting}."

    def move(self, state: State, seat: int, kind: str) -> Move:
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

    def after_move(self, state: State, events: list[GameEvent]) -> list[GameEvent]:
        """The turn passes after the third move, or at once if the mover is out."""
        if state.over or state.attack is not None or state.charge:
            return []
        if state.moves_left > 0 and state.players[state.active].in_game:
            return []
        following = next_seat_where(state.active, len(state.players), lambda seat: state.players[seat].in_game)
        return [] if following is None else [event("TurnPassed", following)]

    # -- what each seat sees -------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        attack = state.attack
        return {
            "phase": "over" if state.over else ("defending" if attack else "declaring" if state.declaring else "turn"),
            "active": state.active,
            "first": state.first,
            "moves_left": state.moves_left,
            "to_act": sorted(self.to_act(state)),
            "you": seat,
            "winds_of_fate": state.winds_of_fate,
            "fixed_deal": state.fixed_deal,
            "set_aside": len(state.set_aside),
            "players": [_player_view(player, index, seat) for index, player in enumerate(state.players)],
            "attack": None if attack is None else _attack_view(attack),
            "charge": [_attack_view(declared) for declared in (*state.answered, *state.charge)],
            "outcome": self.outcome(state),
        }

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        if event.type == "GameStarted":
            data = dict(event.data)
            data["fortress_sizes"] = [len(cards) for cards in data.pop("fortresses")]
            data["set_aside"] = len(data["set_aside"])
            return GameEvent(event.type, data, event.seat)
        if event.type == "CardDrawn" and event.seat != seat:
            return GameEvent(event.type, {"seat": event.data["seat"]}, event.seat)
        return event

    def secrets(self, state: State, seat: int | None) -> frozenset[str]:
        hidden = set(state.set_aside)
        for index, player in enumerate(state.players):
            hidden.update(player.fortress[:-1])
            if index != seat:
                hidden.update(player.hand)
        return frozenset(hidden - {player.tombstone for player in state.players})

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """Re-deal what ``seat`` cannot see: the Fortresses above their Tombstones and
        the other hands (plus any Winds of Fate cards set aside). In the standard
        game each deck stays with its owner, so each is re-dealt on its own; in
        Winds of Fate every hidden card may be anywhere."""
        players = list(state.players)
        groups = [[index] for index in range(len(players))] if not state.winds_of_fate else [list(range(len(players)))]
        set_aside = state.set_aside
        for group in groups:
            pool: list[str] = []
            for index in group:
                player = players[index]
                pool += player.fortress[:-1]
                if index != seat:
                    pool += player.hand
            if state.winds_of_fate:
                pool += set_aside
            pool = shuffled_hidden(pool, rng)
            for index in group:
                player = players[index]
                above = len(player.fortress) - 1 if player.fortress else 0
                fortress = tuple(pool[:above]) + player.fortress[above:]
                pool = pool[above:]
                hand = player.hand
                if index != seat:
                    hand, pool = tuple(pool[: len(hand)]), pool[len(hand) :]
                players[index] = replace(player, fortress=fortress, hand=hand)
            if state.winds_of_fate:
                set_aside = tuple(pool)
        return replace(state, players=tuple(players), set_aside=set_aside)

    # -- the cards, for the per-card table of bench.balance ---------------------------

    def card_names(self, state: State) -> tuple[str, ...]:
        """Every kind of card dealt: the numbers by value, each character, each Angel, the
        Barrage (in Winds of Fate an Ace is either Angel, so one name)."""
        dealt = {card for player in state.players for card in (*player.fortress, *player.hand, *player.graveyard)}
        dealt.update(c for player in state.players for character in player.battlefield for c in character.cards())
        return tuple(sorted({card_name(state, card) for card in dealt}))

    def action_cards(self, state: State, seat: int, action: Action) -> tuple[str, ...]:
        """The card an action plays from hand (deployed, fitted, fired, raised as a shield) or
        the character whose ability it uses (attacking, defending). A draw or a discard uses
        no card's ability: any card may be discarded."""
        kind = action.get("type")
        if kind in ("deploy", "armor", "equip", "barrage", "angel_of_life", "angel_of_death"):
            return (card_name(state, str(action["card"])),)
        if kind == "attack" or kind == "assign_defender":
            return (card_name(state, str(action.get("attacker", action.get("character")))),)
        if kind == "add_shield":
            return tuple(dict.fromkeys(card_name(state, str(card)) for card in action["cards"]))
        return ()

    def card_faces(self) -> dict[str, dict[str, JSON]]:
        """Every card by its code without the deck number (``faces.py``, from ``cards.json``)."""
        return faces.card_faces()

    # -- the end ----------------------------------------------------------------

    def outcome(self, state: State) -> dict[str, JSON] | None:
        if not state.over:
            return None
        winners = state.in_game
        scores = [len(player.fortress) for player in state.players]
        return outcome_of(winners, scores, f"Only seat {winners[0]}'s Fortress still stands.")

    def evaluate(self, state: State, seat: int) -> float:
        """Share of the table's strength: Fortress cards, hand, and armed characters."""
        if state.over:
            return 1.0 if state.players[seat].in_game else 0.0
        strengths = [_strength(player) for player in state.players]
        total = sum(strengths)
        return strengths[seat] / total if total else 0.5


def _strength(player: Player) -> float:
    if not player.in_game:
        return 0.0
    field = sum(3.0 + 0.4 * character.armor_left + 0.4 * character.power for character in player.battlefield)
    return len(player.fortress) + 0.5 * len(player.hand) + field


def card_name(state: State, card: str) -> str:
    """The name of a card's kind, for the per-card table."""
    facts = FACTS[card]
    if facts.kind == CHARACTER:
        return {"J": "Jack", "Q": "Queen", "K": "King"}[facts.rank]
    if facts.kind == ANGEL:
        return "Ace (either Angel)" if state.winds_of_fate else f"Ace (Angel of {str(facts.angel).capitalize()})"
    if facts.kind == BARRAGE:
        return "Joker (Barrage)"
    return str(facts.value)


def _attack_view(attack: Attack) -> dict[str, JSON]:
    return {
        "seat": attack.seat,
        "attacker": attack.attacker,
        "target_seat": attack.target_seat,
        "target": attack.target,
        "power": attack.power,
        "defenders": list(attack.defenders),
        "shields": [list(shield) for shield in attack.shields],
    }


def _character_view(character: Character) -> dict[str, JSON]:
    return {
        "card": character.card,
        "armor": character.armor,
        "armor_left": character.armor_left,
        "weapon": character.weapon,
        "power": character.power,
    }


def _player_view(player: Player, index: int, seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": index,
        "in_game": player.in_game,
        "fortress": len(player.fortress),
        "tombstone": player.tombstone,
        "hand_size": len(player.hand),
        "battlefield": [_character_view(character) for character in player.battlefield],
        "graveyard": list(player.graveyard),
    }
    if index == seat:
        out["hand"] = list(player.hand)
    return out


GAME = FortressSiege()
