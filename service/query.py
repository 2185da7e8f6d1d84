"""Query parameters a route takes, read from the OpenAPI document: anything else in a
``/v1`` request's query string is refused, naming it (``?player=ann`` on the games list
would otherwise be ignored, and the client would believe it had filtered)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from service import yamltext

_FLASK_PARAMETER = re.compile(r"<(?:[^<>]*:)?([^<>:]+)>")


def spec_path(rule: str) -> str:
    """``/v1/games/<game_id>/history/<int:version>`` -> ``/v1/games/{game_id}/history/{version}``."""
    return _FLASK_PARAMETER.sub(r"{\1}", rule)


@cache
def allowed(spec_text: str) -> dict[tuple[str, str], frozenset[str]]:
    """(path, method) -> the query parameters the spec names for it."""
    spec = yamltext.load(spec_text)
    shared = spec.get("components", {}).get("parameters", {})
    out: dict[tuple[str, str], frozenset[str]] = {}
    for path, operations in spec.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            names = set()
            for parameter in operation.get("parameters", []):
                parameter = _resolve(parameter, shared)
                if parameter.get("in") == "query":
                    names.add(parameter["name"])
            out[path, method.upper()] = frozenset(names)
    return out


def unknown(spec_text: str, rule: str, method: str, given: list[str]) -> tuple[list[str], frozenset[str]] | None:
    """The parameters in ``given`` that the route does not take (and those it does), or None."""
    if method == "HEAD":
        method = "GET"
    known = allowed(spec_text).get((spec_path(rule), method))
    if known is None:
        return None
    extra = sorted(set(given) - known)
    return (extra, known) if extra else None


def _resolve(parameter: dict[str, Any], shared: dict[str, Any]) -> dict[str, Any]:
    ref = parameter.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/parameters/"):
        return dict(shared[ref.rsplit("/", 1)[1]])
    return parameter
