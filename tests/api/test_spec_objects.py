"""Every object in openapi.yaml says what it holds.

A schema that is only ``type: object`` (no properties, no additionalProperties, no
composition) is read by client generators such as openapi-typescript as an object that
holds nothing (``Record<string, never>``), so a client could not read the options, the
lifecycle or a notice it is sent. Each such object must either list its properties or
accept any (``additionalProperties: true``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from service import yamltext

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
SAYS_WHAT_IT_HOLDS = ("properties", "additionalProperties", "oneOf", "anyOf", "allOf", "$ref")


def is_an_object_schema(node: dict[str, Any]) -> bool:
    """Whether ``node`` is a schema whose type is (or may be) an object."""
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


def objects_that_hold_nothing(node: Any, where: str = "") -> Iterator[str]:
    """The places in ``node`` of object schemas that say nothing of what they hold."""
    if isinstance(node, dict):
        if is_an_object_schema(node) and not any(key in node for key in SAYS_WHAT_IT_HOLDS):
            yield where or "/"
        for key, value in node.items():
            yield from objects_that_hold_nothing(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from objects_that_hold_nothing(value, f"{where}/{index}")


def test_every_object_on_the_wire_says_what_it_holds() -> None:
    spec = yamltext.load(SPEC.read_text())
    assert list(objects_that_hold_nothing(spec)) == []


def test_an_object_without_properties_is_found() -> None:
    spec = {"a": {"type": ["object", "null"]}, "b": {"type": "object", "additionalProperties": True}}
    assert list(objects_that_hold_nothing(spec)) == ["/a"]
