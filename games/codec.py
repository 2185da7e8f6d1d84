"""A JSON codec for game states: frozen dataclasses, tuples, frozensets, enums and
plain values. A fork carries its starting state in its first event through it.

Decoding builds only dataclasses and enums defined in game modules (``games.*``,
or modules registered with ``allow``), never an arbitrary callable, so a state
read back from a log cannot run code.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
from typing import Any

_ALLOWED_PREFIXES = ["games."]


def allow(module_prefix: str) -> None:
    """Let ``decode`` build classes from modules starting with ``module_prefix``."""
    if module_prefix not in _ALLOWED_PREFIXES:
        _ALLOWED_PREFIXES.append(module_prefix)


def encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return {"$enum": _name(type(value)), "value": encode(value.value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"$dc": _name(type(value)), "fields": fields}
    if isinstance(value, tuple):
        return {"$tuple": [encode(v) for v in value]}
    if isinstance(value, (frozenset, set)):
        items = sorted((encode(v) for v in value), key=repr)
        return {"$frozenset" if isinstance(value, frozenset) else "$set": items}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"$dict": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError(f"cannot encode a {type(value).__name__} in a game state")


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$dc" in value:
        cls = _resolve(value["$dc"])
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise ValueError(f"{value['$dc']} is not a dataclass")
        return cls(**{k: decode(v) for k, v in value["fields"].items()})
    if "$enum" in value:
        cls = _resolve(value["$enum"])
        if not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
            raise ValueError(f"{value['$enum']} is not an enum")
        return cls(decode(value["value"]))
    if "$tuple" in value:
        return tuple(decode(v) for v in value["$tuple"])
    if "$frozenset" in value:
        return frozenset(decode(v) for v in value["$frozenset"])
    if "$set" in value:
        return {decode(v) for v in value["$set"]}
    if "$dict" in value:
        return {decode(k): decode(v) for k, v in value["$dict"]}
    return {k: decode(v) for k, v in value.items()}


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _resolve(name: str) -> Any:
    module_name, _, qualname = name.partition(":")
    if not any(module_name.startswith(p) for p in _ALLOWED_PREFIXES):
        raise ValueError(f"{module_name} is not a game module")
    target: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        target = getattr(target, part)
    return target
