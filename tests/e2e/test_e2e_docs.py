"""``/docs`` in Chromium with every request to another host refused: Redoc renders every
operation of openapi.yaml and its schemas from what this service serves alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service import yamltext

SPEC = yamltext.load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
METHODS = ("get", "put", "post", "delete", "patch")


def test_the_docs_render_every_operation_and_schema_with_other_hosts_refused(page: Any, server: str) -> None:
    refused: list[str] = []

    def refuse_elsewhere(route: Any) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", refuse_elsewhere)
    failed: list[str] = []
    page.on(
        "response",
        lambda response: failed.append(f"{response.status} {response.url}") if response.status >= 400 else None,
    )
    page.goto("/docs")
    operations = [(method, path) for path, ops in SPEC["paths"].items() for method in ops if method in METHODS]
    page.wait_for_selector("[data-section-id^='operation/']", timeout=30_000)
    sections = page.eval_on_selector_all(
        "[data-section-id^='operation/']", "nodes => nodes.map(n => n.getAttribute('data-section-id'))"
    )
    assert len(set(sections)) == len(operations), f"{len(set(sections))} operations shown of {len(operations)}"
    body = page.inner_text("#redoc")
    for method, path in operations:
        assert path in body, f"{method.upper()} {path} is not shown"
    # A schema, drawn: the action's body, every field of it, in the action's section.
    act = SPEC["paths"]["/v1/games/{game_id}/actions"]["post"]
    reference = act["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    schema = SPEC["components"]["schemas"][reference.rsplit("/", 1)[1]]
    section = page.inner_text(f"[data-section-id='operation/{act['operationId']}']")
    assert "request body schema" in section.lower()
    for field in schema["properties"]:
        assert field in section, f"{field} of {reference} is not shown"
    assert "request samples" in body.lower() and "response samples" in body.lower()
    assert refused == [] and page.elsewhere == [], f"requests to other hosts: {refused or page.elsewhere}"
    page.wait_for_load_state("networkidle")
    assert failed == [], f"the page asked for what is not there: {failed}"
