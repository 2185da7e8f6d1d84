"""Boards drawn as text for the terminal (``tablestream replay``).

One drawing per game kind, made from the view a seat (or a spectator) is sent and
nothing else, so a drawing shows no card the view hides. Each reads like the web
client's board (``service/client/kinds``): whose turn and the phase, then each seat
(numbered from 1 and named as at the table) with its public cards, its hand (names for
the viewing seat, a count for the others), its piles, and the numbers a player reads
a card by. A field a drawing does not know is shown as a tree beneath it; a view a
drawing cannot read at all is shown whole as a tree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BOLD, DIM, CYAN, GREEN, YELLOW, RED, RESET = (
    "\033[1m",
    "\033[2m",
    "\033[36m",
    "\033[32m",
    "\033[33m",
    "\033[31m",
    "\033[0m",
)
SUIT_SIGNS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
HIDDEN = "▒"  # one face-down card


@dataclass(frozen=True)
class Sheet:
    """What a drawing needs beside the view: the seats' names, whether to colour, the
    rules revision the game was created under (card numbers differ between revisions)
    and, for a view that does not say, the seats to act."""

    seats: tuple[str, ...]
    colour: bool = False
    rules: int = 1
    to_act: tuple[int, ...] = ()

    def paint(self, text: str, code: str) -> str:
        return f"{code}{text}{RESET}" if self.colour else text

    def seat(self, index: Any) -> str:
        """``#2 bob``: the seat numbered from 1, with its name at the table."""
        if not isinstance(index, int) or isinstance(index, bool):
            return "nobody"
        name = self.seats[index] if 0 <= index < len(self.seats) else None
        return f"#{index + 1} {name}" if name else f"#{index + 1}"

    def acting(self, view: Mapping[str, Any]) -> list[int]:
        shown = view.get("to_act")
        return list(shown) if isinstance(shown, list) else list(self.to_act)


Drawing = Callable[[Mapping[str, Any], Sheet], list[str]]


