"""The Flask app factory."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from flask import Flask, Response, g, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.routing import Rule

from core.config import Config
from core.errors import Code, CommandError, log_damaged
from events.store import LogDamaged
from service.http import cors_headers, over_limit_gate, problem, rate_limit
from service.metrics import observe_request
from service.query import unknown
from service.routes import (
    chat,
    client,
    games,
    history,
    lifecycle,
    meta,
    moderation,
    players,
    rematch,
    seeks,
    tournaments,
    webhooks,
)
from service.routes.meta import spec_text
from stores.platform import Platform

HTTP_CODES = {
    400: Code.BAD_REQUEST,
    404: Code.NOT_FOUND,
    405: Code.METHOD_NOT_ALLOWED,
    413: Code.PAYLOAD_TOO_LARGE,
    415: Code.UNSUPPORTED_MEDIA_TYPE,
}


def _check_query(rule: str) -> None:
    found = unknown(spec_text(), rule, request.method, list(request.args))
    if found is not None:
        extra, known = found
        takes = ", ".join(sorted(known)) if known else "no query parameters"
        raise CommandError(
            Code.BAD_REQUEST,
            f"Unknown query parameter{'s' if len(extra) > 1 else ''}: {', '.join(extra)}. This route takes {takes}.",
            unknown_parameters=extra,
        )


class Route(Rule):
    """A URL rule whose two URL builders (functions werkzeug writes and compiles for every
    rule of every app) are made once per process for each rule and reused by the next app.
    A server makes one app; the test suite makes one a test, a thousand or more, and each
    compiled its 77 routes' builders again: 85% of the 70 ms an app took.

    A builder reads the rule's converters through the rule it is bound to, so the function
    depends only on the rule's text, its parsed parts and its defaults; a rule whose defaults
    fill one of its variables (folded in through a converter) is not shared."""

    _builders: ClassVar[dict[tuple[Any, ...], Callable[..., tuple[str, str]]]] = {}

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        defaults = self.defaults or {}
        if any(dynamic and name in defaults for dynamic, name in self._trace):
            return super()._compile_builder(append_unknown)
        key = (self.rule, tuple(self._trace), tuple(sorted(defaults)), append_unknown)
        builder = self._builders.get(key)
        if builder is None:
            builder = self._builders.setdefault(key, super()._compile_builder(append_unknown))
        return builder


def create_app(config: Config | None = None, platform: Platform | None = None) -> Flask:
    config = config or (platform.config if platform else Config.from_env())
    platform = platform or Platform.from_config(config)
    app = Flask(__name__, static_folder=None)
    app.url_rule_class = Route
    app.config["MAX_CONTENT_LENGTH"] = config.max_body_bytes
    app.extensions["tablestream"] = platform

    app.register_blueprint(meta.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(client.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(rematch.bp)
    app.register_blueprint(lifecycle.bp)
    app.register_blueprint(chat.bp)
    app.register_blueprint(webhooks.bp)
    app.register_blueprint(moderation.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(seeks.bp)

    @app.before_request
    def _start() -> None:
        g.started = time.perf_counter()
        length = request.content_length
        if length is not None and length > config.max_body_bytes:
            raise CommandError(Code.PAYLOAD_TOO_LARGE, f"Bodies are limited to {config.max_body_bytes} bytes.")
        if request.path.startswith("/v1/"):
            rate_limit()
            if request.url_rule is not None and request.args:
                _check_query(request.url_rule.rule)

    @app.after_request
    def _finish(response: Response) -> Response:
        rule = request.url_rule.rule if request.url_rule else "unmatched"
        seconds = time.perf_counter() - g.get("started", time.perf_counter())
        observe_request(rule, request.method, response.status_code, seconds)
        for name, value in cors_headers(config.cors_origins, request.headers.get("Origin")):
            response.headers[name] = value
        return response

    @app.errorhandler(CommandError)
    def _command_error(error: CommandError) -> Response:
        return problem(error)

    @app.errorhandler(LogDamaged)
    def _log_damaged(damage: LogDamaged) -> Response:
        return problem(log_damaged(damage.game_id, damage.version, damage.head_version))

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(_: RequestEntityTooLarge) -> Response:
        return problem(CommandError(Code.PAYLOAD_TOO_LARGE, f"Bodies are limited to {config.max_body_bytes} bytes."))

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> Response:
        # Every problem body's status is the answer's status: a code of ours for each status
        # Flask raises here, and a plain 400 for any other client error.
        code = HTTP_CODES.get(error.code or 400, Code.BAD_REQUEST)
        detail = error.description or "The request cannot be served."
        response = problem(CommandError(code, detail))
        if error.code == 405:
            response.headers["Allow"] = ", ".join(getattr(error, "valid_methods", None) or [])
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        app.logger.exception("unexpected error")
        import redis

        if isinstance(error, redis.RedisError):
            return problem(CommandError(Code.UNAVAILABLE, "The store is unreachable; try again shortly."))
        return problem(CommandError(Code.INTERNAL_ERROR, "Something went wrong on our side; nothing was appended."))

    app.wsgi_app = over_limit_gate(app, app.wsgi_app)  # type: ignore[method-assign,assignment]
    return app
