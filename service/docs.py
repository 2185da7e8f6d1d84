"""``GET /docs``: the OpenAPI spec rendered as a browsable HTML page, with no CDN."""

from __future__ import annotations

import html
from typing import Any

import yaml


def render_docs(spec_text: str) -> str:
    spec = yaml.safe_load(spec_text)
    info = spec.get("info", {})
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{html.escape(info.get('title', 'API'))}</title>",
        "<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
        "code,pre{background:#f4f4f4;padding:.1rem .3rem;border-radius:3px}"
        ".op{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}"
        ".m{font-weight:bold;text-transform:uppercase;margin-right:.5rem}</style></head><body>",
        f"<h1>{html.escape(info.get('title', 'API'))} <small>{html.escape(str(info.get('version', '')))}</small></h1>",
        f"<p>{html.escape(info.get('description', ''))}</p>",
        "<p><a href='/openapi.yaml'>openapi.yaml</a></p>",
    ]
    for path, operations in spec.get("paths", {}).items():
        for method, op in operations.items():
            if method not in ("get", "post", "put", "delete", "patch"):
                continue
            parts.append(_operation(path, method, op))
    parts.append("</body></html>")
    return "".join(parts)


def _operation(path: str, method: str, op: dict[str, Any]) -> str:
    rows = [
        f"<div class='op' id='{html.escape(op.get('operationId', path))}'>",
        f"<h2><span class='m'>{method}</span><code>{html.escape(path)}</code></h2>",
        f"<p>{html.escape(op.get('summary', ''))}</p>",
    ]
    if op.get("description"):
        rows.append(f"<p>{html.escape(op['description'])}</p>")
    responses = op.get("responses", {})
    if responses:
        rows.append("<ul>")
        for status, response in responses.items():
            description = response.get("description", "") if isinstance(response, dict) else ""
            rows.append(f"<li><code>{html.escape(str(status))}</code> {html.escape(description)}</li>")
        rows.append("</ul>")
    rows.append("</div>")
    return "".join(rows)
