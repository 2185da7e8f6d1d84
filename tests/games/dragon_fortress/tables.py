"""Given-tables for Dragon Fortress scenario tests.

A scenario starts from a ``GameSetUp`` event: the event describes the whole table
(lines, hands, supply, piles), so a test states its "given" as that one event.
``table_event`` takes a real seeded setup and moves the named cards to where the
test wants them, so every other card stays where the deal put it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.base import Action, GameEvent
from games.dragon_fortress import GAME
from games.dragon_fortress.cards import CALL_CARD
from games.dragon_fortress.state import State
from games.play import fold


def table_event(
    players: int = 4,
    *,
    lines: Mapping[int, Sequence[str]] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    supply_top: Sequence[str] = (),
    supply: Sequence[str] | None = None,
    gold: Sequence[str] | None = None,
    dragons: Sequence[str] | None = None,
    trophies: Mapping[int, Sequence[str]] | None = None,
    reached: Mapping[int, int] | None = None,
    first: int = 0,
    call_at: int | None = None,
    seed: int = 7,
    options: Mapping[str, Any] | None = None,
) -> GameEvent:
    lines, hands, trophies, reached = lines or {}, hands or {}, trophies or {}, reached or {}
    setup = GAME.setup(GAME.validate_options(options, players), players, random.Random(seed))[0]
    data: dict[str, Any] = json.loads(json.dumps(setup.data))
    claimed: set[str] = set(supply_top) | set(supply or ()) | set(gold or ()) | set(dragons or ())
    for group in (lines, hands, trophies):
        for cards in group.values():
            claimed |= set(cards)

    def strip(cards: Iterable[str]) -> list[str]:
        return [card for card in cards if card not in claimed]

    data["supply"] = list(supply) if supply is not None else list(supply_top) + strip(data["supply"])
    if call_at is not None:
        data["supply"] = [card for card in data["supply"] if card != CALL_CARD]
        data["supply"].insert(call_at, CALL_CARD)
    data["hands"] = [list(hands[s]) if s in hands else strip(h) for s, h in enumerate(data["hands"])]
    data["gold"] = list(gold) if gold is not None else strip(data["gold"])
    data["dragons"] = list(dragons) if dragons is not None else strip(data["dragons"])
    data["phase_piles"] = {key: strip(pile) for key, pile in data["phase_piles"].items()}
    data["upgrade_piles"] = {key: strip(pile) for key, pile in data["upgrade_piles"].items()}
    data["lines"] = [list(lines.get(s, [])) for s in range(players)]
    data["trophies"] = [list(trophies.get(s, [])) for s in range(players)]
    data["reached"] = [reached.get(s, 0) for s in range(players)]
    data["first"] = first
    return GameEvent("GameSetUp", data, None)


def given(*events: GameEvent) -> State:
    return fold(GAME, events)


def when(table: State, seat: int, *actions: Action) -> tuple[list[GameEvent], State]:
    """Decide each action in turn; the events of the last one and the table after all."""
    events: list[GameEvent] = []
    for action in actions:
        events = GAME.decide(table, seat, action, random.Random(0))
        table = fold(GAME, events, table)
    return events, table


def kinds(events: Iterable[GameEvent]) -> list[str]:
    return [event.type for event in events]


def every_card(table: State) -> list[str]:
    """Every card the table holds, wherever it is: 160 of them, each once."""
    cards = list(table.supply) + list(table.gold) + list(table.dragons) + list(table.out)
    for pile in table.phase_piles + table.upgrade_piles:
        cards += pile
    for estate in table.estates:
        cards += [estate.flag, *estate.line, *estate.hand, *estate.trophies]
    return cards
