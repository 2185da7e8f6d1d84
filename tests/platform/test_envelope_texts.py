"""``chain_encoded`` puts an event's hashed body and stored text together from pieces: both
must stay exactly ``canonical_json`` of ``body()`` and of ``as_dict()``, whatever the data,
the seat, the actor, the stamp or the sealed form hold, or the chain a verifier recomputes
would differ from the one stored."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from events.envelope import (
    GENESIS_HASH,
    Envelope,
    NewEvent,
    canonical_json,
    chain,
    chain_encoded,
    hash_of,
    verify_chain,
)

# JSON values as events carry them, with awkward strings: quotes, escapes, separators
# that look like the envelope's own keys, non-ASCII, control characters.
tricky = st.sampled_from(['","hash":"', '"schema":2,', "\\", "\u2028", "\x00", "é☃", '{"a":1}', ""])
text = st.one_of(st.text(max_size=12), tricky)
json_values: Any = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(-(2**53), 2**53), st.floats(allow_nan=False, allow_infinity=False), text
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
    max_leaves=12,
)
events = st.builds(
    NewEvent,
    type=text,
    data=st.dictionaries(text, json_values, max_size=5),
    seat=st.one_of(st.none(), st.integers(0, 9)),
    actor=text,
    sealed=st.one_of(st.none(), st.dictionaries(text, json_values, max_size=4)),
)


@settings(max_examples=300, deadline=None)
@given(
    batch=st.lists(events, min_size=1, max_size=3),
    first=st.integers(1, 10**6),
    prev=st.one_of(st.just(GENESIS_HASH), st.text(alphabet="0123456789abcdef", min_size=64, max_size=64), text),
    at=text,
    command_id=st.one_of(st.none(), text),
)
def test_the_pieced_texts_are_the_canonical_ones(
    batch: list[NewEvent], first: int, prev: str, at: str, command_id: str | None
) -> None:
    linked = chain_encoded(batch, first, prev, at, command_id)
    previous = prev
    for envelope, stored in linked:
        assert stored == canonical_json(envelope.as_dict())
        assert envelope.hash == hash_of(previous, envelope.body())
        assert Envelope.decode(stored) == envelope
        previous = envelope.hash
    assert [envelope for envelope, _ in linked] == chain(batch, first, prev, at, command_id)


def test_a_log_of_pieced_texts_verifies_and_a_changed_byte_does_not() -> None:
    batch = [
        NewEvent("CardDrawn", {"card": "QH", "note": '","hash":"x'}, 1, "human", {"card": {"c": "ab"}}),
        NewEvent("TurnEnded", {"seat": 1}, None, "system"),
    ]
    stored = [text for _, text in chain_encoded(batch, 1, GENESIS_HASH, "2026-11-24T19:00:00.000Z", "c1")]
    assert verify_chain(enumerate(stored, start=1)).ok
    # The second event hides nothing, so its hash covers its data.
    tampered = [stored[0], stored[1].replace('"data":{"seat":1}', '"data":{"seat":2}')]
    assert tampered[1] != stored[1]
    report = verify_chain(enumerate(tampered, start=1))
    assert not report.ok and report.first_bad_version == 2
