"""Dragoborne card faces (``card_faces``, served by GET /v1/kinds/dragoborne/cards): every
card id a game can hold has a face under the key the client computes from it, and each
face's numbers are those of the card data the rules play by; the final view shows every
hand; the README's "How to play" section is there for the rules page."""

from __future__ import annotations

import random
import re
from importlib import resources

import pytest

from games.dragoborne import GAME
from games.dragoborne.cards import CARDS_2, CARDS_4, DECKS_2, cards_of, key_of
from games.play import random_game
from service.routes.meta import how_to_play

FACES = GAME.card_faces()


def face_key(card_id: str) -> str:
    """The client's ``faceKey`` (service/client/kinds/dragoborne.js): the seat prefix and the
    copy suffix taken off."""
    return re.sub(r"-\d+$", "", re.sub(r"^\d+-", "", card_id))


def dealt_ids(decks: list[str], seed: int) -> list[str]:
    """Every card id of a new game of these pre-built decks: decks (hands included) and banners."""
    events = GAME.setup(GAME.validate_options({"decks": decks}, 2), 2, random.Random(seed))
    started = events[0].data
    return [card for deck in started["decks"] for card in deck] + [b for bs in started["banners"] for b in bs]


@pytest.mark.parametrize("decks", [[a, b] for a in sorted(DECKS_2) for b in sorted(DECKS_2)])
def test_every_card_id_of_a_game_has_a_face_under_the_clients_key(decks: list[str]) -> None:
    ids = dealt_ids(decks, 7)
    assert ids and len(ids) == len(set(ids))
    for card_id in ids:
        assert face_key(card_id) == key_of(card_id)
        face = FACES.get(face_key(card_id))
        assert face is not None, card_id
        assert face["name"] == CARDS_2[key_of(card_id)].name


def test_the_faces_are_the_pool_of_the_current_revision_and_nothing_else() -> None:
    assert GAME.rules_revision == 4
    assert set(FACES) == set(cards_of(GAME.rules_revision))
    assert cards_of(3) is CARDS_2, "revision 3 plays revision 2's pool"
    assert cards_of(4) is CARDS_4, "revision 4 plays revision4.json over revision 2's pool"


@pytest.mark.parametrize("key", sorted(CARDS_4))
def test_a_faces_numbers_and_text_are_the_card_datas(key: str) -> None:
    card = CARDS_4[key]
    face = FACES[key]
    stats = {s["label"]: s["value"] for s in face["stats"]}  # type: ignore[index, union-attr]
    assert face["colour"] == card.colour
    assert face["type"] == card.type.title()
    assert face["text"] == card.text
    effects = face["effects"]
    assert isinstance(effects, dict)
    assert [e["op"] for e in effects.get("spell", [])] == [e.op for e in card.effects]
    assert [e["op"] for e in effects.get("burst", [])] == [e.op for e in card.burst]
    for where, listed in effects.items():
        for shown, printed in zip(listed, card.effect_list(where), strict=True):
            assert shown.get("amount", 0) == printed.amount and shown.get("max_edr", 0) == printed.max_edr
    assert [a["timing"] for a in face["abilities"]] == [a.timing for a in card.abilities]  # type: ignore[union-attr, index]
    if card.type == "banner":
        assert stats == {}
    elif card.type == "spell":
        assert stats == {"Cost": card.cost}
    else:
        assert stats == {"Cost": card.cost, "ATK": card.atk, "EDR": card.edr}


def test_revision_2_numbers_win_over_revision_1s() -> None:
    """A card revision 2 changed shows revision 2's numbers (Mossback Boar 2/1 -> 2/2 is in
    RULINGS.md; the test finds the changed cards from the data, not from a list)."""
    changed = [k for k in CARDS_2 if cards_of(1)[k] != CARDS_2[k] and cards_of(1)[k].edr != CARDS_2[k].edr]
    assert changed
    for key in changed:
        stats = {s["label"]: s["value"] for s in FACES[key]["stats"]}  # type: ignore[index, union-attr]
        assert stats["EDR"] == CARDS_2[key].edr != cards_of(1)[key].edr


def test_the_final_view_shows_every_hand() -> None:
    play = random_game(GAME, 2, random.Random(3), {"decks": ["emberguard", "tidecrypt"]})
    state = play.state
    assert GAME.outcome(state) is not None
    for seat in (0, 1, None):
        shown = GAME.final_view(state, seat)
        for owner, side in enumerate(shown["players"]):
            assert side["hand"] == list(state.sides[owner].hand)
    during = GAME.view(state, 0)
    assert during["players"][1]["hand"] == len(state.sides[1].hand)


def test_the_readme_has_how_to_play_in_our_words() -> None:
    readme = resources.files("games.dragoborne").joinpath("README.md").read_text()
    section = how_to_play(readme)
    for word in ("fort", "barrier", "Dragoshield", "Dragocross", "ATK", "EDR", "Fort Burst", "RULINGS.md"):
        assert word in section, word
    assert "shared/rules" not in readme
