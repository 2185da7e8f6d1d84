"""What a seat may see and believe of a Fortress table: its view (``view``), the events of
the feed as it may read them (``redact``: the Fortress orders and the card another seat drew
stay hidden), the cards hidden from it (``secrets``: every Fortress above its Tombstone, the
other hands, the Winds of Fate cards set aside), a re-deal of those cards consistent with
what it has seen (``determinize``, for the bots and forks), and the cards a game dealt or an
action played, by the name a player knows them by (``card_names``, ``action_cards``, for the
per-card table of ``bench.balance``).
"""

from __future__ import annotations

import random
from typing import Any

from games.base import JSON, Action, GameEvent, replace, shuffled_hidden
from games.fortress_siege.cards import ANGEL, BARRAGE, CHARACTER, FACTS
from games.fortress_siege.rules import outcome, to_act
from games.fortress_siege.state import Attack, Character, Player, State
from games.viewschema import BOOLEAN, INTEGER, OUTCOME, SEAT, STRING, Schema, array, choice, described, nullable, record

# -- what each seat sees -------------------------------------------------


def view(state: State, seat: int | None) -> dict[str, JSON]:
    attack = state.attack
    return {
        "phase": "over" if state.over else ("defending" if attack else "declaring" if state.declaring else "turn"),
        "active": state.active,
        "first": state.first,
        "moves_left": state.moves_left,
        "to_act": sorted(to_act(state)),
        "you": seat,
        "winds_of_fate": state.winds_of_fate,
        "fixed_deal": state.fixed_deal,
        "set_aside": len(state.set_aside),
        "players": [_player_view(player, index, seat) for index, player in enumerate(state.players)],
        "attack": None if attack is None else _attack_view(attack),
        "charge": [_attack_view(declared) for declared in (*state.answered, *state.charge)],
        "outcome": outcome(state),
    }


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


def redact(event: GameEvent, seat: int | None) -> GameEvent:
    if event.type == "GameStarted":
        data = dict(event.data)
        data["fortress_sizes"] = [len(cards) for cards in data.pop("fortresses")]
        data["set_aside"] = len(data["set_aside"])
        return GameEvent(event.type, data, event.seat)
    if event.type == "CardDrawn" and event.seat != seat:
        return GameEvent(event.type, {"seat": event.data["seat"]}, event.seat)
    return event


# -- what each seat may believe ----------------------------------------------------


def secrets(state: State, seat: int | None) -> frozenset[str]:
    hidden = set(state.set_aside)
    for index, player in enumerate(state.players):
        hidden.update(player.fortress[:-1])
        if index != seat:
            hidden.update(player.hand)
    return frozenset(hidden - {player.tombstone for player in state.players})


def determinize(state: State, seat: int, rng: random.Random) -> State:
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


def card_names(state: State) -> tuple[str, ...]:
    """Every kind of card dealt: the numbers by value, each character, each Angel, the
    Barrage (in Winds of Fate an Ace is either Angel, so one name)."""
    dealt = {card for player in state.players for card in (*player.fortress, *player.hand, *player.graveyard)}
    dealt.update(c for player in state.players for character in player.battlefield for c in character.cards())
    return tuple(sorted({card_name(state, card) for card in dealt}))


def action_cards(state: State, seat: int, action: Action) -> tuple[str, ...]:
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


# -- the shape of a view, for the contract (games.viewschema) --------------

_ATTACK = record(
    {
        "seat": described(SEAT, "The attacking seat."),
        "attacker": described(STRING, "The attacking character."),
        "target_seat": SEAT,
        "target": described(nullable(STRING), "The character attacked; null for the Fortress."),
        "power": INTEGER,
        "defenders": array(STRING),
        "shields": described(array(array(STRING)), "The cards each shield spent."),
    }
)


def view_schema() -> Schema:
    """The shape of what ``view`` and ``final_view`` return."""
    return record(
        {
            "phase": choice("turn", "declaring", "defending", "over"),
            "active": described(INTEGER, "The seat whose turn it is (-1 before the first)."),
            "first": INTEGER,
            "moves_left": INTEGER,
            "to_act": array(SEAT),
            "you": described(nullable(SEAT), "The seat this view is for; null for a spectator."),
            "winds_of_fate": BOOLEAN,
            "fixed_deal": BOOLEAN,
            "set_aside": described(INTEGER, "Winds of Fate cards set aside, face down."),
            "players": array(
                record(
                    {
                        "seat": SEAT,
                        "in_game": BOOLEAN,
                        "fortress": described(INTEGER, "Cards left in the seat's Fortress."),
                        "tombstone": described(STRING, "The Fortress's bottom card, face up."),
                        "hand_size": INTEGER,
                        "battlefield": array(
                            record(
                                {
                                    "card": STRING,
                                    "armor": nullable(STRING),
                                    "armor_left": INTEGER,
                                    "weapon": nullable(STRING),
                                    "power": INTEGER,
                                }
                            )
                        ),
                        "graveyard": array(STRING),
                        "hand": described(array(STRING), "Only in the seat's own view."),
                    },
                    optional=["hand"],
                )
            ),
            "attack": described(nullable(_ATTACK), "The attack being answered."),
            "charge": described(array(_ATTACK), "A charge's attacks: answered, then declared."),
            "outcome": nullable(OUTCOME),
        }
    )
