"""How each event changes a game of Fortress: the table ``EVOLVE``, one case per event
type, and those cases with the small helpers they share. A case folds one event into the
state (``state``) and nothing more: it checks no rule and draws no randomness, since the
rules (``rules``, ``turn``, ``combat``) have already written every outcome into the events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.base import Evolver, GameEvent, replace
from games.fortress_siege.cards import MOVES_PER_TURN
from games.fortress_siege.state import Attack, Character, Player, State


def _put(state: State, seat: int, player: Player, **changes: Any) -> State:
    """``player`` in ``seat``'s place, with any other ``changes`` to the state in the same copy."""
    players = list(state.players)
    players[seat] = player
    return replace(state, players=tuple(players), **changes)


def _without(cards: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    gone = set(gone)
    return tuple(card for card in cards if card not in gone)


def _change_character(player: Player, card: str, change: Callable[[Character], Character]) -> Player:
    return replace(
        player,
        battlefield=tuple(change(c) if c.card == card else c for c in player.battlefield),
    )


def _put_spent(state: State, seat: int, player: Player) -> State:
    """``player`` in ``seat``'s place, and a move spent."""
    return _put(state, seat, player, moves_left=state.moves_left - 1)


def _started(_: Any, event: GameEvent) -> State:
    data = event.data
    return State(
        players=tuple(Player(fortress=tuple(cards), tombstone=cards[-1]) for cards in data["fortresses"]),
        winds_of_fate=data["winds_of_fate"],
        fixed_deal=data["fixed_deal"],
        set_aside=tuple(data["set_aside"]),
        several_attackers=data.get("rules", 1) >= 2 and not data["one_attacker_per_move"],
    )


def _first_player(state: State, event: GameEvent) -> State:
    seat = event.data["seat"]
    return replace(state, active=seat, first=seat, moves_left=MOVES_PER_TURN)


def _drawn(state: State, event: GameEvent) -> State:
    seat = event.data["seat"]
    player = state.players[seat]
    player = replace(player, fortress=player.fortress[1:], hand=player.hand + (event.data["card"],))
    return _put_spent(state, seat, player)


def _deployed(state: State, event: GameEvent) -> State:
    seat, card = event.data["seat"], event.data["card"]
    player = state.players[seat]
    player = replace(player, hand=_without(player.hand, [card]), battlefield=player.battlefield + (Character(card),))
    return _put_spent(state, seat, player)


def _fitted(slot: str) -> Evolver:
    """A card from the hand fitted to a character as its ``slot`` (armor or weapon)."""

    def fit(state: State, event: GameEvent) -> State:
        seat, card = event.data["seat"], event.data["card"]
        player = state.players[seat]
        player = replace(player, hand=_without(player.hand, [card]))
        player = _change_character(player, event.data["character"], lambda c: replace(c, **{slot: card}))
        return _put_spent(state, seat, player)

    return fit


def _discarded(state: State, event: GameEvent) -> State:
    seat, card = event.data["seat"], event.data["card"]
    player = state.players[seat]
    player = replace(player, hand=_without(player.hand, [card]), graveyard=player.graveyard + (card,))
    return _put_spent(state, seat, player)


def _dismissed(state: State, event: GameEvent) -> State:
    return _put_spent(state, event.data["seat"], _without_character(state, event))


def _slain(state: State, event: GameEvent) -> State:
    return _put(state, event.data["seat"], _without_character(state, event))


def _without_character(state: State, event: GameEvent) -> Player:
    """The player whose character left the battlefield, its cards in the Graveyard."""
    seat, card = event.data["seat"], event.data["character"]
    player = state.players[seat]
    return replace(
        player,
        battlefield=tuple(c for c in player.battlefield if c.card != card),
        graveyard=player.graveyard + tuple(event.data["cards"]),
    )


def _wounded(state: State, event: GameEvent) -> State:
    seat, damage = event.data["seat"], event.data["damage"]
    player = _change_character(
        state.players[seat], event.data["character"], lambda c: replace(c, wounds=c.wounds + damage)
    )
    return _put(state, seat, player)


def _direct_action(state: State, event: GameEvent) -> State:
    """A Barrage or an Angel leaves the hand for its player's Graveyard."""
    seat, card = event.data["seat"], event.data["card"]
    player = state.players[seat]
    player = replace(player, hand=_without(player.hand, [card]), graveyard=player.graveyard + (card,))
    return _put_spent(state, seat, player)


def _barrage(state: State, event: GameEvent) -> State:
    return _breached(_direct_action(state, event), event)


def _breached(state: State, event: GameEvent) -> State:
    seat, cards = event.data["target_seat"], event.data["cards"]
    player = state.players[seat]
    player = replace(player, fortress=player.fortress[len(cards) :], graveyard=player.graveyard + tuple(cards))
    return _put(state, seat, player)


def _angel_of_life(state: State, event: GameEvent) -> State:
    state = _direct_action(state, event)
    owner, card = event.data["owner"], event.data["character"]
    player = state.players[owner]
    player = replace(
        player,
        graveyard=_without(player.graveyard, [card]),
        battlefield=player.battlefield + (Character(card),),
    )
    return _put(state, owner, player)


def _attack_declared(state: State, event: GameEvent) -> State:
    data = event.data
    attack = Attack(
        seat=data["seat"],
        attacker=data["attacker"],
        target_seat=data["target_seat"],
        target=data["target"],
        power=data["power"],
    )
    if data.get("joins"):
        return replace(state, charge=state.charge + (attack,))
    if data.get("declaring"):
        return replace(state, charge=(attack,), moves_left=state.moves_left - 1)
    return replace(state, attack=attack, moves_left=state.moves_left - 1)


def _attackers_declared(state: State, _: GameEvent) -> State:
    return replace(state, attack=state.charge[0], charge=state.charge[1:])


def _attack_answered(state: State, _: GameEvent) -> State:
    assert state.attack is not None
    return replace(state, answered=state.answered + (state.attack,), attack=state.charge[0], charge=state.charge[1:])


def _defender_assigned(state: State, event: GameEvent) -> State:
    attack = state.attack
    assert attack is not None
    return replace(state, attack=replace(attack, defenders=attack.defenders + (event.data["character"],)))


def _shield_raised(state: State, event: GameEvent) -> State:
    attack = state.attack
    assert attack is not None
    seat, cards = event.data["seat"], tuple(event.data["cards"])
    player = state.players[seat]
    state = _put(state, seat, replace(player, hand=_without(player.hand, cards)))
    return replace(state, attack=replace(attack, shields=attack.shields + (cards,)))


def _weapon_spent(state: State, event: GameEvent) -> State:
    seat, card = event.data["seat"], event.data["card"]
    player = _change_character(state.players[seat], event.data["character"], lambda c: replace(c, weapon=None))
    return _put(state, seat, replace(player, graveyard=player.graveyard + (card,)))


def _shields_discarded(state: State, event: GameEvent) -> State:
    seat = event.data["seat"]
    player = state.players[seat]
    return _put(state, seat, replace(player, graveyard=player.graveyard + tuple(event.data["cards"])))


def _attack_resolved(state: State, _: GameEvent) -> State:
    return replace(state, attack=None, answered=())


def _defeated(state: State, event: GameEvent) -> State:
    seat = event.data["seat"]
    player = state.players[seat]
    player = Player(
        fortress=(),
        tombstone=player.tombstone,
        graveyard=player.graveyard + tuple(event.data["cards"]),
        in_game=False,
    )
    return _put(state, seat, player)


def _turn_passed(state: State, event: GameEvent) -> State:
    return replace(state, active=event.data["seat"], moves_left=MOVES_PER_TURN)


EVOLVE: dict[str, Evolver] = {
    "GameStarted": _started,
    "FirstPlayerChosen": _first_player,
    "CardDrawn": _drawn,
    "TombstoneDrawn": _drawn,
    "CharacterDeployed": _deployed,
    "ArmorFitted": _fitted("armor"),
    "WeaponFitted": _fitted("weapon"),
    "CardDiscarded": _discarded,
    "CharacterDismissed": _dismissed,
    "BarrageFired": _barrage,
    "AngelOfLifePlayed": _angel_of_life,
    "AngelOfDeathPlayed": _direct_action,
    "AttackDeclared": _attack_declared,
    "AttackersDeclared": _attackers_declared,
    "AttackAnswered": _attack_answered,
    "DefenderAssigned": _defender_assigned,
    "ShieldRaised": _shield_raised,
    "AttackerCountered": _wounded,
    "CharacterWounded": _wounded,
    "CharacterSlain": _slain,
    "WeaponSpent": _weapon_spent,
    "ShieldsDiscarded": _shields_discarded,
    "FortressBreached": _breached,
    "AttackResolved": _attack_resolved,
    "PlayerDefeated": _defeated,
    "TurnPassed": _turn_passed,
}
