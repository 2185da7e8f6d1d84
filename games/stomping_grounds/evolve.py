"""How each event changes a game of Stomping Grounds: the table ``EVOLVE``, one case per
event type, and those cases with the small helpers they share. A case folds one event into
the state (``state``) and nothing more: it checks no rule and draws no randomness, since the
rules (``rules`` and the modules of its phases) have already written every outcome into the
events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Evolver, GameEvent, next_seat, replace

from .state import Item, Owed, Player, Pos, Realm, State

Data = Mapping[str, Any]


def _pos(raw: Any) -> Pos:
    return (int(raw[0]), int(raw[1]))


def _seated(state: State, seat: int, **changes: Any) -> tuple[Player, ...]:
    """The players, with ``changes`` made to ``seat``'s."""
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return tuple(players)


def _player(state: State, seat: int, **changes: Any) -> State:
    return replace(state, players=_seated(state, seat, **changes))


def _paid(owed: tuple[Owed, ...], amount: int = 1) -> tuple[Owed, ...]:
    """The choices owed once the head choice is (partly) made."""
    head = owed[0]
    if head.count > amount:
        return (replace(head, count=head.count - amount), *owed[1:])
    return owed[1:]


def _settled(state: State, data: Data, amount: int = 1) -> dict[str, Any]:
    """The change to the choices owed when the event ``settles`` (makes) the head choice:
    made in the same copy of the state as the event's other changes."""
    return {"owed": _paid(state.owed, amount)} if data.get("settles") else {}


def _from_top(player: Player, count: int) -> dict[str, Any]:
    """Deck changes for taking ``count`` cards off the top."""
    deck = player.deck[count:]
    return {"deck": deck, "known_bottom": min(player.known_bottom, len(deck))}


