"""Card faces for the web client: every card a game can hold has one, its numbers are the
card data's (under the current rules revision), and its sentence says what the effect
primitives do. A finished game's view shows every hand."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.play import random_game
from games.stomping_grounds import GAME
from games.stomping_grounds.cards import CARDS_BY_RULES, DECK_KEYS, DECKS, deck_ids
from games.stomping_grounds.faces import card_text

FACES = GAME.card_faces()
PRINTED = CARDS_BY_RULES[GAME.rules_revision]
ID = re.compile(r"^s\d+-(.+)-\d+$")


def face_key(card_id: str) -> str:
    """As the client module's faceKey: a card id loses its seat and its copy."""
    found = ID.match(card_id)
    return found.group(1) if found else card_id


def stats(slug: str) -> dict[str, Any]:
    return {s["label"]: s["value"] for s in FACES[slug]["stats"]}


def test_every_card_of_every_deck_at_every_seat_has_a_face() -> None:
    for seat in range(GAME.max_players):
        for key in DECK_KEYS:
            for card_id in deck_ids(seat, key):
                assert face_key(card_id) in FACES, card_id
    assert set(FACES) == {slug for key in DECK_KEYS for slug in DECKS[key]}


def test_every_id_a_played_game_shows_has_a_face() -> None:
    play = random_game(GAME, 3, random.Random(5), {"turn_limit": 2})
    assert GAME.outcome(play.state) is not None
    seen: set[str] = set()
    for event in play.events:
        for value in event.data.values():
            items = value if isinstance(value, list) else [value]
            seen.update(v for v in items if isinstance(v, str) and v.startswith("s") and v[1:2].isdigit())
    assert seen, "the game named no card"
    assert all(face_key(c) in FACES for c in seen)


@pytest.mark.parametrize("slug", sorted(PRINTED))
def test_the_numbers_are_the_card_data(slug: str) -> None:
    card, face, shown = PRINTED[slug], FACES[slug], stats(slug)
    assert face["name"] == card.name
    assert shown["Luck"] == card.luck
    assert shown.get("Cost", 0) == card.cost
    if card.type in ("hoard", "action"):
        assert "Cost" in shown
    assert shown.get("Needs") == card.number
    assert shown.get("Roam", 0) == card.roam
    assert shown.get("Border") == card.border
    assert face["type"].lower().startswith(card.type)
    if card.type == "challenge":
        assert face["colour"] == card.colour
    assert face["text"] == card_text(card)


def test_faces_follow_the_current_rules_revision() -> None:
    changed = [slug for slug in PRINTED if PRINTED[slug].luck != CARDS_BY_RULES[1][slug].luck]
    assert changed, "revision 2 changes some luck numbers"
    for slug in changed:
        assert stats(slug)["Luck"] == PRINTED[slug].luck != CARDS_BY_RULES[1][slug].luck


def test_the_sentences_say_what_the_effects_do() -> None:
    assert FACES["burn-down-the-farm"]["text"] == "Win (luck 5+): burn 2 cards."
    assert FACES["charred-orchard"]["text"] is None
    assert "Needs Red Dragonscale in your hoard." in FACES["dragonfire-torrent"]["text"]
    assert FACES["red-dragonscale"]["text"] == "Luck +1 in red challenges."
    assert "Only on a Town no dragon is on." in FACES["saint-george-dragonslayer"]["text"]
    assert FACES["smoldering-lair"]["text"] == "A dragon landing here: stash 2 cards."
    assert FACES["molten-crown"]["text"] == "At the end of your turn: burn 1 card."
    for slug, card in PRINTED.items():
        text = FACES[slug]["text"] or ""
        for effect in (*card.effect, *card.landing, *card.trigger):
            if effect.op in ("burn", "stash", "draw"):
                n = effect.n
                assert f"{effect.op} {n} card{'s' if n != 1 else ''}" in text.lower(), (slug, text)
        if card.type == "action":
            assert text.endswith(".") and "Play " in text


def test_a_finished_game_shows_every_hand() -> None:
    play = random_game(GAME, 3, random.Random(11), {"turn_limit": 1})
    assert GAME.outcome(play.state) is not None
    for viewer in (None, 0, 1):
        shown = GAME.final_view(play.state, viewer)
        for seat, player in enumerate(shown["players"]):
            assert player["hand"] == list(play.state.players[seat].hand)
