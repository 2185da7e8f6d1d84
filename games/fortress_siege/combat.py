"""Attacks: declaring them, the defender's out-of-turn answer, and the resolution.

Under rules 2 one attack move may send several characters ("declare a target for each
attacking character"): the attacker adds them one at a time and ends with
``done_attacking`` (or the declaration ends when no other could join). The defender
builds each answer one choice at a time (``assign_defender``, ``add_shield``) and ends
it with ``done_defending``; the next attack of the move is answered next. Then each
attack resolves, in the order declared, in the rulebook's order of combat:

1. shields block up to their value each;
2. Bladed Shields strike back at the attacker: if its armor is depleted it dies
   with its cards and the attack ends;
3. what power is left meets the defenders in the order they were declared; a
   defender whose armor is depleted dies and passes on the rest;
4. what still remains against a character hits its armor (any excess is lost);
5. the discards: dead characters with their cards (as each dies), then the
   shields and the attacker's weapon;
6. what still remains against a Fortress discards its top card per point.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from games.base import Action, GameEvent, IllegalAction, Move
from games.fortress_siege.cards import CHARACTER, FACTS, FORTRESS, NUMBER, SHIELD_SIZES
from games.fortress_siege.evolve import EVOLVE
from games.fortress_siege.state import Attack, Character, State
from games.fortress_siege.turn import defeat, event, need_fields, need_own_character, need_seat_in_game


def _can_attack(character: Character) -> bool:
    return character.armor is not None and character.weapon is not None


def legal_attacks(state: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    armed = [character for character in state.players[seat].battlefield if _can_attack(character)]
    if not armed:
        return actions
    opponents = [other for other in state.in_game if other != seat]
    declared = {attack.attacker for attack in state.charge}
    for character in armed:
        if character.card in declared:
            continue
        reach = FACTS[character.card].attacks
        if FORTRESS in reach:
            actions += [{"type": "attack", "attacker": character.card, "fortress": other} for other in opponents]
        if CHARACTER in reach:
            actions += [
                {"type": "attack", "attacker": character.card, "character": target.card}
                for other in opponents
                for target in state.players[other].battlefield
                if target.armor is not None
            ]
    return actions


def decide_attack(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    """An attack move. Under rules 2 it opens a declaration the player's other armed
    characters may join ("declare a target for each attacking character"), when any can."""
    declared = _declared(state, seat, action)
    if not state.several_attackers:
        return [declared]
    declaring = GameEvent(declared.type, {**declared.data, "declaring": True}, seat)
    others_may_join = bool(legal_attacks(EVOLVE[declaring.type](state, declaring), seat))
    return [declaring if others_may_join else declared]


def legal_joins(state: State, seat: int) -> list[Action]:
    """While declaring (rules 2): another armed character's attack, or the end of declaring."""
    return [*legal_attacks(state, seat), {"type": "done_attacking"}]