def _remove(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _top_off(pile: tuple[str, ...], count: int) -> tuple[str, ...]:
    return pile[: len(pile) - count]


def _game_started(state: State | None, event: GameEvent) -> State:
    data = event.data
    players = tuple(
        Player(deck_key=key, deck=tuple(order)) for key, order in zip(data["decks"], data["orders"], strict=True)
    )
    limit = data["turn_limit"]
    return State(
        players=players,
        realms=(),
        turn_limit=None if limit is None else int(limit),
        rules=int(data.get("rules", 1)),
        stated=bool(data.get("stated", False)),
    )


def _luck_drawn(state: State, event: GameEvent) -> State:
    data = event.data
    player = state.players[data["seat"]]
    return _player(state, data["seat"], junk=(*player.junk, data["card"]), **_from_top(player, 1))


def _first_player_chosen(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, first=data["seat"], active=data["seat"])


def _choices_owed(state: State, event: GameEvent) -> State:
    data = event.data
    owed = tuple(Owed(int(s), kind, int(count), detail) for s, kind, count, detail in data["choices"])
    return replace(state, owed=state.owed + owed)


def _choice_skipped(state: State, _: GameEvent) -> State:
    return replace(state, owed=state.owed[1:])


def _realm_played(state: State, event: GameEvent) -> State:
    data = event.data
    who, card = data["seat"], data["card"]
    player = state.players[who]
    if data["source"] == "deck":
        deck = _remove(player.deck, card)
        players = _seated(state, who, deck=deck, known_bottom=min(player.known_bottom, len(deck)))
    else:
        players = _seated(state, who, hand=_remove(player.hand, card), seen_in_hand=player.seen_in_hand - {card})
    realm = Realm(card=card, owner=who, at=_pos(data["at"]))
    return replace(state, players=players, realms=(*state.realms, realm), **_settled(state, data))


def _deck_shuffled(state: State, event: GameEvent) -> State:
    data = event.data
    return _player(state, data["seat"], deck=tuple(data["order"]), known_bottom=0)


def _cards_drawn(state: State, event: GameEvent) -> State:
    data = event.data
    player = state.players[data["seat"]]
    cards = tuple(data["cards"])
    known_from = len(player.deck) - player.known_bottom
    seen = {c for i, c in enumerate(cards) if i >= known_from}
    return _player(
        state,
        data["seat"],
        hand=player.hand + cards,
        seen_in_hand=player.seen_in_hand | seen,
        **_from_top(player, len(cards)),
    )


def _dragon_placed(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, players=_seated(state, data["seat"], dragon=_pos(data["at"])), **_settled(state, data))


def _turn_began(state: State, event: GameEvent) -> State:
    data = event.data
    players = tuple(
        p if p.luck_bonus == p.extra_luck == 0 else replace(p, luck_bonus=0, extra_luck=0) for p in state.players
    )
    return replace(
        state,
        players=players,
        active=data["seat"],
        turn=data["turn"],
        phase="start",
        path=(),
        roamed=(),
        dueled=(),
        attempted=False,
    )


def _phase_began(state: State, event: GameEvent) -> State:
    data = event.data
    phase = data["phase"]
    if phase == "flight":
        dragon = state.players[state.active].dragon
        return replace(state, phase=phase, path=(dragon,) if dragon else (), closing=False)
    return replace(state, phase=phase, closing=False)


def _cards_stashed(state: State, event: GameEvent) -> State:
    data = event.data
    player = state.players[data["seat"]]
    cards = tuple(data["cards"])
    return _player(state, data["seat"], stash=player.stash + cards, **_from_top(player, len(cards)))


def _cost_paid(state: State, event: GameEvent) -> State:
    data = event.data
    player = state.players[data["seat"]]
    cards = tuple(data["cards"])
    return _player(state, data["seat"], stash=_top_off(player.stash, len(cards)), junk=player.junk + cards)


def _window(state: State, seat: int) -> dict[str, Any]:
    """A play goes on the stack: the window it opens. Revision 1: priority to the player's
    left, who played has passed. Revision 2: priority to the active player's left, and every
    seat must pass."""
    if state.rules >= 2:
        return {"priority": next_seat(state.active, state.count), "passes": 0}
    return {"priority": next_seat(seat, state.count), "passes": 1}


def _phase_closing(state: State, _: GameEvent) -> State:
    """The active player ended the phase (its pass); the others may play, from its left."""
    return replace(state, closing=True, priority=next_seat(state.active, state.count), passes=1)


def _hoard_broken(state: State, event: GameEvent) -> State:
    data = event.data
    owner = state.players[data["seat"]]
    players = _seated(state, data["seat"], hoard=_remove(owner.hoard, data["card"]), junk=(*owner.junk, data["card"]))
    return replace(state, players=players, **_settled(state, data))


def _challenge_attempted(state: State, event: GameEvent) -> State:
    data = event.data
    item = Item(kind="challenge", seat=data["seat"], at=_pos(data["at"]))
    return replace(state, stack=(*state.stack, item), attempted=True, **_window(state, data["seat"]))


def _from_hand(state: State, who: int, card: str) -> tuple[Player, ...]:
    """The players once ``card`` has left ``who``'s hand."""
    player = state.players[who]
    return _seated(state, who, hand=_remove(player.hand, card), seen_in_hand=player.seen_in_hand - {card})


def _action_played(state: State, event: GameEvent) -> State:
    data = event.data
    players = _from_hand(state, data["seat"], data["card"])
    item = Item(kind="action", seat=data["seat"], card=data["card"])
    return replace(state, players=players, stack=(*state.stack, item), **_window(state, data["seat"]))


def _hoard_played(state: State, event: GameEvent) -> State:
    data = event.data
    who, card = data["seat"], data["card"]
    player = state.players[who]
    hoard = (*player.hoard, card)
    if data.get("source") == "deck":
        deck = _remove(player.deck, card)
        players = _seated(state, who, deck=deck, known_bottom=min(player.known_bottom, len(deck)), hoard=hoard)
    else:
        hand, seen = _remove(player.hand, card), player.seen_in_hand - {card}
        players = _seated(state, who, hand=hand, seen_in_hand=seen, hoard=hoard)
    return replace(state, players=players, **_settled(state, data))


def _challenge_placed(state: State, event: GameEvent) -> State:
    data = event.data
    who, card = data["seat"], data["card"]
    index = state.where[_pos(data["at"])]
    realms = list(state.realms)
    realms[index] = replace(realms[index], challenge=card, controller=who, challenge_razed=False)
    return replace(state, players=_from_hand(state, who, card), realms=tuple(realms))


def _passed(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, priority=next_seat(data["seat"], state.count), passes=state.passes + 1)


def _window_closed(state: State, _: GameEvent) -> State:
    return replace(state, priority=None, passes=0)


def _item_resolved(state: State, _: GameEvent) -> State:
    item = state.stack[-1]
    if item.kind == "action" and item.card is not None:
        players = _seated(state, item.seat, junk=(*state.players[item.seat].junk, item.card))
        return replace(state, stack=state.stack[:-1], players=players)
    return replace(state, stack=state.stack[:-1])


def _challenge_cancelled(state: State, event: GameEvent) -> State:
    data = event.data
    stack = list(state.stack)
    stack[data["index"]] = replace(stack[data["index"]], cancelled=True)
    return replace(state, stack=tuple(stack))


def _nothing(state: State, _: GameEvent) -> State:
    return state


def _duel_declared(state: State, event: GameEvent) -> State:
    data = event.data
    item = Item(kind="duel", seat=data["seat"], opponent=data["opponent"], colour=data["colour"])
    dueled = (*state.dueled, data["opponent"])
    return replace(state, stack=(*state.stack, item), dueled=dueled, **_window(state, data["seat"]))


def _cards_burned(state: State, event: GameEvent) -> State:
    data = event.data
    who, pile = data["seat"], data["pile"]
    player = state.players[who]
    cards = tuple(data["cards"])
    burned = player.burned + cards
    if pile == "deck":
        players = _seated(state, who, burned=burned, **_from_top(player, len(cards)))
    elif pile == "hand":
        players = _seated(
            state,
            who,
            burned=burned,
            hand=_remove(player.hand, cards[0]),
            seen_in_hand=player.seen_in_hand - {cards[0]},
        )
    else:
        players = _seated(state, who, burned=burned, **{pile: _top_off(getattr(player, pile), len(cards))})
    return replace(state, players=players, **_settled(state, data, len(cards)))


def _stash_junked(state: State, event: GameEvent) -> State:
    data = event.data
    player = state.players[data["seat"]]
    cards = tuple(data["cards"])
    return _player(state, data["seat"], stash=_top_off(player.stash, len(cards)), junk=player.junk + cards)


def _burn_returned(state: State, event: GameEvent) -> State:
    data = event.data
    player = state.players[data["seat"]]
    cards = tuple(data["cards"])
    return _player(state, data["seat"], burned=_top_off(player.burned, len(cards)), junk=player.junk + cards)


def _realm_razed(state: State, event: GameEvent) -> State:
    data = event.data
    index = state.where[_pos(data["at"])]
    realms = list(state.realms)
    realms[index] = replace(realms[index], razed=True, challenge_razed=realms[index].challenge is not None)
    return replace(state, realms=tuple(realms), **_settled(state, data))


def _dragon_moved(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, players=_seated(state, data["seat"], dragon=_pos(data["at"])), **_settled(state, data))


def _challenge_roamed(state: State, event: GameEvent) -> State:
    data = event.data
    source, target = state.where[_pos(data["from"])], state.where[_pos(data["to"])]
    realms = list(state.realms)
    moving = realms[source]
    realms[target] = replace(
        realms[target], challenge=moving.challenge, controller=moving.controller, challenge_razed=False
    )
    realms[source] = replace(moving, challenge=None, controller=None, challenge_razed=False)
    return replace(state, realms=tuple(realms), roamed=(*state.roamed, str(moving.challenge)), **_settled(state, data))


def _luck_gained(state: State, event: GameEvent) -> State:
    data = event.data
    player = state.players[data["seat"]]
    return _player(
        state,
        data["seat"],
        luck_bonus=player.luck_bonus + data["amount"],
        extra_luck=player.extra_luck + data["draws"],
    )


def _dragon_flew(state: State, event: GameEvent) -> State:
    data = event.data
    who = data["seat"]
    to = _pos(data["to"])
    player = state.players[who]
    cards = tuple(data["stashed"])
    players = _seated(state, who, dragon=to, stash=player.stash + cards, **_from_top(player, len(cards)))
    return replace(state, players=players, path=(*state.path, to))


def _stash_drawn(state: State, event: GameEvent) -> State:
    data = event.data
    player = state.players[data["seat"]]
    card = data["card"]
    return _player(
        state,
        data["seat"],
        stash=player.stash[:-1],
        hand=(*player.hand, card),
        seen_in_hand=player.seen_in_hand | {card},
    )


def _card_junked(state: State, event: GameEvent) -> State:
    data = event.data
    who, card = data["seat"], data["card"]
    player = state.players[who]
    if data["source"] == "burn":
        players = _seated(state, who, burned=player.burned[:-1], junk=(*player.junk, card))
    else:
        players = _seated(
            state,
            who,
            hand=_remove(player.hand, card),
            seen_in_hand=player.seen_in_hand - {card},
            junk=(*player.junk, card),
        )
    return replace(state, players=players, **_settled(state, data))


def _junk_returned(state: State, event: GameEvent) -> State:
    data = event.data
    player = state.players[data["seat"]]
    return _player(
        state,
        data["seat"],
        deck=player.deck + player.junk,
        junk=(),
        known_bottom=player.known_bottom + len(player.junk),
    )


def _game_ended(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, winners=tuple(data["winners"]), reason=data["reason"], phase="over", owed=(), priority=None)


EVOLVE: dict[str, Evolver] = {
    "GameStarted": _game_started,
    "LuckDrawn": _luck_drawn,
    "FirstPlayerChosen": _first_player_chosen,
    "ChoicesOwed": _choices_owed,
    "ChoiceSkipped": _choice_skipped,
    "RealmPlayed": _realm_played,
    "DeckShuffled": _deck_shuffled,
    "CardsDrawn": _cards_drawn,
    "DragonPlaced": _dragon_placed,
    "TurnBegan": _turn_began,
    "PhaseBegan": _phase_began,
    "PhaseClosing": _phase_closing,
    "HoardBroken": _hoard_broken,
    "CardsStashed": _cards_stashed,
    "CostPaid": _cost_paid,
    "ChallengeAttempted": _challenge_attempted,
    "ActionPlayed": _action_played,
    "HoardPlayed": _hoard_played,
    "ChallengePlaced": _challenge_placed,
    "Passed": _passed,
    "WindowClosed": _window_closed,
    "ItemResolved": _item_resolved,
    "ChallengeCancelled": _challenge_cancelled,
    "ChallengeWon": _nothing,
    "ChallengeLost": _nothing,
    "ChallengeFizzled": _nothing,
    "DuelDeclared": _duel_declared,
    "DuelResolved": _nothing,
    "DragonLanded": _nothing,
    "CardsBurned": _cards_burned,
    "StashJunked": _stash_junked,
    "BurnReturned": _burn_returned,
    "RealmRazed": _realm_razed,
    "DragonMoved": _dragon_moved,
    "ChallengeRoamed": _challenge_roamed,
    "LuckGained": _luck_gained,
    "DragonFlew": _dragon_flew,
    "StashDrawn": _stash_drawn,
    "CardJunked": _card_junked,
    "JunkReturned": _junk_returned,
    "GameEnded": _game_ended,
}
