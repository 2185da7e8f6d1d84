"""The draw recipe and commitments as docs/verification.md states them: its test vectors
hold for the code the service runs, every draw is recorded with its label, and nothing
outside the recipe can be drawn."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from events.commitments import commitment, open_problem, salt, seal
from events.envelope import NewEvent, canonical_json, chain
from games.rng import Draws, below, byte_stream, derive_rng, fisher_yates
from games.rng import commitment as seed_commitment

SEED = "5eed" * 16


def test_the_specs_test_vectors_hold() -> None:
    assert seed_commitment(SEED) == "9619e2c3275e1e8be9ca29f0d7e0668cfdc675efcac99dbfa3ed48872c69809f"
    block = hmac.new(SEED.encode(), b"tablestream/draw/2\nv7/0\n0", hashlib.sha256).hexdigest()
    assert block == "d6e421331441275e89af0a09f9f0a0cd96845535ef885cff7408328aa700c44f"
    assert bytes(next(byte_stream(SEED, "v7/0")) for _ in range(1)).hex() == block[:2]
    assert below(6, byte_stream(SEED, "v7/0")) == 4
    assert below(52, byte_stream(SEED, "v7/1")) == 42
    assert below(1000, byte_stream(SEED, "v7/2")) == 768
    cards = ["AS", "KH", "QD", "JC", "10S", "9H", "2C", "AD"]
    assert fisher_yates(cards, byte_stream(SEED, "v1/0")) == ["2C", "9H", "JC", "QD", "AS", "KH", "10S", "AD"]
    card_salt = salt(SEED, 5, ("card",))
    assert card_salt.hex() == "6756e7cb28ddc865a3390742fd96fcf629b1eabba07b4695f5c1ddb13e2550f8"
    assert commitment(card_salt, "QH") == "4d76819fa2edd233ab00223eb0602b59bf984e78a8982206adf8986afba41228"
    hand_salt = salt(SEED, 9, ("hands", 1))
    assert hand_salt.hex() == "00976029ad43f4dd1988ce7c70930433c02eacb2caca817603fd9674d61206c0"
    assert commitment(hand_salt, ["2C", "KD"]) == "a94352f52e53d0efb47dba01ba856c69e2b129a37f1d06c09d43a4260f11ea09"
    full = {"seat": 1, "card": "QH"}
    sealed = seal(full, {"seat": 1}, SEED, 5)
    (event,) = chain(
        [NewEvent("CardDrawn", full, 1, "human", sealed)], 5, "a" * 64, "2026-11-23T12:00:00.000Z", "seat-1:k1"
    )
    assert canonical_json(event.body()) == (
        '{"actor":"human","at":"2026-11-23T12:00:00.000Z","command_id":"seat-1:k1","data":{"card":{"$commit":'
        '"4d76819fa2edd233ab00223eb0602b59bf984e78a8982206adf8986afba41228"},"seat":1},"schema":2,"seat":1,'
        '"type":"CardDrawn","version":5}'
    )
    assert event.hash == "a60c5e4a4b243c6892f071dfa745eb27b5491a2521737d23f396b6e9426606b2"


def test_a_shuffle_depends_on_which_items_not_on_their_order() -> None:
    one, other = ["b", "a", "c", "d"], ["d", "c", "b", "a"]
    Draws(SEED, "v3").shuffle(one)
    Draws(SEED, "v3").shuffle(other)
    assert one == other


def test_every_draw_is_recorded_with_its_own_label_in_order() -> None:
    rng = Draws(SEED, "v12")
    deck = ["x", "y", "z"]
    rng.shuffle(deck)
    die = rng.randint(1, 6)
    picked = rng.choice(["p", "q", "r", "s"])
    first = rng.randrange(3)
    assert [d["label"] for d in rng.draws] == ["v12/0", "v12/1", "v12/2", "v12/3"]
    assert rng.draws[0] == {"label": "v12/0", "shuffle": 3, "result": deck}
    assert rng.draws[1] == {"label": "v12/1", "integer": [1, 6], "result": die}
    assert rng.draws[2]["integer"] == [0, 3] and ["p", "q", "r", "s"][rng.draws[2]["result"]] == picked
    assert rng.draws[3] == {"label": "v12/3", "integer": [0, 2], "result": first}
    assert die == 1 + below(6, byte_stream(SEED, "v12/1"))


def test_anything_outside_the_recipe_is_refused() -> None:
    rng = derive_rng(SEED, 4)
    with pytest.raises(TypeError):
        rng.random()
    with pytest.raises(TypeError):
        rng.uniform(0, 1)
    with pytest.raises(ValueError):
        rng.randrange(0, 10, 2)


def test_a_seal_commits_only_what_the_spectator_does_not_see_and_opens_with_the_seed() -> None:
    full = {"seat": 0, "hands": [["2C", "KD"], ["AS"]], "deck": ["QH", "JH"], "round": 2}
    public = {"seat": 0, "hands": [2, 1], "count": 2, "round": 2}
    sealed = seal(full, public, SEED, 9)
    assert sealed is not None
    assert sealed["seat"] == 0 and sealed["round"] == 2
    assert sealed["hands"][1] == {"$commit": commitment(salt(SEED, 9, ("hands", 1)), ["AS"])}
    assert set(sealed["deck"]) == {"$commit"} and "count" not in sealed
    assert open_problem(sealed, full, SEED, 9) is None
    swapped = {**full, "hands": [["2C", "KD"], ["AH"]]}
    assert "does not open" in (open_problem(sealed, swapped, SEED, 9) or "")
    assert seal(full, full, SEED, 9) is None
