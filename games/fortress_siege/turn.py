"""The moves of the player whose turn it is, except attacking (see ``combat``).

Each move has a legal-action enumerator and a decide case; both read the same
small predicates so they cannot drift apart.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import Action, GameEvent, IllegalAction, Move
from games.fortress_siege.cards import (
    ANGEL,
    BARRAGE,
    BARRAGE_CARDS,
    CHARACTER,
    FACTS,
    HAND_LIMIT,
    NUMBER,
)
from games.fortress_siege.evolve import EVOLVE
from games.fortress_siege.state import Character, Player, State, owner_of_character


def event(kind: str, seat: int, **data: Any) -> GameEvent:
    return GameEvent(kind, {"seat": seat, **data}, seat)


def need_fields(action: Mapping[str, Any], *names: str) -> None:
    expected = {"type", *names}
    if set(action) != expected:
        listed = ", ".join(f"'{name}'" for name in names) or "no other fields"
        raise IllegalAction(f"A '{action['type']}' action takes {listed}.")


def need_card_in_hand(player: Player, card: Any) -> str:
    if not isinstance(card, str) or card not in player.hand:
        raise IllegalAction(f"{card!r} is not a card in your hand.")
    return card


def need_own_character(player: Player, card: Any) -> Character:
    character = player.character(card) if isinstance(card, str) else None
    if character is None:
        raise IllegalAction(f"{card!r} is not a character on your battlefield.")
    return character


def need_seat_in_game(state: State, seat: Any) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state.players):
        raise IllegalAction(f"{seat!r} is not a seat at this table.")
    if not state.players[seat].in_game:
        raise IllegalAction(f"Seat {seat} is already out of the game.")
    return seat


def angel_kinds(state: State, card: str) -> tuple[str, ...]:
    """Which Angels an Ace may be played as: by colour, either in Winds of Fate."""
    facts = FACTS[card]
    if facts.kind != ANGEL:
        return ()
    return ("life", "death") if state.winds_of_fate else (str(facts.angel),)


def revivable(state: State) -> list[tuple[int, str]]:
    """Characters in the Graveyards of players still in the game, with the Graveyard's seat."""
    return [
        (seat, card)
        for seat, player in enumerate(state.players)
        if player.in_game
        for card in player.graveyard
        if FACTS[card].kind == CHARACTER
    ]


def legal_turn_moves(state: State, seat: int) -> list[Action]:
    """Every move but an attack (``combat.legal_attacks`` lists those)."""
    player = state.players[seat]
    hand = player.hand
    kinds = [FACTS[card].kind for card in hand]
    actions: list[Action] = []
    if len(hand) < HAND_LIMIT and player.fortress:
        actions.append({"type": "draw"})
    numbers = [card for card, kind in zip(hand, kinds, strict=True) if kind == NUMBER]
    actions += [{"type": "deploy", "card": card} for card, kind in zip(hand, kinds, strict=True) if kind == CHARACTER]
    for character in player.battlefield:
        if character.armor is None:
            actions += [{"type": "armor", "card": card, "character": character.card} for card in numbers]
        elif character.weapon is None:
            actions += [{"type": "equip", "card": card, "character": character.card} for card in numbers]
    if BARRAGE in kinds or ANGEL in kinds:
        actions += _direct_actions(state, hand, kinds)
    actions += [{"type": "discard", "card": card} for card in hand]
    actions += [{"type": "discard_character", "character": c.card} for c in player.battlefield]
    return actions


def _direct_actions(state: State, hand: tuple[str, ...], kinds: list[str]) -> list[Action]:
    """The Barrages and Angels ``hand`` may play (``kinds``: each card's kind), in hand order."""
    actions: list[Action] = []
    targets_alive = state.in_game
    revived: list[tuple[int, str]] | None = None
    for card, kind in zip(hand, kinds, strict=True):
        if kind == BARRAGE:
            actions += [{"type": "barrage", "card": card, "fortress": target} for target in targets_alive]
        elif kind == ANGEL:
            angels = angel_kinds(state, card)
            if "life" in angels:
                if revived is None:
                    revived = revivable(state)
                actions += [{"type": "angel_of_life", "card": card, "character": character} for _, character in revived]
            if "death" in angels:
                actions += [
                    {"type": "angel_of_death", "card": card, "character": character.card}
                    for target in targets_alive
                    for character in state.players[target].battlefield
                ]
    return actions


