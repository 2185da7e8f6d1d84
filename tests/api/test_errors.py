"""The error codes are one closed set in the core; the edge maps every one of them to an
HTTP status and a title, and the OpenAPI document lists exactly that set."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import Code, CommandError
from service import yamltext
from service.errors import STATUS, TITLES, status_of

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_every_code_has_a_status_and_a_title_and_nothing_else_does() -> None:
    assert set(STATUS) == set(TITLES) == {code.value for code in Code}
    assert all(400 <= status < 600 for status in STATUS.values())


def test_a_code_outside_the_set_cannot_be_raised() -> None:
    with pytest.raises(ValueError):
        CommandError("no_such_code", "never")
    assert status_of(CommandError("not_your_turn", "wait")) == 403


def test_the_openapi_document_lists_exactly_the_codes() -> None:
    spec = yamltext.load(SPEC.read_text())
    listed = spec["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
    assert sorted(listed) == sorted(code.value for code in Code)
