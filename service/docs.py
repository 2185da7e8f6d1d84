"""``GET /docs``: ``openapi.yaml`` rendered by Redoc, with no request to another host.

Redoc's standalone bundle is vendored in ``service/vendor/redoc`` and written into the
page itself (its logo's address on a CDN taken out), so ``/docs`` is the only route it
needs (a route per asset would be a route outside the API's description). The page asks
for ``/openapi.yaml`` from this service; a reader without JavaScript gets the list of
operations in ``<noscript>``.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from functools import cache
from importlib import resources
from typing import Any

from service import yamltext

METHODS = ("get", "put", "post", "delete", "patch")
REDOC_OPTIONS = {
    "expandResponses": "200,201,202",
    "jsonSampleExpandLevel": 3,
    "requiredPropsFirst": True,
    "sortPropsAlphabetically": False,
    "pathInMiddlePanel": True,
}


# The one address in Redoc's bundle on another host: its sidebar's logo, from its CDN.
# Given a data URL that is no image, the logo fails to load and Redoc hides it.
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@cache
def redoc_bundle() -> str:
    bundle = resources.files("service").joinpath("vendor/redoc/redoc.standalone.js").read_text()
    assert bundle.count(REDOC_LOGO) == 1, "Redoc's bundle changed: look again for addresses on other hosts"
    return bundle.replace(REDOC_LOGO, "data:,")


def render_docs(spec_text: str) -> str:
    spec = yamltext.load(spec_text)
    info = spec.get("info", {})
    title = html.escape(info.get("title", "API"))
    operations = "".join(
        _operation(path, method, op)
        for path, ops in spec.get("paths", {}).items()
        for method, op in ops.items()
        if method in METHODS
    )
    return "".join(
        [
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            f"<title>{title} API</title>",
            # An icon given in the page: else a browser asks for /favicon.ico, a 404.
            "<link rel='icon' href='/client/icon.svg' type='image/svg+xml'>",
            "<style>body{margin:0}</style></head><body>",
            f"<noscript><h1>{title} {html.escape(str(info.get('version', '')))}</h1>",
            "<p><a href='/openapi.yaml'>openapi.yaml</a></p><ul>",
            operations,
            "</ul></noscript><div id='redoc'></div>",
            f"<script>{redoc_bundle()}</script>",
            "<script>Redoc.init('/openapi.yaml', ",
            json.dumps(REDOC_OPTIONS),
            ", document.getElementById('redoc'))</script></body></html>",
        ]
    )


def etag(page: str) -> str:
    return hashlib.sha256(page.encode()).hexdigest()[:32]


def _operation(path: str, method: str, op: dict[str, Any]) -> str:
    summary = _inline_code(html.escape(op.get("summary", "")))
    return f"<li><b>{method.upper()}</b> <code>{html.escape(path)}</code> {summary}</li>"


def _inline_code(escaped: str) -> str:
    """Markdown's `code` spans, in text already escaped."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)