def decide_join(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    """Another attacker joins the attack move being declared; costs no move. Once no other
    character could join, the declaration ends by itself."""
    if isinstance(action.get("attacker"), str) and any(a.attacker == action["attacker"] for a in state.charge):
        raise IllegalAction("That character is already attacking in this move.")
    declared = _declared(state, seat, action)
    joined = GameEvent(declared.type, {**declared.data, "joins": True}, seat)
    if legal_attacks(EVOLVE[joined.type](state, joined), seat):
        return [joined]
    return [joined, event("AttackersDeclared", seat)]


def decide_done_attacking(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action)
    return [event("AttackersDeclared", seat)]


def _declared(state: State, seat: int, action: Mapping[str, Any]) -> GameEvent:
    """The ``AttackDeclared`` of one attacker and its target, checked."""
    if "fortress" in action and "character" not in action:
        need_fields(action, "attacker", "fortress")
    else:
        need_fields(action, "attacker", "character")
    attacker = need_own_character(state.players[seat], action["attacker"])
    if not _can_attack(attacker):
        raise IllegalAction("A character attacks only when it is armored and equipped with a weapon.")
    reach = FACTS[attacker.card].attacks
    if "fortress" in action:
        if FORTRESS not in reach:
            raise IllegalAction("A Jack can only attack an opponent's characters.")
        target_seat = need_seat_in_game(state, action["fortress"])
        if target_seat == seat:
            raise IllegalAction("You can only attack an opponent's Fortress.")
        target = None
    else:
        if CHARACTER not in reach:
            raise IllegalAction("A Queen can only attack an opponent's Fortress.")
        target = action["character"]
        found = [
            (other, player.character(target))
            for other, player in enumerate(state.players)
            if other != seat and player.in_game and isinstance(target, str) and player.character(target)
        ]
        if not found:
            raise IllegalAction(f"{target!r} is not a character of an opponent.")
        target_seat, victim = found[0]
        assert victim is not None
        if victim.armor is None:
            raise IllegalAction("A character cannot be attacked unless it is armored.")
    return event(
        "AttackDeclared",
        seat,
        attacker=attacker.card,
        target_seat=target_seat,
        target=target,
        power=attacker.power,
    )


def _guards(state: State, attack: Attack, card: str) -> bool:
    """May ``card`` (of the attacked player) be declared a defender of this attack?"""
    character = state.players[attack.target_seat].character(card)
    if character is None or character.armor is None:
        return False
    if card == attack.target or card in attack.defenders:
        return False
    return (CHARACTER if attack.target else FORTRESS) in FACTS[card].guards


def _shields_in(hand: tuple[str, ...]) -> list[list[str]]:
    """Every pair and three of a kind of numbered cards in ``hand``, in hand order."""
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        if FACTS[card].kind == NUMBER:
            by_rank.setdefault(FACTS[card].rank, []).append(card)
    out: list[list[str]] = []
    for cards in by_rank.values():
        for size in SHIELD_SIZES:
            out += [list(combo) for combo in combinations(cards, size)]
    return out


def legal_defense(state: State, seat: int) -> list[Action]:
    attack = state.attack
    assert attack is not None
    player = state.players[seat]
    actions: list[Action] = [
        {"type": "assign_defender", "character": character.card}
        for character in player.battlefield
        if _guards(state, attack, character.card)
    ]
    actions += [{"type": "add_shield", "cards": cards} for cards in _shields_in(player.hand)]
    actions.append({"type": "done_defending"})
    return actions


def decide_assign_defender(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "character")
    attack = state.attack
    assert attack is not None
    character = need_own_character(state.players[seat], action["character"])
    if character.armor is None:
        raise IllegalAction("A character must be armored in order to defend an attack.")
    if character.card == attack.target:
        raise IllegalAction("The attacked character already takes the blow; it needs no declaring.")
    if character.card in attack.defenders:
        raise IllegalAction("That character is already defending this attack.")
    if not _guards(state, attack, character.card):
        if attack.target:
            raise IllegalAction("A Queen can only block attacks to a Fortress.")
        raise IllegalAction("A Jack can only block attacks to characters.")
    return [event("DefenderAssigned", seat, character=character.card)]


def decide_add_shield(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    need_fields(action, "cards")
    cards = action["cards"]
    hand = state.players[seat].hand
    shields = _shields_in(hand)
    if cards not in shields:
        in_hand_order = [card for card in hand if isinstance(cards, list) and card in cards]
        if isinstance(cards, list) and len(cards) == len(in_hand_order) and in_hand_order in shields:
            raise IllegalAction("List the shield's cards in the order they are in your hand.")
        raise IllegalAction("A shield is a pair or three of a kind of numbered cards from your hand.")
    return [event("ShieldRaised", seat, cards=list(cards))]


def decide_done_defending(state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> list[GameEvent]:
    """The answer is complete. Under rules 2 the next attack of the same move is answered
    next; once all are, they resolve one after another in the order declared."""
    need_fields(action)
    if state.charge:
        return [event("AttackAnswered", seat)]
    assert state.attack is not None
    events: list[GameEvent] = []
    for attack in (*state.answered, state.attack):
        events += resolve(_fold(state, events), attack)
    return events


def _fold(state: State, events: list[GameEvent]) -> State:
    for one in events:
        state = EVOLVE[one.type](state, one)
    return state


def _hit(seat: int, character: Character, power: int) -> tuple[list[GameEvent], int]:
    """``power`` meets ``character``'s armor: the events and the power that goes on."""
    left = character.armor_left
    if power < left:
        return [event("CharacterWounded", seat, character=character.card, damage=power)], 0
    return [
        event("CharacterWounded", seat, character=character.card, damage=left),
        event("CharacterSlain", seat, character=character.card, cards=character.cards()),
    ], power - left


def resolve(state: State, attack: Attack) -> list[GameEvent]:
    """One attack, in the order of combat. Under rules 2 an earlier attack of the same move
    may have killed a defender (it is passed over) or the target (what reaches it is lost)."""
    attacker = state.players[attack.seat].character(attack.attacker)
    assert attacker is not None
    defending = state.players[attack.target_seat]
    blocked = sum(FACTS[shield[0]].value for shield in attack.shields)
    counter = sum(FACTS[shield[0]].value for shield in attack.shields if SHIELD_SIZES[len(shield)])
    power = max(0, attack.power - blocked)
    events: list[GameEvent] = []
    attacker_slain = False
    if counter:
        events.append(event("AttackerCountered", attack.seat, character=attacker.card, damage=counter))
        if counter >= attacker.armor_left:
            attacker_slain = True
            events.append(event("CharacterSlain", attack.seat, character=attacker.card, cards=attacker.cards()))
    absorbed = 0
    if attacker_slain:
        power = 0
    else:
        for card in attack.defenders:
            if not power:
                break
            defender = defending.character(card)
            if defender is None:
                continue
            hits, rest = _hit(attack.target_seat, defender, power)
            events += hits
            absorbed += power - rest
            power = rest
        if power and attack.target is not None:
            victim = defending.character(attack.target)
            if victim is None:
                power = 0
            else:
                hits, _ = _hit(attack.target_seat, victim, power)
                events += hits
    if attack.shields:
        events.append(
            event("ShieldsDiscarded", attack.target_seat, cards=[c for shield in attack.shields for c in shield])
        )
    if not attacker_slain:
        events.append(event("WeaponSpent", attack.seat, character=attacker.card, card=attacker.weapon))
    breach = 0
    if power and attack.target is None and defending.fortress:
        cards = list(defending.fortress[:power])
        breach = len(cards)
        events.append(event("FortressBreached", attack.target_seat, target_seat=attack.target_seat, cards=cards))
    events.append(
        event(
            "AttackResolved",
            attack.seat,
            attacker=attacker.card,
            target_seat=attack.target_seat,
            target=attack.target,
            power=attack.power,
            blocked=min(blocked, attack.power),
            counterattack=counter,
            attacker_slain=attacker_slain,
            absorbed_by_defenders=absorbed,
            reached_target=power,
        )
    )
    if breach and breach == len(defending.fortress):
        after = _fold(state, events)
        events.append(defeat(after.players[attack.target_seat], attack.target_seat))
    return events


CHARGE_MOVES: dict[str, Move] = {
    "attack": decide_join,
    "done_attacking": decide_done_attacking,
}

DEFENSE_MOVES: dict[str, Move] = {
    "assign_defender": decide_assign_defender,
    "add_shield": decide_add_shield,
    "done_defending": decide_done_defending,
}