def tree(value: Any, colour: bool, indent: int = 0) -> list[str]:
    """A view as an indented tree: keys in colour, short lists on one line."""
    pad = "  " * indent
    key = (lambda k: f"{CYAN}{k}{RESET}") if colour else (lambda k: str(k))
    lines: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v and len(json.dumps(v)) > 70:
                lines.append(f"{pad}{key(k)}:")
                lines.extend(tree(v, colour, indent + 1))
            else:
                lines.append(f"{pad}{key(k)}: {json.dumps(v)}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)) and len(json.dumps(item)) > 70:
                lines.append(f"{pad}- [{index}]")
                lines.extend(tree(item, colour, indent + 1))
            else:
                lines.append(f"{pad}- {json.dumps(item)}")
    else:
        lines.append(f"{pad}{json.dumps(value)}")
    return lines


def draw(kind: str, view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    """The board of a ``kind`` game as lines of text; the tree for a kind with no
    drawing, or a view its drawing cannot read."""
    drawing = DRAWINGS.get(kind)
    if drawing is None or not isinstance(view, Mapping):
        return tree(view, sheet.colour)
    try:
        return drawing(view, sheet)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        note = f"(this view does not read as a {kind} board: {type(error).__name__} {error}; the view as a tree)"
        return [sheet.paint(note, DIM), *tree(dict(view), sheet.colour)]


# -- the pieces every drawing uses ------------------------------------------------------


def header(view: Mapping[str, Any], sheet: Sheet, *facts: str | None) -> str:
    acting = sheet.acting(view)
    who = ", ".join(sheet.seat(seat) for seat in acting) if acting else "nobody"
    parts = [sheet.paint(f"to act: {who}", BOLD + GREEN if acting else BOLD), *(fact for fact in facts if fact)]
    return " · ".join(parts)


def seat_line(index: int, view: Mapping[str, Any], sheet: Sheet, you: Any, *facts: str | None) -> str:
    marks = []
    if index == you:
        marks.append("(you)")
    if index in sheet.acting(view):
        marks.append("◀ to act")
    title = sheet.paint(" ".join([sheet.seat(index), *marks]), BOLD + (GREEN if index in sheet.acting(view) else ""))
    return " · ".join([title, *(fact for fact in facts if fact)])


def listed(label: str, names: Sequence[str], empty: str = "none") -> str:
    return f"{label}: {', '.join(names) if names else empty}"


def closed_hand(size: Any, shown: Sequence[str] = (), shown_as: str = "showing") -> str:
    """A hand the viewer does not hold: its size, the cards of it the view shows, and a
    back for each other card."""
    count = count_of(size)
    parts = [f"{count} card{'' if count == 1 else 's'}"]
    if shown:
        parts.append(f"{shown_as} {', '.join(shown)}")
    hidden = count - len(shown)
    if hidden > 0:
        parts.append(f"{hidden} hidden {HIDDEN * min(hidden, 12)}")
    return ", ".join(parts)


def rest(value: Mapping[str, Any], known: Iterable[str], sheet: Sheet, indent: int) -> list[str]:
    """The fields of ``value`` a drawing does not know, as a tree under ``other``."""
    unknown = {k: v for k, v in value.items() if k not in set(known)}
    if not unknown:
        return []
    return ["  " * indent + sheet.paint("other:", DIM), *tree(unknown, sheet.colour, indent + 1)]


def titled(card_id: Any) -> str:
    """``1-abyssal-leviathan-2`` / ``s0-regrowth-1`` / ``crop-field-06`` -> ``Abyssal Leviathan``
    (how the client names a card it has no data for)."""
    if not isinstance(card_id, str):
        return str(card_id)
    body = re.sub(r"-\d+$", "", re.sub(r"^s?\d+-", "", card_id))
    return " ".join(word.capitalize() for word in body.split("-"))


def standard(card_id: Any) -> str:
    """``QH``, ``10S.1``, ``JK2.0`` -> ``Q♥``, ``10♠``, ``Joker``; hidden (None) -> ``▒``."""
    if card_id is None:
        return HIDDEN
    if not isinstance(card_id, str):
        return str(card_id)
    code = card_id.split(".", 1)[0]
    if code.startswith("JK"):
        return "Joker"
    rank, suit = code[:-1], code[-1:]
    return f"{rank}{SUIT_SIGNS[suit]}" if suit in SUIT_SIGNS and rank else card_id


def count_of(value: Any) -> int:
    return len(value) if isinstance(value, list) else value if isinstance(value, int) else 0


# -- fortress-siege ---------------------------------------------------------------------

SIEGE_KNOWN = (
    "phase",
    "active",
    "first",
    "moves_left",
    "to_act",
    "you",
    "winds_of_fate",
    "fixed_deal",
    "set_aside",
    "players",
    "attack",
    "charge",
    "outcome",
)
SIEGE_PLAYER = ("seat", "in_game", "fortress", "tombstone", "hand_size", "battlefield", "graveyard", "hand")


def _siege_attack(attack: Mapping[str, Any], sheet: Sheet) -> str:
    target = (
        f"{standard(attack['target'])} of {sheet.seat(attack['target_seat'])}"
        if attack.get("target")
        else f"{sheet.seat(attack['target_seat'])}'s Fortress"
    )
    attacker = f"{standard(attack['attacker'])} (power {attack['power']})"
    text = f"{sheet.seat(attack['seat'])} attacks {target} with {attacker}"
    if attack.get("defenders"):
        text += " · defenders: " + ", ".join(standard(card) for card in attack["defenders"])
    if attack.get("shields"):
        text += " · shields: " + ", ".join("+".join(standard(card) for card in shield) for shield in attack["shields"])
    return text


def draw_fortress_siege(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    you = view.get("you")
    lines = [
        header(
            view,
            sheet,
            f"phase {view['phase']}",
            f"turn of {sheet.seat(view['active'])}" if view.get("active") is not None else None,
            f"moves left {view['moves_left']}",
            "Winds of Fate" if view.get("winds_of_fate") else None,
            f"set aside {view['set_aside']}" if view.get("set_aside") else None,
        )
    ]
    if view.get("attack"):
        lines.append(sheet.paint("⚔ " + _siege_attack(view["attack"], sheet), YELLOW))
    for declared in view.get("charge") or []:
        lines.append("  charge: " + _siege_attack(declared, sheet))
    for player in view["players"]:
        index = player["seat"]
        graveyard = player.get("graveyard") or []
        lines.append(
            seat_line(
                index,
                view,
                sheet,
                you,
                None if player.get("in_game", True) else sheet.paint("defeated", RED),
                f"Fortress {player['fortress']}",
                f"Tombstone {standard(player['tombstone']) if player.get('tombstone') else HIDDEN}",
                f"graveyard {len(graveyard)}" + (f" (top {standard(graveyard[-1])})" if graveyard else ""),
            )
        )
        characters = []
        for character in player.get("battlefield") or []:
            gear = [f"power {character['power']}"]
            if character.get("armor"):
                gear.append(f"armor {standard(character['armor'])} {character['armor_left']} left")
            if character.get("weapon"):
                gear.append(f"weapon {standard(character['weapon'])}")
            characters.append(f"{standard(character['card'])} ({', '.join(gear)})")
        lines.append("  " + listed("battlefield", characters, "no characters"))
        if isinstance(player.get("hand"), list):
            lines.append("  " + listed("hand", [standard(card) for card in player["hand"]], "empty"))
        else:
            lines.append(f"  hand: {closed_hand(player.get('hand_size', 0))}")
        lines.extend(rest(player, SIEGE_PLAYER, sheet, 1))
    if view.get("outcome"):
        lines.append(_outcome(view["outcome"], sheet))
    return lines + rest(view, SIEGE_KNOWN, sheet, 0)


def _outcome(outcome: Any, sheet: Sheet) -> str:
    winners = outcome.get("winners") if isinstance(outcome, Mapping) else None
    if isinstance(winners, list):
        text = "over: " + (", ".join(sheet.seat(seat) for seat in winners) + " won" if winners else "no winner")
    else:
        text = f"over: {json.dumps(outcome)}"
    return sheet.paint(text, BOLD)


# -- fortress-royals --------------------------------------------------------------------

ROYALS_KNOWN = (
    "seat",
    "players",
    "phase",
    "round",
    "direction",
    "even_round",
    "first_player",
    "first",
    "chooser",
    "turn",
    "attack_target",
    "to_act",
    "waiting",
    "target_score",
    "rounds",
    "fixed_deck",
    "first_draws",
    "hands",
    "drawn",
    "deck",
    "discard",
    "captured",
    "set_aside",
    "set_aside_count",
    "passes",
    "scores",
    "round_points",
    "round_end",
    "winners",
    "result",
)
ROYALS_HAND = ("seat", "count", "cards", "revealed")


def _royals_strength(card: Any) -> str:
    from games.fortress_royals.cards import STRENGTH

    name = standard(card)
    code = card.split(".", 1)[0] if isinstance(card, str) else None
    return f"{name}({STRENGTH[code]})" if code in STRENGTH else name


def draw_fortress_royals(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    you = view.get("seat")
    goal = f"{view['rounds']} rounds" if view.get("rounds") else f"target {view.get('target_score')}"
    lines = [
        header(
            view,
            sheet,
            f"round {view['round']}",
            f"phase {view['phase']}",
            f"turn of {sheet.seat(view['turn'])}" if view.get("turn") is not None else None,
            view.get("direction"),
            "Even Round" if view.get("even_round") else None,
            goal,
            f"attacking {sheet.seat(view['attack_target'])}" if view.get("attack_target") is not None else None,
        )
    ]
    discard = view.get("discard") or []
    piles = [
        f"deck {view['deck']}",
        f"discard {len(discard)}" + (f" (top {standard(discard[-1])})" if discard else ""),
        f"set aside {view.get('set_aside_count', len(view.get('set_aside') or []))}",
    ]
    if view.get("set_aside"):
        piles.append(listed("set aside", [standard(card) for card in view["set_aside"]]))
    lines.append("piles: " + " · ".join(piles))
    drawn = view.get("drawn")
    if drawn:
        lines.append(f"drawn: {sheet.seat(drawn['seat'])} places {standard(drawn.get('card'))}")
    for draws in view.get("first_draws") or []:
        lines.append("  " + listed("first-player draw", [standard(card) for card in draws]))
    scores = view.get("scores") or []
    captured = view.get("captured") or []
    for hand in view["hands"]:
        index = hand["seat"]
        lines.append(
            seat_line(
                index,
                view,
                sheet,
                you,
                f"score {scores[index] if index < len(scores) else 0}",
                f"{hand['count']} cards",
            )
        )
        revealed = set(hand.get("revealed") or [])
        cards = [
            _royals_strength(card) + ("*" if position in revealed else "")
            for position, card in enumerate(hand.get("cards") or [])
        ]
        lines.append("  hand: left ◀ " + (" ".join(cards) if cards else "empty") + " ▶ right")
        if index < len(captured) and captured[index]:
            lines.append("  " + listed("captured royals", [standard(card) for card in captured[index]]))
        lines.extend(rest(hand, ROYALS_HAND, sheet, 1))
    if view.get("round_end"):
        lines.append(f"round over: {view['round_end']}")
    if view.get("round_points"):
        rounds = [" ".join(str(points) for points in row) for row in view["round_points"]]
        lines.append("points by round (seat by seat): " + " | ".join(rounds))
    if view.get("result"):
        lines.append(_outcome({"winners": view.get("winners") or []}, sheet) + f" ({view['result']})")
    return lines + rest(view, ROYALS_KNOWN, sheet, 0)


# -- dragon-fortress --------------------------------------------------------------------

DRAGON_FORTRESS_KNOWN = (
    "you",
    "step",
    "turn",
    "turns_played",
    "players",
    "supply",
    "gold_supply",
    "piles",
    "dragons",
    "out_of_game",
    "pending",
    "scores",
    "legal_actions",
)
DRAGON_FORTRESS_PLAYER = (
    "seat",
    "flag",
    "line",
    "hand",
    "hand_count",
    "hand_gold",
    "fresh_gold",
    "trophies",
    "phase",
    "estate_power",
    "fortress_power",
    "gold_power",
    "victory_points",
    "purchases",
    "purchases_this_phase",
    "purchased_last_turn",
    "dragon",
)


def dragon_fortress_card(card_id: Any, sheet: Sheet) -> str:
    """``Guard Tower (2 shots, 1VP)``: the name and the numbers printed on the card."""
    from games.dragon_fortress.cards import TYPE_OF, points_of

    kind = TYPE_OF.get(card_id) if isinstance(card_id, str) else None
    if kind is None:
        return titled(card_id)
    numbers = []
    if kind.estate_power:
        numbers.append(f"E{kind.estate_power}")
    if kind.shots:
        numbers.append(f"{kind.shots} shot{'s' if kind.shots > 1 else ''}")
    if kind.gold_power:
        numbers.append(f"gold {kind.gold_power}")
    if kind.strength:
        numbers.append(f"strength {kind.strength}")
    points = points_of(sheet.rules).get(card_id, 0)
    if points:
        numbers.append(f"{points}VP")
    return f"{kind.name} ({', '.join(numbers)})" if numbers else kind.name


def draw_dragon_fortress(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    you = view.get("you")
    supply = view.get("supply") or {}
    turn = view.get("turn")
    if "to_act" not in view and turn is not None and view.get("step") != "over":
        sheet = Sheet(sheet.seats, sheet.colour, sheet.rules, sheet.to_act or (turn,))
    lines = [
        header(
            view,
            sheet,
            f"step {view['step']}",
            f"turn of {sheet.seat(turn)}" if turn is not None else None,
            f"turns played {view.get('turns_played')}",
        )
    ]
    call = supply.get("call_depth")
    lines.append(
        "piles: "
        + " · ".join(
            [
                f"supply {supply.get('count')}" + (f" (dragon call in {call})" if call is not None else ""),
                f"gold {view.get('gold_supply')}",
                *(f"{titled(key)} {count}" for key, count in (view.get("piles") or {}).items()),
            ]
        )
    )
    lines.append(listed("dragons to come", [dragon_fortress_card(card, sheet) for card in view.get("dragons") or []]))
    pending = view.get("pending")
    if pending:
        lines.append(sheet.paint(f"{titled(pending['dragon'])} marching, {pending['steps_left']} steps left", YELLOW))
    for player in view["players"]:
        index = player["seat"]
        lines.append(
            seat_line(
                index,
                view,
                sheet,
                you,
                f"{player['victory_points']}VP",
                f"estate {player['estate_power']}",
                f"fortress {player['fortress_power']}",
                f"gold {player['gold_power']}",
                f"phase {titled(player['phase'])}" if player.get("phase") else None,
            )
        )
        dragon = player.get("dragon")
        if dragon:
            lines.append(
                sheet.paint(
                    f"  {titled(dragon['card'])} (strength {dragon['strength']}) at card {dragon['position'] + 1},"
                    f" damage {dragon['damage']}",
                    YELLOW,
                )
            )
        line = [f"{at + 1}.{dragon_fortress_card(card, sheet)}" for at, card in enumerate(player.get("line") or [])]
        lines.append("  " + listed("estate line", line, "empty"))
        if isinstance(player.get("hand"), list):
            lines.append("  " + listed("hand", [dragon_fortress_card(card, sheet) for card in player["hand"]], "empty"))
        else:
            gold = [dragon_fortress_card(card, sheet) for card in player.get("hand_gold") or []]
            lines.append(f"  hand: {closed_hand(player.get('hand_count', 0), gold)}")
        if player.get("trophies"):
            lines.append("  " + listed("trophies", [dragon_fortress_card(card, sheet) for card in player["trophies"]]))
        bought = {key: count for key, count in (player.get("purchases") or {}).items() if count}
        if bought:
            lines.append("  bought: " + ", ".join(f"{titled(key)} {count}" for key, count in bought.items()))
        lines.extend(rest(player, DRAGON_FORTRESS_PLAYER, sheet, 1))
    if view.get("scores"):
        lines.append(sheet.paint("final scores:", BOLD))
        for index, score in enumerate(view["scores"]):
            lines.append(
                f"  {sheet.seat(index)}: {score['victory_points']}VP + estate {score['estate_bonus']}"
                f" + fortress {score['fortress_bonus']} = {score['total']}"
            )
    return lines + rest(view, DRAGON_FORTRESS_KNOWN, sheet, 0)


# -- dragoborne -------------------------------------------------------------------------

DRAGOBORNE_KNOWN = (
    "you",
    "phase",
    "turn",
    "active",
    "first",
    "to_act",
    "decks",
    "attack",
    "pending",
    "players",
    "result",
)
DRAGOBORNE_PLAYER = (
    "seat",
    "deck",
    "hand",
    "known",
    "forts",
    "creatures",
    "resources",
    "dice",
    "discard",
    "lifted",
    "mulliganed",
)


def dragoborne_card(card_id: Any, sheet: Sheet) -> str:
    """``Cinder Lancer (red 2, 2/2)``: name, colour and cost, and ATK/EDR for a creature."""
    from games.dragoborne.cards import card_of

    try:
        card = card_of(card_id, sheet.rules)
    except (KeyError, IndexError, AttributeError):
        return titled(card_id)
    numbers = f"{card.colour} {card.cost}" if card.type != "banner" else card.colour
    if card.type == "creature":
        numbers += f", ATK {card.atk}/EDR {card.edr}"
    elif card.type == "spell":
        numbers += ", spell"
    return f"{card.name} ({numbers})"


def _dragoborne_name(card_id: Any, sheet: Sheet) -> str:
    from games.dragoborne.cards import card_of

    try:
        return card_of(card_id, sheet.rules).name
    except (KeyError, IndexError, AttributeError):
        return titled(card_id)


def _dragoborne_creature(creature: Mapping[str, Any], dice: Sequence[Any], sheet: Sheet) -> str:
    """``Scorchling (ATK 2/EDR 2, damage 1, rested, crossed red 2)``: its numbers now."""
    notes = [f"ATK {creature['atk']}/EDR {creature['edr']}"]
    if creature.get("damage"):
        notes.append(f"damage {creature['damage']}")
    if creature.get("rested"):
        notes.append("rested")
    cross = creature.get("cross")
    if isinstance(cross, int):
        die = dice[cross] if 0 <= cross < len(dice) else None
        notes.append(f"crossed {die['colour']} {die['value']}" if die else f"cross die {cross + 1}")
    return f"{_dragoborne_name(creature['id'], sheet)} ({', '.join(notes)})"


def draw_dragoborne(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    you = view.get("you")
    decks = view.get("decks") or []
    lines = [
        header(
            view,
            sheet,
            f"turn {view['turn']}",
            f"phase {view['phase']}",
            f"active {sheet.seat(view['active'])}" if view.get("active") is not None else None,
        )
    ]
    attack = view.get("attack")
    if attack:
        attacker = _dragoborne_name(attack["creature"], sheet)
        lines.append(sheet.paint(f"⚔ {attacker} attacks fort {attack['fort'] + 1}", YELLOW))
    for item in view.get("pending") or []:
        source = f" from {_dragoborne_name(item['source'], sheet)}" if item.get("source") else ""
        what = item.get("op") or item.get("kind")
        lines.append(f"waiting to resolve: {what}{source} ({sheet.seat(item.get('seat'))})")
    for player in view["players"]:
        index = player["seat"]
        resources = player.get("resources") or []
        ready = sum(1 for resource in resources if not resource.get("rested"))
        lines.append(
            seat_line(
                index,
                view,
                sheet,
                you,
                decks[index] if index < len(decks) else None,
                f"deck {player['deck']}",
                f"discard {len(player.get('discard') or [])}",
                f"resources {ready}/{len(resources)} ready",
            )
        )
        dice = player.get("dice") or []
        for number, fort in enumerate(player.get("forts") or []):
            shield = fort.get("shield")
            shield_die = dice[shield] if isinstance(shield, int) and shield < len(dice) else None
            if fort.get("destroyed"):
                state = "no barriers yet" if view.get("phase") == "mulligan" else sheet.paint("destroyed", RED)
            else:
                state = f"barriers {fort['barriers']}"
            guards = [
                _dragoborne_creature(creature, dice, sheet)
                for creature in player.get("creatures") or []
                if creature.get("fort") == number
            ]
            shield_text = f" · shield {shield_die['colour']} {shield_die['value']}" if shield_die else ""
            banner = f"{_dragoborne_name(fort['banner'], sheet)} ({fort['colour']})"
            guarded = ", ".join(guards) if guards else "unguarded"
            lines.append(f"  fort {number + 1} {banner} · {state}{shield_text} · {guarded}")
        rolled = [f"{die['colour']} {die['value']} ({die['use']})" for die in dice]
        lines.append("  dice: " + (" ".join(rolled) or "none"))
        hand = player.get("hand")
        if isinstance(hand, list):
            lines.append("  " + listed("hand", [dragoborne_card(card, sheet) for card in hand], "empty"))
        else:
            known = [dragoborne_card(card, sheet) for card in player.get("known") or []]
            lines.append(f"  hand: {closed_hand(hand, known, 'known')}")
        lines.extend(rest(player, DRAGOBORNE_PLAYER, sheet, 1))
    if view.get("result"):
        lines.append(_outcome(view["result"], sheet))
    return lines + rest(view, DRAGOBORNE_KNOWN, sheet, 0)


# -- stomping-grounds -------------------------------------------------------------------

STOMPING_KNOWN = (
    "phase",
    "active",
    "first",
    "turn",
    "round",
    "turn_limit",
    "rules",
    "closing",
    "to_act",
    "realms",
    "realm_limit",
    "players",
    "stack",
    "priority",
    "owed",
    "flight_path",
    "attempted",
    "outcome",
)
STOMPING_PLAYER = (
    "seat",
    "deck_key",
    "dragon_name",
    "deck",
    "hand",
    "revealed_hand",
    "stash",
    "junk",
    "burned",
    "hoard",
    "dragon",
    "luck_bonus",
    "extra_luck",
    "remaining",
)


def stomping_card(card_id: Any, rules: int) -> str:
    """``Tame the Wild Boar (challenge red 4, cost 0, luck 1)``: the numbers printed on it."""
    from games.stomping_grounds.cards import card

    try:
        printed = card(card_id, rules)
    except (KeyError, IndexError):
        return titled(card_id)
    numbers = [printed.type]
    if printed.kind:
        numbers[0] += f" {printed.kind}"
    if printed.number is not None:
        numbers.append(f"{printed.colour or ''} {printed.number}".strip())
    if printed.cost:
        numbers.append(f"cost {printed.cost}")
    if printed.luck:
        numbers.append(f"luck {printed.luck}")
    return f"{printed.name} ({', '.join(numbers)})"


def _stomping_name(card_id: Any, rules: int) -> str:
    from games.stomping_grounds.cards import card

    try:
        return card(card_id, rules).name
    except (KeyError, IndexError):
        return titled(card_id)


def draw_stomping_grounds(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    shown_rules = view.get("rules")
    rules = shown_rules if isinstance(shown_rules, int) else sheet.rules
    you = next((p["seat"] for p in view["players"] if isinstance(p.get("hand"), list)), None)
    lines = [
        header(
            view,
            sheet,
            f"round {view['round']}" + (f"/{view['turn_limit']}" if view.get("turn_limit") else ""),
            f"phase {view['phase']}",
            f"active {sheet.seat(view['active'])}" if view.get("active") is not None else None,
            f"priority {sheet.seat(view['priority'])}" if view.get("priority") is not None else None,
            f"realms {len(view['realms'])}/{view.get('realm_limit')}",
            "closing" if view.get("closing") else None,
        )
    ]
    for item in view.get("stack") or []:
        lines.append(
            sheet.paint(
                f"on the stack: {item['kind']}"
                + (f" {_stomping_name(item['card'], rules)}" if item.get("card") else "")
                + (f" vs {sheet.seat(item['opponent'])}" if item.get("opponent") is not None else "")
                + (f" ({item['colour']})" if item.get("colour") else "")
                + (" — cancelled" if item.get("cancelled") else ""),
                YELLOW,
            )
        )
    for owed in view.get("owed") or []:
        lines.append(f"owed: {sheet.seat(owed['seat'])} {owed['kind']} {owed['count']}")
    lines.extend(_realm_map(view, sheet))
    for realm in view["realms"]:
        challenge = realm.get("challenge")
        text = (
            f"  ({realm['at'][0]},{realm['at'][1]}) {realm['name']} [{realm['kind']}, {realm['border']}]"
            f" of {sheet.seat(realm['owner'])}"
            + (" · razed" if realm.get("razed") else "")
            + (" · dragons " + ", ".join(sheet.seat(seat) for seat in realm["dragons"]) if realm.get("dragons") else "")
        )
        if challenge:
            text += (
                f" · challenge {challenge['name']} {challenge['colour']} {challenge['number']}"
                + (f" roam {challenge['roam']}" if challenge.get("roam") else "")
                + f" ({sheet.seat(challenge.get('controller'))})"
            )
        lines.append(text)
    for player in view["players"]:
        index = player["seat"]
        lines.append(
            seat_line(
                index,
                view,
                sheet,
                you,
                player.get("dragon_name"),
                _dragon_at(player.get("dragon")),
                f"cards left {player['remaining']}",
                f"deck {player['deck']}",
                f"stash {len(player.get('stash') or [])}",
                f"junk {len(player.get('junk') or [])}",
                f"burned {len(player.get('burned') or [])}",
                f"luck +{player['luck_bonus']}" if player.get("luck_bonus") else None,
            )
        )
        hand = player.get("hand")
        if isinstance(hand, list):
            lines.append("  " + listed("hand", [stomping_card(c, rules) for c in hand], "empty"))
        else:
            seen = [stomping_card(c, rules) for c in player.get("revealed_hand") or []]
            lines.append(f"  hand: {closed_hand(hand, seen, 'seen')}")
        if player.get("hoard"):
            lines.append("  " + listed("hoard", [stomping_card(c, rules) for c in player["hoard"]]))
        lines.extend(rest(player, STOMPING_PLAYER, sheet, 1))
    if view.get("outcome"):
        lines.append(_outcome(view["outcome"], sheet))
    return lines + rest(view, STOMPING_KNOWN, sheet, 0)


def _dragon_at(at: Any) -> str:
    return f"dragon at ({at[0]},{at[1]})" if at else "dragon not placed"


def _realm_map(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    """The realms as a grid, north up: the owner's seat number, ``x`` razed, ``*`` a dragon."""
    realms = {tuple(realm["at"]): realm for realm in view["realms"]}
    if not realms:
        return ["realms: none yet"]
    xs = [x for x, _ in realms]
    ys = [y for _, y in realms]
    path = {tuple(step) for step in view.get("flight_path") or []}
    lines = ["realms (owner seat; x razed; * dragon; ~ flight path):"]
    for y in range(max(ys), min(ys) - 1, -1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            realm = realms.get((x, y))
            if realm is None:
                row.append("  .   ")
                continue
            cell = f"{realm['owner'] + 1}" if isinstance(realm.get("owner"), int) else "?"
            cell += "x" if realm.get("razed") else ""
            cell += "*" if realm.get("dragons") else ""
            cell += "~" if (x, y) in path else ""
            row.append(f"[{cell:<4}]")
        lines.append("  " + "".join(row).rstrip())
    return lines


DRAWINGS: dict[str, Drawing] = {
    "fortress-siege": draw_fortress_siege,
    "fortress-royals": draw_fortress_royals,
    "dragon-fortress": draw_dragon_fortress,
    "dragoborne": draw_dragoborne,
    "stomping-grounds": draw_stomping_grounds,
}