def decide_draw(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action)
    player = state.players[seat]
    if len(player.hand) >= HAND_LIMIT:
        raise IllegalAction(f"You may not draw while holding {HAND_LIMIT} cards.")
    card = player.fortress[0]
    if len(player.fortress) == 1:
        return [
            event("TombstoneDrawn", seat, card=card),
            defeat(state.players[seat], seat, extra=[card]),
        ]
    return [event("CardDrawn", seat, card=card)]


def decide_deploy(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "card")
    card = need_card_in_hand(state.players[seat], action["card"])
    if FACTS[card].kind != CHARACTER:
        raise IllegalAction("Only a Jack, Queen or King can be deployed to the Battlefield.")
    return [event("CharacterDeployed", seat, card=card)]


def _need_number(player: Player, card: Any, use: str) -> str:
    number = need_card_in_hand(player, card)
    if FACTS[number].kind != NUMBER:
        raise IllegalAction(f"Only a numbered card (2 to 10) can be used as {use}.")
    return number


def decide_armor(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "card", "character")
    player = state.players[seat]
    card = _need_number(player, action["card"], "armor")
    character = need_own_character(player, action["character"])
    if character.armor is not None:
        raise IllegalAction("That character already wears armor; only one armor card at a time.")
    return [event("ArmorFitted", seat, card=card, character=character.card)]


def decide_equip(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "card", "character")
    player = state.players[seat]
    card = _need_number(player, action["card"], "a weapon")
    character = need_own_character(player, action["character"])
    if character.armor is None:
        raise IllegalAction("A character must be armored before it can be equipped with a weapon.")
    if character.weapon is not None:
        raise IllegalAction("That character already carries a weapon; only one at a time.")
    return [event("WeaponFitted", seat, card=card, character=character.card)]


def decide_discard(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "card")
    card = need_card_in_hand(state.players[seat], action["card"])
    return [event("CardDiscarded", seat, card=card)]


def decide_discard_character(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "character")
    character = need_own_character(state.players[seat], action["character"])
    return [event("CharacterDismissed", seat, character=character.card, cards=character.cards())]


def decide_barrage(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "card", "fortress")
    card = need_card_in_hand(state.players[seat], action["card"])
    if FACTS[card].kind != BARRAGE:
        raise IllegalAction("Only a Joker can be played as a Barrage.")
    target = need_seat_in_game(state, action["fortress"])
    fortress = state.players[target].fortress
    hit = list(fortress[:BARRAGE_CARDS])
    fired = event("BarrageFired", seat, card=card, target_seat=target, cards=hit)
    if len(hit) < len(fortress):
        return [fired]
    after = EVOLVE[fired.type](state, fired)
    return [fired, defeat(after.players[target], target)]


def _need_angel(state: State, seat: int, card: Any, kind: str) -> str:
    ace = need_card_in_hand(state.players[seat], card)
    if kind not in angel_kinds(state, ace):
        colour = "red" if kind == "life" else "black"
        rule = "an Ace" if state.winds_of_fate else f"a {colour} Ace"
        raise IllegalAction(f"Only {rule} can be played as an Angel of {kind.capitalize()}.")
    return ace


def decide_angel_of_life(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "card", "character")
    card = _need_angel(state, seat, action["card"], "life")
    wanted = action["character"]
    for owner, character in revivable(state):
        if character == wanted:
            return [event("AngelOfLifePlayed", seat, card=card, character=character, owner=owner)]
    raise IllegalAction(f"{wanted!r} is not a character card in the Graveyard of a player still in the game.")


def decide_angel_of_death(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "card", "character")
    card = _need_angel(state, seat, action["card"], "death")
    wanted = action["character"]
    owner = owner_of_character(state, wanted) if isinstance(wanted, str) else None
    if owner is None:
        raise IllegalAction(f"{wanted!r} is not a character on any battlefield.")
    character = state.players[owner].character(wanted)
    assert character is not None
    return [
        event("AngelOfDeathPlayed", seat, card=card, character=wanted, owner=owner),
        event("CharacterSlain", owner, character=wanted, cards=character.cards()),
    ]


def defeat(player: Player, seat: int, extra: list[str] | None = None) -> GameEvent:
    """The player is out: their hand and battlefield go face up to their Graveyard."""
    cards = list(player.hand) + (extra or [])
    for character in player.battlefield:
        cards += character.cards()
    return event("PlayerDefeated", seat, cards=cards)


TURN_MOVES: dict[str, Move] = {
    "draw": decide_draw,
    "deploy": decide_deploy,
    "armor": decide_armor,
    "equip": decide_equip,
    "discard": decide_discard,
    "discard_character": decide_discard_character,
    "barrage": decide_barrage,
    "angel_of_life": decide_angel_of_life,
    "angel_of_death": decide_angel_of_death,
}
