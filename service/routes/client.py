"""The reference web client: static ES modules and CSS shipped in the package.

It is served as plain files (no build step) and talks to the service only through
the public REST API and its event stream, like any third-party client would.
"""

from __future__ import annotations

import mimetypes
from importlib import resources
from pathlib import PurePosixPath

from flask import Blueprint, Response

from core.errors import Code, CommandError

bp = Blueprint("client", __name__)

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}


def _read(path: str) -> tuple[bytes, str]:
    parts = PurePosixPath(path).parts
    if not parts or any(p in ("..", ".") or p.startswith(".") or "\\" in p for p in parts):
        raise CommandError(Code.NOT_FOUND, "No such client file.")
    suffix = PurePosixPath(path).suffix
    if suffix not in TYPES:
        raise CommandError(Code.NOT_FOUND, "No such client file.")
    node = resources.files("service").joinpath("client")
    for part in parts:
        node = node.joinpath(part)
    if not node.is_file():
        raise CommandError(Code.NOT_FOUND, "No such client file.")
    return node.read_bytes(), TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def _file(path: str) -> Response:
    data, mimetype = _read(path)
    response = Response(data, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.get("/")
def index() -> Response:
    return _file("index.html")


@bp.get("/client/<path:path>")
def client_file(path: str) -> Response:
    return _file(path)
