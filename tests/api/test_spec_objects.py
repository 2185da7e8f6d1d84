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


def defaults_in(schema: Any, schemas: dict[str, Any], where: str, seen: set[str]) -> Iterator[str]:
    """The places of ``default`` in ``schema`` and every schema it refers to."""
    if isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from defaults_in(item, schemas, f"{where}/{index}", seen)
        return
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[1]
        if name not in seen:
            seen.add(name)
            yield from defaults_in(schemas[name], schemas, name, seen)
    if "default" in schema:
        yield where
    for key, value in schema.items():
        if key == "properties":  # a map of names to schemas: a property may be called "default"
            for name, sub in value.items():
                yield from defaults_in(sub, schemas, f"{where}/properties/{name}", seen)
        elif key in ("items", "additionalProperties", "oneOf", "anyOf", "allOf", "not"):
            yield from defaults_in(value, schemas, f"{where}/{key}", seen)


def test_no_request_body_declares_a_default() -> None:
    """A property with a default is made required by client generators such as
    openapi-typescript (its ``defaultNonNullable``), so a client would have to send
    ``on_leave`` or a kind's every option: request schemas say their defaults in words."""
    spec = yamltext.load(SPEC.read_text())
    schemas = spec["components"]["schemas"]
    found: list[str] = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}) if isinstance(operation, dict) else {}
            for media in body.get("content", {}).values():
                found += defaults_in(media.get("schema", {}), schemas, f"{method} {path}", set())
    assert found == []


def test_a_default_behind_a_reference_is_found() -> None:
    schemas = {"In": {"type": "object", "properties": {"default": {"type": "string", "default": "x"}}}}
    assert list(defaults_in({"$ref": "#/components/schemas/In"}, schemas, "body", set())) == ["In/properties/default"]
