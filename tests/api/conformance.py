"""Every answer the API tests get is checked against openapi.yaml as it arrives.

``CheckedClient`` is the Flask test client the API tests use (tests/api/conftest.py sets
it on their app): each JSON or problem+json answer must be one the contract lists for that
route and status, and must fit its schema. So the contract is checked on every route with
every request the suite makes, not only on the examples and schemathesis's requests. The
tests' own tiny game is added to the checker's copy of the contract as one more kind
(``View_tiny``, ``Action_tiny``), the way a server that registers a kind of its own would describe it.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service import yamltext
from tests.tinygame import GAME as TINY

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
JSON_TYPES = ("application/json", "application/problem+json")


@functools.cache
def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = yamltext.load(SPEC.read_text())
    schemas = spec["components"]["schemas"]
    tiny = TINY.view_schema()
    schemas["View_tiny"] = {**tiny, "properties": {"kind": {"enum": ["tiny"]}, **tiny["properties"]}}
    schemas["View_tiny"]["required"] = ["kind", *tiny["required"]]
    schemas["View"]["oneOf"] = [*schemas["View"]["oneOf"], {"$ref": "#/components/schemas/View_tiny"}]
    schemas["View"]["discriminator"]["mapping"]["tiny"] = "#/components/schemas/View_tiny"
    schemas["Action_tiny"] = {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": ["add", "draw"]}, "amount": {"enum": [1, 2]}},
    }
    schemas["Action"]["anyOf"] = [*schemas["Action"]["anyOf"], {"$ref": "#/components/schemas/Action_tiny"}]
    return spec


def contract_with_tiny() -> dict[str, Any]:
    """openapi.yaml with the tests' tiny game as one more kind, a copy of one's own (for a
    schemathesis run on an app that hosts tiny games)."""
    return copy.deepcopy(_spec())


@functools.cache
def _routes() -> list[tuple[re.Pattern[str], str]]:
    """Each path of the contract as a pattern, fixed segments before parameters, so
    ``/v1/games/random`` is not read as a game id."""
    paths = list(_spec()["paths"])
    paths.sort(key=lambda p: [(segment.startswith("{"), segment) for segment in p.split("/")])
    return [(re.compile("^" + re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(p)) + "$"), p) for p in paths]


@functools.cache
def _validator(path: str, method: str, status: str, media: str) -> Any:
    spec = _spec()
    operation = spec["paths"][path][method]
    responses = operation.get("responses", {})
    response = responses.get(status) or responses.get(status[0] + "XX") or responses.get("default")
    if response is None:
        return f"{method.upper()} {path} lists no {status} answer"
    if "$ref" in response:
        response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    content = response.get("content", {})
    described = content.get(media) or (content.get("application/json") if media in JSON_TYPES else None)
    if described is None or "schema" not in described:
        return f"{method.upper()} {path} {status} lists no {media} body"
    return jsonschema_rs.Draft202012Validator({**described["schema"], "components": spec["components"]})


def problems(method: str, path: str, response: TestResponse) -> list[str]:
    """What is wrong with ``response`` to ``method path`` by the contract; [] when nothing."""
    media = (response.mimetype or "").lower()
    if media not in JSON_TYPES or not response.data:
        return []
    template = next((t for pattern, t in _routes() if pattern.match(path)), None)
    if template is None or method.lower() not in _spec()["paths"][template]:
        return []  # a route the contract does not describe answers 404/405: test_spec checks the routes
    check = _validator(template, method.lower(), str(response.status_code), media)
    if isinstance(check, str):
        return [check]
    body = json.loads(response.data)
    return [f"{list(e.instance_path)}: {e.message}" for e in list(check.iter_errors(body))[:5]]


class CheckedClient(FlaskClient):
    """A test client that fails a test on any answer the contract does not describe."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:  # type: ignore[override]
        response = super().open(*args, **kwargs)
        request = response.request
        found = problems(request.method, request.path, response)
        assert found == [], f"{request.method} {request.path} answered {response.status_code} off contract: {found}"
        return response
