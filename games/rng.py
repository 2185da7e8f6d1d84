"""Seeds, and the random draws derived from them.

A game's secret seed is drawn from ``secrets`` when it is created, published as
``sha256(seed)`` and revealed when it ends. Deciding the command whose first event
is version N draws from a generator labelled ``v<N>``, so an audit re-running
``decide`` gets the same draws, and anyone holding the seed re-derives every one.

Two recipes exist. Games created now use ``Draws`` (recipe 2), written so that any
language can follow it (``docs/verification.md``, with test vectors):

* Draw k of label L (k = 0, 1, ...) has its own label ``L/k`` and its own byte stream:
  the concatenation of ``HMAC-SHA256(seed, "tablestream/draw/2\\n<label>\\n<i>")`` for
  i = 0, 1, 2, ... (seed and message as UTF-8).
* An integer below n (n >= 1): 0 when n is 1; else with b = bit length of n - 1,
  read ceil(b / 8) bytes big-endian, keep the low b bits, and start again when the
  result is n or more.
* A shuffle sorts the items by the UTF-8 bytes of their canonical JSON, then for
  i = len - 1 down to 1 swaps item i with item j, j the integer below i + 1.
* Every draw is recorded (label, what was drawn and its result) in ``draws``; the
  command handler writes that record into the log beside the action.

Games created before keep recipe 1: ``random.Random`` seeded with the integer of
``HMAC-SHA256(seed, "v<N>")``. Bots take their own randomness from ``keyed_rng``
(recipe 1 too: a bot's choice is not a random outcome of the game).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections.abc import Iterator, Mapping, MutableSequence, Sequence
from typing import Any, TypeVar

RECIPE = 2
_Item = TypeVar("_Item")


def commitment(seed: str) -> str:
    """The public commitment to a seed: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode()).hexdigest()


def derive_rng(seed: str, version: int, recipe: int = RECIPE) -> random.Random:
    """The generator for deciding the command whose first event is ``version``."""
    if recipe == 1:
        return keyed_rng(seed, f"v{version}")
    return Draws(seed, f"v{version}")


def keyed_rng(seed: str, label: str) -> random.Random:
    """A generator seeded with ``HMAC-SHA256(seed, label)``: unpredictable without the
    seed, the same again for the same seed and label."""
    digest = hmac.new(seed.encode(), label.encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def byte_stream(seed: str, label: str) -> Iterator[int]:
    """The bytes of one draw's stream, one at a time."""
    counter = 0
    while True:
        message = f"tablestream/draw/2\n{label}\n{counter}".encode()
        yield from hmac.new(seed.encode(), message, hashlib.sha256).digest()
        counter += 1


def below(n: int, stream: Iterator[int]) -> int:
    """An integer in ``[0, n)`` by rejection sampling from ``stream``."""
    if n < 1:
        raise ValueError("cannot draw below a number under 1")
    if n == 1:
        return 0
    bits = (n - 1).bit_length()
    width = (bits + 7) // 8
    mask = (1 << bits) - 1
    while True:
        value = int.from_bytes(bytes(next(stream) for _ in range(width)), "big") & mask
        if value < n:
            return value


def sort_key(item: Any) -> bytes:
    return json.dumps(item, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def fisher_yates(items: Sequence[_Item], stream: Iterator[int]) -> list[_Item]:
    """``items`` in sorted order, then shuffled from the last place down."""
    out = sorted(items, key=sort_key)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1, stream)
        out[i], out[j] = out[j], out[i]
    return out


class Draws(random.Random):
    """Recipe 2: the few draws the games make, each from its own labelled stream and
    recorded. Anything else ``random.Random`` offers is refused: it is not in the recipe."""

    def __init__(self, seed: str, label: str) -> None:
        super().__init__(0)
        self._seed = seed
        self.label = label
        self.draws: list[dict[str, Any]] = []

    def _next(self) -> tuple[str, Iterator[int]]:
        label = f"{self.label}/{len(self.draws)}"
        return label, byte_stream(self._seed, label)

    def _integer(self, low: int, high: int) -> int:
        label, stream = self._next()
        value = low + below(high - low + 1, stream)
        self.draws.append({"label": label, "integer": [low, high], "result": value})
        return value

    def shuffle(self, x: MutableSequence[Any]) -> None:
        label, stream = self._next()
        out = fisher_yates(list(x), stream)
        self.draws.append({"label": label, "shuffle": len(out), "result": list(out)})
        x[:] = out

    def randint(self, a: int, b: int) -> int:
        return self._integer(a, b)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        if step != 1 or stop <= start:
            raise ValueError("the recipe draws from a non-empty range with step 1")
        return self._integer(start, stop - 1)

    def choice(self, seq: Sequence[_Item]) -> _Item:  # type: ignore[override]
        return seq[self._integer(0, len(seq) - 1)]

    def sample(self, population: Sequence[_Item], k: int, *, counts: Any = None) -> list[_Item]:
        if counts is not None or not 0 <= k <= len(population):
            raise ValueError("the recipe samples 0 to len(population) items, without counts")
        items = list(population)
        self.shuffle(items)
        return items[:k]

    def random(self) -> float:
        raise TypeError("random() is not in the draw recipe: use randint, randrange, choice, shuffle or sample")

    def getrandbits(self, k: int) -> int:
        raise TypeError("getrandbits() is not in the draw recipe")


def redraw(seed: str, draw: Mapping[str, Any]) -> Any:
    """What ``seed`` gives for a recorded draw of recipe 2 (its label, and its range or the
    items it shuffled): equal to the record's ``result`` when the record is honest."""
    stream = byte_stream(seed, str(draw["label"]))
    if "integer" in draw:
        low, high = draw["integer"]
        return low + below(high - low + 1, stream)
    return fisher_yates(list(draw["result"]), stream)
