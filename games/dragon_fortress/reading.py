"""Reading the table of Dragon Fortress: what an Estate Line is worth, where a card enters
it, which cards may take the Estate Move, and what the acquire step offers a seat.

These helpers only read a ``State``; they emit nothing. The moves of each step of the
turn (``march``, ``acquire``), the legal actions and refusals (``rules``) and the views
and scores (``game``) all read the table through them, so none of those modules needs
another's code to know what the table says.
"""

from __future__ import annotations

from games.base import Action
from games.dragon_fortress.cards import (
    DRAGON_IDS,
    ESTATE_POWER_OF,
    GATE_IDS,
    GOLD_POWER_OF,
    MOVABLE_IDS,
    PHASES,
    POINTS_OF,
    SHOTS_OF,
    TYPE_OF,
    UPGRADE_INDEX,
    UPGRADES,
    CardType,
)
from games.dragon_fortress.state import Estate, State

# --- what a line is worth -------------------------------------------------------------


def estate_power(line: tuple[str, ...]) -> int:
    return sum(map(ESTATE_POWER_OF.__getitem__, line))


def fortress_power(line: tuple[str, ...]) -> int:
    return sum(map(SHOTS_OF.__getitem__, line))


def gold_power(line: tuple[str, ...]) -> int:
    return sum(map(GOLD_POWER_OF.__getitem__, line))


def victory_points(estate: Estate) -> int:
    """Points printed on the cards in the line (a dragon still in it is not yours) and on the
    dragons defeated."""
    in_line = sum(POINTS_OF[card] for card in estate.line if card not in DRAGON_IDS)
    return in_line + sum(map(POINTS_OF.__getitem__, estate.trophies))


def phase_in_line(line: tuple[str, ...]) -> int:
    return max((TYPE_OF[card].rank for card in line), default=0)


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


def entry_index(line: tuple[str, ...], card: str) -> int:
    """Where a new card enters: a Gate Tower at the very front, anything else behind the
    Gate Towers standing at the Front Line (and so always behind a dragon)."""
    if card in GATE_IDS:
        return len(line)
    at = len(line)
    while at > 0 and line[at - 1] in GATE_IDS:
        at -= 1
    return at


def movable(line: tuple[str, ...]) -> list[str]:
    """Estate and Gold cards that may take the Estate Move: not next to the flag already,
    and not directly behind a dragon."""
    return [card for at, card in enumerate(line) if at > 0 and card in MOVABLE_IDS and line[at - 1] not in DRAGON_IDS]


def dragons_in_lines(table: State) -> list[str]:
    return [card for estate in table.estates for card in estate.line if card in DRAGON_IDS]


# --- what the acquire step offers -----------------------------------------------------


def purchase_problem(table: State, seat: int, upgrade: CardType) -> str | None:
    """Why ``seat`` may not purchase ``upgrade`` now, or None when it may."""
    estate = table.estates[seat]
    index = UPGRADE_INDEX[upgrade.key]
    phase_name = PHASES[upgrade.phase - 1].name
    if estate.bought_last_turn:
        return "You purchased on your last turn; you may never purchase two turns in a row."
    if not table.upgrade_piles[index]:
        return f"No {upgrade.name} is left to purchase."
    if phase_in_line(estate.line) < upgrade.phase:
        return f"A {upgrade.name} needs a {phase_name} (or a later phase card) in your Estate Line."
    if gold_power(estate.line) < upgrade.gold_cost:
        return f"A {upgrade.name} needs {upgrade.gold_cost} gold in your Estate Line."
    if estate.bought[index] >= upgrade.limit:
        return f"No player may ever have more than {upgrade.limit} of {upgrade.name}."
    if estate.bought[index] >= estate.reached - upgrade.phase + 1:
        return f"You may purchase only one {upgrade.name} per phase reached; advance to buy another."
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
    actions: list[Action] = []
    if table.supply:
        actions.append({"type": "draw", "pile": "common"})
    if table.gold:
        actions.append({"type": "draw", "pile": "gold"})
    for upgrade in UPGRADES:
        if purchase_problem(table, seat, upgrade) is None:
            actions.append({"type": "purchase", "card": upgrade.key})
    if advance_problem(table, seat) is None:
        actions.append({"type": "advance", "phase": PHASES[table.estates[seat].reached].key})
    return actions
