"""The words a kind's ``view_schema`` is written in: small builders of JSON Schema.

Each game package writes the shape of its view beside the ``view`` that builds it (in its
``view.py``), so the contract's ``View_<kind>`` is what the code says a view holds, not what
some sampled games happened to show. ``service.spec_gen`` copies it into openapi.yaml;
``tests/games/contract.py`` and ``tests/games/test_contract.py`` check every view of
thousands of random games against it. Objects are closed (``additionalProperties: false``)
and every property is required unless named optional, so a field a view gains or loses
fails those checks until its schema says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Schema = dict[str, Any]

INTEGER: Schema = {"type": "integer"}
NUMBER: Schema = {"type": "number"}
STRING: Schema = {"type": "string"}
BOOLEAN: Schema = {"type": "boolean"}
SEAT: Schema = {"type": "integer", "minimum": 0}
OUTCOME: Schema = {"$ref": "#/components/schemas/Outcome"}


def described(schema: Schema, description: str) -> Schema:
    return {**schema, "description": description}


def choice(*values: str) -> Schema:
    return {"type": "string", "enum": list(values)}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def pair(items: Schema) -> Schema:
    """A position or any other two-item list."""
    return {"type": "array", "items": items, "minItems": 2, "maxItems": 2}


def nullable(schema: Schema) -> Schema:
    """``schema`` or ``null``."""
    kind = schema.get("type")
    if isinstance(kind, str) and "$ref" not in schema:
        out = {**schema, "type": [kind, "null"]}
        if "enum" in schema:
            out["enum"] = [*schema["enum"], None]
        return out
    return {"oneOf": [{"type": "null"}, schema]}


def either(*schemas: Schema) -> Schema:
    """Exactly one of ``schemas`` (they must not overlap)."""
    return {"oneOf": list(schemas)}


def record(properties: Mapping[str, Schema], optional: Iterable[str] = (), description: str = "") -> Schema:
    """A closed object: these properties, each required but those named ``optional``."""
    left_out = set(optional)
    assert left_out <= set(properties), f"optional names no property: {sorted(left_out - set(properties))}"
    out: Schema = {"type": "object"}
    if description:
        out["description"] = description
    out["additionalProperties"] = False
    out["required"] = [name for name in properties if name not in left_out]
    out["properties"] = dict(properties)
    return out


def mapping(values: Schema, description: str) -> Schema:
    """An object keyed by names the data chooses (cards, piles), each holding ``values``."""
    return {"type": "object", "description": description, "additionalProperties": values}


def action_of(kind: str) -> Schema:
    """One of ``kind``'s actions, as the contract types them (``Action_<kind>``)."""
    return {"$ref": "#/components/schemas/Action_" + kind.replace("-", "_")}
