"""Seeds and the per-version random generators derived from them.

A game's secret seed is drawn from ``secrets`` when it is created, published as
``sha256(seed)`` and revealed when it ends. The generator used to decide version N
is ``random.Random`` seeded with ``HMAC-SHA256(seed, "v<N>")``, so anyone holding the
seed re-derives every shuffle, and an audit re-running ``decide`` gets the same draw.
"""

from __future__ import annotations

import hashlib
import hmac
import random


def commitment(seed: str) -> str:
    """The public commitment to a seed: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode()).hexdigest()


def derive_rng(seed: str, version: int) -> random.Random:
    """The generator for deciding the command whose first event is ``version``."""
    return keyed_rng(seed, f"v{version}")


def keyed_rng(seed: str, label: str) -> random.Random:
    """A generator seeded with ``HMAC-SHA256(seed, label)``: unpredictable without the
    seed, the same again for the same seed and label."""
    digest = hmac.new(seed.encode(), label.encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))
