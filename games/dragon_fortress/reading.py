"""Reading the table of Dragon Fortress: what an Estate Line is worth, where a card enters
it, which cards may take the Estate Move, and what the acquire step offers a seat. These
helpers only read a ``State``; they emit nothing. The moves of each step of the turn
(``march``, ``acquire``), the legal actions, refusals and scores (``rules``), the views
(``view``) and the bots' evaluation (``bot``) all read the table through them, so none of
those modules needs another's code to know what the table says.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from games.base import Action
from games.dragon_fortress.cards import (
    DRAGON_IDS,
    ESTATE_POWER_OF,
    GATE_IDS,
    GOLD_IDS,
    GOLD_POWER_OF,
    MOVABLE_IDS,
    PHASES,
    RANK_OF,
    SHOTS_OF,
    TYPE_OF,
    UPGRADE_INDEX,
    UPGRADES,
    CardType,
    points_of,
)
from games.dragon_fortress.state import Estate, Rules, State

# --- what a line is worth -------------------------------------------------------------


def estate_power(line: tuple[str, ...]) -> int:
    return sum(map(ESTATE_POWER_OF.__getitem__, line))


def fortress_power(line: tuple[str, ...]) -> int:
    return sum(map(SHOTS_OF.__getitem__, line))


def gold_power(line: tuple[str, ...]) -> int:
    return sum(map(GOLD_POWER_OF.__getitem__, line))


def victory_points(estate: Estate, revision: int) -> int:
    """Points printed on the cards in the line (a dragon still in it is not yours) and on the
    dragons defeated, as the card data of the rules ``revision`` prints them."""
    points = points_of(revision)
    in_line = sum(points[card] for card in estate.line if card not in DRAGON_IDS)
    return in_line + sum(map(points.__getitem__, estate.trophies))


def phase_in_line(line: tuple[str, ...]) -> int:
    return max(map(RANK_OF.__getitem__, line), default=0)


def damage(line: tuple[str, ...], at: int) -> int:
    """Sustained targeted damage on the dragon at ``at``: the shots of every tower behind it
    (towers it has passed over and towers placed behind it), less those it is immune to."""
    immune = TYPE_OF[line[at]].immune_to_shots
    total = 0
    for card in line[at + 1 :]:
        shots = TYPE_OF[card].shots
        if shots and shots not in immune:
            total += shots
    return total


def razes(dragon: CardType, card: CardType) -> bool:
    if card.kind == "estate":
        return card.estate_power <= dragon.raze_estate
    if card.kind == "gold":
        return dragon.raze_gold
    if card.kind == "tower":
        return dragon.raze_towers
    return False


# --- where cards are and may go -------------------------------------------------------


def entry_index(line: tuple[str, ...], card: str, rules: Rules) -> int:
    """Where a new card enters: a Gate Tower at the very front, anything else behind the
    Gate Towers standing at the Front Line. Under revision 1 the run of Gate Towers ends
    at a dragon (a card is never placed in front of a dragon, which buries a Gate Tower a
    dragon stood beyond); from revision 2 it takes in dragons, so every Gate Tower stays
    at the Front Line."""
    if card in GATE_IDS:
        return len(line)
    front = GATE_IDS | DRAGON_IDS if rules.gates_stay_at_front else GATE_IDS
    at = len(line)
    while at > 0 and line[at - 1] in front:
        at -= 1
    gates = [index for index in range(at, len(line)) if line[index] in GATE_IDS]
    return gates[0] if gates else len(line)


def gold_paid(line: tuple[str, ...], upgrade: CardType, rules: Rules) -> tuple[str, ...]:
    """The gold a purchase of ``upgrade`` spends: none when gold is only a requirement,
    else its Gold Cost in the gold cards nearest the Front Line (ours: the rulebook does
    not say which)."""
    if not rules.gold_spent:
        return ()
    gold = [card for card in reversed(line) if card in GOLD_IDS]
    return tuple(gold[: upgrade.gold_cost])


def movable(line: tuple[str, ...]) -> list[str]:
    """Estate and Gold cards that may take the Estate Move: not next to the flag already,
    and not directly behind a dragon."""
    return [card for ahead, card in pairwise(line) if card in MOVABLE_IDS and ahead not in DRAGON_IDS]


def dragons_in_lines(table: State) -> list[str]:
    return [card for estate in table.estates for card in estate.line if card in DRAGON_IDS]


# --- what the acquire step offers -----------------------------------------------------


def purchase_problem(table: State, seat: int, upgrade: CardType) -> str | None:
    """Why ``seat`` may not purchase ``upgrade`` now, or None when it may."""
    line = table.estates[seat].line
    return _purchase_problem(table, seat, upgrade, phase_in_line(line), gold_power(line))


def _purchase_problem(table: State, seat: int, upgrade: CardType, phase: int, gold: int) -> str | None:
    """``purchase_problem`` given the highest phase and the gold in the seat's line: the
    acquire step reads the line once for every upgrade."""
    estate = table.estates[seat]
    index = UPGRADE_INDEX[upgrade.key]
    if estate.bought_last_turn:
        return "You purchased on your last turn; you may never purchase two turns in a row."
    if not table.upgrade_piles[index]:
        return f"No {upgrade.name} is left to purchase."
    if phase < upgrade.phase:
        phase_name = PHASES[upgrade.phase - 1].name
        return f"A {upgrade.name} needs a {phase_name} (or a later phase card) in your Estate Line."
    if gold < upgrade.gold_cost:
        return f"A {upgrade.name} needs {upgrade.gold_cost} gold in your Estate Line."
    if estate.bought[index] >= upgrade.limit:
        return f"No player may ever have more than {upgrade.limit} of {upgrade.name}."
    if table.rules.purchases_carry_over:
        if estate.bought[index] >= estate.reached - upgrade.phase + 1:
            return f"You may purchase only one {upgrade.name} per phase reached; advance to buy another."
    elif estate.bought_this_phase[index]:
        return f"You may purchase only one {upgrade.name} per phase; advance to buy another."
    return None


def advance_problem(table: State, seat: int) -> str | None:
    estate = table.estates[seat]
    if estate.reached >= len(PHASES):
        return "You have advanced to every phase."
    phase = PHASES[estate.reached]
    if not table.phase_piles[estate.reached]:
        return f"No {phase.name} card is left."
    if estate_power(estate.line) < phase.requires_estate or fortress_power(estate.line) < phase.requires_fortress:
        return (
            f"Advancing to {phase.name} needs {phase.requires_estate} Estate Power and "
            f"{phase.requires_fortress} Fortress Power in your Estate Line."
        )
    return None


def acquire_actions(table: State, seat: int) -> list[Action]:
    return list(_acquire_choices(table, seat))


def may_acquire(table: State, seat: int) -> bool:
    """Whether the acquire step offers ``seat`` anything: its first choice, not the list."""
    return next(_acquire_choices(table, seat), None) is not None


def _acquire_choices(table: State, seat: int) -> Iterator[Action]:
    if table.supply:
        yield {"type": "draw", "pile": "common"}
    if table.gold:
        yield {"type": "draw", "pile": "gold"}
    line = table.estates[seat].line
    phase, gold = phase_in_line(line), gold_power(line)
    for upgrade in UPGRADES:
        if _purchase_problem(table, seat, upgrade, phase, gold) is None:
            yield {"type": "purchase", "card": upgrade.key}
    if advance_problem(table, seat) is None:
        yield {"type": "advance", "phase": PHASES[table.estates[seat].reached].key}
