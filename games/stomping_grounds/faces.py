"""Card faces for the web client: every card of the four decks with the numbers a player
judges it by and what it does in a short sentence, built from the card data (``cards.py``)
as the current rules revision prints it. The sentence is written from the effect
primitives, not copied from the data's ``text``, so it always says what the rules do.

Keyed by card slug: a card id ``s<seat>-<slug>-<copy>`` loses its seat and copy, and
the setup's realm choices (``place_realm``, ``search``) name the slug itself."""

from __future__ import annotations

from games.base import JSON

from .cards import CARDS_BY_RULES, Card, Effect

DECK_COLOUR = {"ember": "red", "ivory": "white", "moss": "green", "tide": "blue"}
TYPE_NAME = {"realm": "Realm", "challenge": "Challenge", "hoard": "Hoard", "action": "Action"}


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _times(n: int) -> str:
    return "once more" if n == 1 else f"{n} more times"


def _effect(e: Effect) -> str:
    """One primitive in words, as an order to ``you`` (its target named when not you)."""
    n = e.n
    who = {"self": "", "controller": "the challenge's owner: ", "active": "the active player: "}.get(e.target, "")
    if e.target == "opponents":
        who = "each opponent: "
    match e.op:
        case "burn":
            text = f"burn {_cards(n)}"
        case "stash":
            text = f"stash {_cards(n)}"
        case "draw":
            text = f"draw {_cards(n)}"
        case "junk":
            text = f"move {_cards(n)} from the stash to the junk"
        case "return":
            text = f"move {_cards(n)} from the burn pile back to the junk"
        case "raze":
            text = "raze a realm" if n == 1 else f"raze {n} realms"
        case "move_dragon":
            text = "move any dragon to a realm next to it"
        case "luck":
            text = f"luck {n:+d} in challenges this turn"
        case "draw_luck":
            text = f"draw luck {_times(n)} in challenges this turn"
        case "roam":
            text = f"move one of your challenges up to {n} spaces"
        case "cancel":
            text = "cancel the challenge or dragon challenge waiting on the stack"
        case "search":
            text = f"take a {e.card_type} from your deck and put it into play, then shuffle"
        case "break":
            limit = f" costing {e.max_cost} or less" if e.max_cost is not None else ""
            text = f"put an opponent's hoard{limit} into its owner's junk"
        case _:
            text = e.op
    return who + text


def _sentence(effects: tuple[Effect, ...], capital: bool = True) -> str:
    out = "; ".join(_effect(e) for e in effects)
    return out[:1].upper() + out[1:] if capital else out


WHEN = {
    "your_start": "At the start of your turn",
    "each_start": "At the start of every turn",
    "your_end": "At the end of your turn",
    "each_end": "At the end of every turn",
}
TIMING = {
    "reclaim": "Play in your reclaim phase.",
    "challenge": "Play in your challenge, dragon challenge or reclaim phase.",
    "opponent": "Play on another dragon's turn, when you may respond.",
}


def card_text(c: Card) -> str | None:
    """What the card does, in our words; None for a realm with no text."""
    parts: list[str] = []
    if c.requires:
        parts.append(f"Needs {c.requires} in your hoard.")
    if c.type == "challenge":
        if c.play_on_kind or c.play_on_unoccupied:
            where = f"a {c.play_on_kind}" if c.play_on_kind else "a realm"
            parts.append(f"Only on {where}{' no dragon is on' if c.play_on_unoccupied else ''}.")
        if c.effect:
            parts.append(f"Win (luck {c.number}+): {_sentence(c.effect, False)}.")
        if c.roam:
            parts.append(f"Roams up to {c.roam} {'space' if c.roam == 1 else 'spaces'}.")
    elif c.effect:
        parts.append(_sentence(c.effect) + ".")
    if c.landing:
        parts.append(f"A dragon landing here: {_sentence(c.landing, False)}.")
    if c.trigger_when is not None and c.trigger:
        parts.append(f"{WHEN[c.trigger_when]}: {_sentence(c.trigger, False)}.")
    if c.bonus_colour is not None and c.bonus_luck:
        parts.append(f"Luck {c.bonus_luck:+d} in {c.bonus_colour} challenges.")
    if c.type == "action":
        parts.append(TIMING[c.timing])
    return " ".join(parts) or None


def _stats(c: Card) -> list[dict[str, JSON]]:
    stats: list[dict[str, JSON]] = []
    if c.type == "challenge":
        stats.append({"label": "Needs", "value": c.number})
    if c.type in ("hoard", "action") or c.cost:
        stats.append({"label": "Cost", "value": c.cost})
    stats.append({"label": "Luck", "value": c.luck})
    if c.roam:
        stats.append({"label": "Roam", "value": c.roam})
    if c.border is not None:
        stats.append({"label": "Border", "value": c.border})
    return stats


def face(c: Card) -> dict[str, JSON]:
    kind = f" ({c.kind})" if c.kind else ""
    colour = f" {c.colour}" if c.colour else ""
    return {
        "name": c.name,
        "type": f"{TYPE_NAME[c.type]}{colour}{kind}".replace("Challenge ", "Challenge, "),
        "colour": c.colour or DECK_COLOUR.get(c.deck),
        "deck": c.deck,
        "stats": _stats(c),
        "text": card_text(c),
    }


def card_faces(rules: int) -> dict[str, dict[str, JSON]]:
    """Every card of the four decks as ``rules`` (a rules revision) prints it, by slug."""
    return {slug: face(c) for slug, c in sorted(CARDS_BY_RULES[rules].items())}
