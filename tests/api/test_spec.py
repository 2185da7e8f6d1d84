"""openapi.yaml and the app agree: every route is described, every described route exists,
and schemathesis finds no server error and no response that breaks the spec."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from service import yamltext

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE"}


def app_routes(app: Flask) -> set[tuple[str, str]]:
    routes = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:\w+(?:\([^)]*\))?:)?(\w+)>", r"{\1}", rule.rule)
        for method in (rule.methods or set()) & METHODS:
            routes.add((method, path))
    return routes


def spec_routes() -> set[tuple[str, str]]:
    spec = yamltext.load(SPEC.read_text())
    return {(m.upper(), p) for p, ops in spec["paths"].items() for m in ops if m.upper() in METHODS}


def test_every_route_is_in_the_spec_and_every_spec_route_exists(app: Flask) -> None:
    assert app_routes(app) - spec_routes() == set(), "routes missing from openapi.yaml"
    assert spec_routes() - app_routes(app) == set(), "openapi.yaml describes routes the app lacks"


def test_the_served_spec_is_the_file(app: Flask) -> None:
    served = app.test_client().get("/openapi.yaml")
    assert served.status_code == 200 and served.get_data(as_text=True) == SPEC.read_text()
    docs = app.test_client().get("/docs")
    assert docs.status_code == 200 and "/v1/games/{game_id}/actions" in docs.get_data(as_text=True)


def test_the_docs_name_an_icon_that_is_served(app: Flask) -> None:
    """Without an icon in the page a browser asks for /favicon.ico, which is no route."""
    page = app.test_client().get("/docs").get_data(as_text=True)
    icons = re.findall(r"<link rel='icon' href='([^']+)' type='([^']+)'>", page)
    assert len(icons) == 1, "the docs page names no icon (or several)"
    ((href, media),) = icons
    icon = app.test_client().get(href)
    assert icon.status_code == 200 and icon.mimetype == media


def _admits(schema: dict, value: str) -> bool:
    if "enum" in schema:
        return value in schema["enum"]
    if "pattern" in schema and re.search(schema["pattern"], value) is None:
        return False
    return schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value))


def test_no_path_parameter_admits_a_sibling_route_s_fixed_segment() -> None:
    """A request for /v1/players/me is served by the caller's own profile, never by the
    public profile of a player named "me": every templated segment's schema rejects the
    fixed segment a sibling route has in its place, so no conforming request is routed
    to an operation it does not describe (a fuzzer found 401 on getProfile that way)."""
    spec = yamltext.load(SPEC.read_text())
    found = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if method.upper() not in METHODS:
                continue
            params = {p["name"]: p for p in op.get("parameters", []) if "$ref" not in p and p["in"] == "path"}
            refs = [p["$ref"].rsplit("/", 1)[1] for p in op.get("parameters", []) if "$ref" in p]
            for ref in refs:
                param = spec["components"]["parameters"][ref]
                if param["in"] == "path":
                    params[param["name"]] = param
            segments = path.split("/")
            for other, other_ops in spec["paths"].items():
                theirs = other.split("/")
                if other == path or method not in other_ops or len(theirs) != len(segments):
                    continue
                clashes = []
                for mine, their in zip(segments, theirs, strict=True):
                    if mine == their:
                        continue
                    if mine.startswith("{") and not their.startswith("{"):
                        clashes.append((mine[1:-1], their))
                    else:
                        break
                else:
                    if clashes and all(_admits(params[name]["schema"], fixed) for name, fixed in clashes):
                        found.append(f"{method.upper()} {path} admits {other}")
    assert found == []


def build_app() -> Flask:
    import fakeredis

    from core.config import Config
    from service.app import create_app
    from stores.platform import Platform
    from workers.scheduling import InlineBots
    from workers.wiring import wire

    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6)
    platform = wire(Platform(config, fakeredis.FakeRedis()), bots=False)
    platform.handler.scheduler = InlineBots(platform)
    return create_app(config, platform)


@pytest.fixture
def served_schema(request: pytest.FixtureRequest) -> Any:
    # Schemathesis's lazy run reads and relabels the node's _nodeid, which pytest 9 no
    # longer keeps: given one, its subtests carry each operation's name.
    request.node._nodeid = request.node.nodeid
    return schemathesis.openapi.from_wsgi("/openapi.yaml", build_app())


# Loaded when the test runs, not when it is collected: building every operation's cases
# took each parallel worker about 4 s at collection, for the one worker that runs them.
schema = schemathesis.pytest.from_fixture("served_schema")


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_error_and_every_response_fits_the_spec(case) -> None:  # type: ignore[no-untyped-def]
    if case.path == "/v1/games/{game_id}/events/stream":
        case.headers = {**(case.headers or {}), "Last-Event-ID": "0"}
    # A schema-valid request may still be refused for what no schema can say (a kind's own
    # options, the rules of the game), so that check is left out; every other check stands.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
