"""Commitments: how a hidden value enters the hash chain without being testable.

An event whose data hides something from a spectator is hashed over its *sealed* form:
the data with every hidden value ``v`` at path ``p`` (the keys and list indexes leading
to it inside ``data``) replaced by ``{"$commit": hex(sha256(salt || canonical(v)))}``,
where ``salt = HMAC-SHA256(seed, "tablestream/salt/2\\n<version>\\n<canonical(p)>")``.
The salt is secret until the game's seed is revealed, so no guess about ``v`` can be
tested against the commitment; the revealed seed opens every commitment at the end.
``docs/verification.md`` states the rule for verifiers that import nothing of ours.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from typing import Any

from events.envelope import canonical_json

COMMIT = "$commit"
Path = tuple[str | int, ...]


def salt(seed: str, version: int, path: Path) -> bytes:
    message = f"tablestream/salt/2\n{version}\n{canonical_json(list(path))}"
    return hmac.new(seed.encode(), message.encode(), hashlib.sha256).digest()


def commitment(salt_bytes: bytes, value: Any) -> str:
    return hashlib.sha256(salt_bytes + canonical_json(value).encode()).hexdigest()


def is_commitment(value: Any) -> bool:
    return isinstance(value, Mapping) and len(value) == 1 and isinstance(value.get(COMMIT), str)


def seal(full: Mapping[str, Any], public: Mapping[str, Any], seed: str, version: int) -> dict[str, Any] | None:
    """The sealed form of ``full`` given what a spectator sees of it (``public``), or None
    when the spectator sees it whole. Dicts and equal-length lists are compared part by
    part, so only what differs is committed (one hand of several, one card of a list)."""
    if full is public:  # most events: nothing hidden, and the same object handed back
        return None
    hidden: list[Path] = []
    sealed = _seal(full, public, seed, version, (), hidden)
    return sealed if hidden else None


def _seal(full: Any, public: Any, seed: str, version: int, path: Path, hidden: list[Path]) -> Any:
    """``full`` with what differs from ``public`` committed; each committed path is noted in
    ``hidden``. Containers are walked, leaves compared by their canonical text (so that
    ``1`` and ``true`` differ), each byte compared once."""
    if isinstance(full, Mapping) and isinstance(public, Mapping):
        return {
            key: _seal(value, public[key], seed, version, (*path, key), hidden)
            if key in public
            else _commit(value, seed, version, (*path, key), hidden)
            for key, value in full.items()
        }
    if isinstance(full, list) and isinstance(public, list) and len(full) == len(public):
        pairs = enumerate(zip(full, public, strict=True))
        return [_seal(f, p, seed, version, (*path, i), hidden) for i, (f, p) in pairs]
    if full is public or canonical_json(full) == canonical_json(public):
        return full
    return _commit(full, seed, version, path, hidden)


def _commit(value: Any, seed: str, version: int, path: Path, hidden: list[Path]) -> dict[str, str]:
    hidden.append(path)
    return {COMMIT: commitment(salt(seed, version, path), value)}


def commitment_paths(sealed: Any, path: Path = ()) -> list[Path]:
    """Where ``sealed`` holds commitments, in document order."""
    if is_commitment(sealed):
        return [path]
    if isinstance(sealed, Mapping):
        return [p for key, value in sealed.items() for p in commitment_paths(value, (*path, key))]
    if isinstance(sealed, list):
        return [p for i, value in enumerate(sealed) for p in commitment_paths(value, (*path, i))]
    return []


def open_problem(sealed: Any, full: Any, seed: str | None, version: int, path: Path = ()) -> str | None:
    """None when ``full`` is what ``sealed`` commits to under ``seed``; else what differs.
    Without the seed only the parts in the open are compared."""
    if is_commitment(sealed):
        if seed is not None and commitment(salt(seed, version, path), full) != sealed[COMMIT]:
            return f"the commitment at {_spell(path)} does not open to the value shown"
        return None
    if isinstance(sealed, Mapping) and isinstance(full, Mapping):
        if set(sealed) != set(full):
            return f"the data has other fields at {_spell(path)} than the sealed form its hash covers"
        for key, value in sealed.items():
            problem = open_problem(value, full[key], seed, version, (*path, key))
            if problem:
                return problem
        return None
    if isinstance(sealed, list) and isinstance(full, list) and len(sealed) == len(full):
        for i, (s, f) in enumerate(zip(sealed, full, strict=True)):
            problem = open_problem(s, f, seed, version, (*path, i))
            if problem:
                return problem
        return None
    if canonical_json(sealed) != canonical_json(full):
        return f"the data at {_spell(path)} differs from the sealed form its hash covers"
    return None


def located(data: Any, path: Sequence[str | int]) -> tuple[bool, Any]:
    """The value at ``path`` inside ``data`` (object keys as text, list indexes as whole
    numbers), and whether there is one."""
    for part in path:
        if not _holds(data, part):
            return False, None
        data = data[part]
    return True, data


def _holds(data: Any, part: str | int) -> bool:
    if isinstance(data, Mapping):
        return isinstance(part, str) and part in data
    return isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)


def _spell(path: Path) -> str:
    return "data" + "".join(f"[{canonical_json(p)}]" for p in path)
