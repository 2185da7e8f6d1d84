"""Card faces for the web client (``GameBase.card_faces``): every card of the pool as a
player reads it, built from the card data (``cards.json``, with revision 2's entries from
``revision2.json``), keyed by the card's key (``emberhound``), which the client computes
from an instance id (``0-emberhound-2``).

The faces are those of the current rules revision (4, ``revision4.json`` over revision 2's pool): the
pool a new game plays with. A creature's numbers on the board are the view's own
(``atk``/``edr`` with boosts)."""

from __future__ import annotations

from games.base import JSON
from games.dragoborne.cards import Ability, Card, Effect, cards_of

TYPE_NAMES = {"creature": "Creature", "spell": "Spell", "banner": "Banner"}


def stats(card: Card) -> list[JSON]:
    """The numbers that judge a card: its cost, and a creature's ATK and EDR."""
    if card.type == "banner":
        return []
    out: list[JSON] = [{"label": "Cost", "value": card.cost}]
    if card.type == "creature":
        out += [{"label": "ATK", "value": card.atk}, {"label": "EDR", "value": card.edr}]
    return out


def effect(e: Effect) -> dict[str, JSON]:
    """An effect primitive as data (zero fields left out), for the client's words."""
    out: dict[str, JSON] = {"op": e.op}
    for name in ("amount", "max_edr", "card_type", "colour"):
        if getattr(e, name):
            out[name] = getattr(e, name)
    return out


def ability(a: Ability) -> dict[str, JSON]:
    out: dict[str, JSON] = {"timing": a.timing}
    for name in ("trigger", "rest_cost", "resource_cost", "die_cost", "scope", "atk", "edr"):
        if getattr(a, name):
            out[name] = getattr(a, name)
    return out


def face(card: Card) -> dict[str, JSON]:
    """Besides the generic fields: ``effects`` by where they come from (``spell``, ``burst``,
    ``a<n>`` for ability n, as the view's pending steps name them) and ``abilities``, so the
    client names a pending effect and its targets in words."""
    effects: dict[str, JSON] = {}
    if card.effects:
        effects["spell"] = [effect(e) for e in card.effects]
    if card.burst:
        effects["burst"] = [effect(e) for e in card.burst]
    for number, a in enumerate(card.abilities):
        if a.effects:
            effects[f"a{number}"] = [effect(e) for e in a.effects]
    return {
        "name": card.name,
        "type": TYPE_NAMES.get(card.type, card.type.title()),
        "colour": card.colour,
        "stats": stats(card),
        "text": card.text or None,
        "effects": effects,
        "abilities": [ability(a) for a in card.abilities],
    }


def card_faces(rules: int) -> dict[str, dict[str, JSON]]:
    """Every card of the pool of rules revision ``rules``, by key."""
    return {key: face(card) for key, card in sorted(cards_of(rules).items())}
