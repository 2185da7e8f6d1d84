"""Every operation of the contract has an example of its success answer, and of its JSON
request body, recorded from the service by ``python -m service.spec_examples``; every
recorded JSON example fits its schema, as the service's answers must; and the session that
records them still reaches every operation."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from service import yamltext
from service.spec_examples import (
    EXAMPLE_REF,
    SPEC,
    example_name,
    operations,
    problems,
    record,
    request_media,
    success_media,
)


def load() -> dict[str, Any]:
    return dict(yamltext.load(Path(SPEC).read_text()))


SPEC_DOC = load()
EXAMPLES: dict[str, Any] = SPEC_DOC["components"]["examples"]


def wanted(spec: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every example the contract needs, by name: where it goes and its media object."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for path, method, operation in operations(spec):
        where = f"{method.upper()} {path}"
        for status, media, body in success_media(operation):
            out[example_name(operation, media)] = (f"{where} {status} {media}", body)
        request = request_media(operation)
        if request is not None:
            out[f"{operation['operationId']}_request"] = (f"{where} request", request)
    return out


WANTED = wanted(SPEC_DOC)
JSON_EXAMPLES = sorted(name for name, (where, _) in WANTED.items() if where.endswith(("application/json", "request")))


def fits(schema: dict[str, Any], value: Any, spec: dict[str, Any] = SPEC_DOC) -> list[str]:
    """Why ``value`` does not fit ``schema``, its references read in the whole contract."""
    document = {**schema, "components": spec["components"]}
    return [
        f"{error.instance_path}: {error.message}"
        for error in jsonschema_rs.Draft202012Validator(document).iter_errors(value)
    ]


def test_the_check_finds_every_operation_with_its_examples() -> None:
    assert problems(SPEC_DOC) == []


def test_every_operation_answering_a_body_has_an_example_of_it_and_of_its_request() -> None:
    bare = []
    for path, method, operation in operations(SPEC_DOC):
        media = success_media(operation)
        if not media:  # 204: no body, so no example
            statuses = [s for s in operation["responses"] if str(s).startswith("2")]
            assert statuses == ["204"], f"{method.upper()} {path}: a success without a body that is not 204"
            bare.append(operation["operationId"])
            continue
        for status, name, body in media:
            refs = body.get("examples", {})
            assert refs.get("recorded") == {"$ref": EXAMPLE_REF + example_name(operation, name)}, (path, status)
        request = request_media(operation)
        if request is not None:
            assert request["examples"]["recorded"] == {"$ref": f"{EXAMPLE_REF}{operation['operationId']}_request"}
    assert sorted(bare) == [
        "blockPlayer",
        "cancelSeek",
        "deleteWebhook",
        "mutePlayer",
        "revokeKey",
        "unblockPlayer",
        "unmutePlayer",
        "withdrawFromTournament",
    ]
    assert set(EXAMPLES) == set(WANTED), "an example no operation refers to, or one missing"
    ids = [op["operationId"] for _, _, op in operations(SPEC_DOC)]
    assert len(set(ids)) == len(ids), "two operations share an operationId (and an example's name)"


def test_every_operation_answering_no_body_has_a_request_sample_of_itself() -> None:
    """A 204 has no body to show, so /docs would show nothing to copy: each such operation
    carries a curl sample (Redoc's x-codeSamples) of its own method and path."""
    for path, method, operation in operations(SPEC_DOC):
        if success_media(operation):
            continue
        (sample,) = operation["x-codeSamples"]
        words = sample["source"].split()
        assert words[:3] == ["curl", "-i", "-X"] and words[3] == method.upper(), sample
        address = words[-1].strip('"').removeprefix("$TABLESTREAM").split("/")
        wanted = path.split("/")
        assert len(address) == len(wanted), f"{method.upper()} {path}: the sample asks for {address}"
        for segment, template in zip(address, wanted, strict=True):
            if template.startswith("{"):
                assert re.fullmatch(r"\$[A-Z]+|[a-z]+", segment), f"{path}: {segment} for {template}"
            else:
                assert segment == template, f"{method.upper()} {path}: the sample asks for {'/'.join(address)}"


@pytest.mark.parametrize("name", JSON_EXAMPLES)
def test_every_recorded_json_example_fits_its_schema(name: str) -> None:
    where, media = WANTED[name]
    errors = fits(media["schema"], EXAMPLES[name]["value"])
    assert errors == [], f"{name} ({where}) does not fit its schema: {errors}"


def test_every_text_example_is_a_real_excerpt() -> None:
    for name, (where, _) in WANTED.items():
        if name not in JSON_EXAMPLES:
            value = EXAMPLES[name]["value"]
            assert isinstance(value, str) and value.strip(), f"{name} ({where}) is no text"
    assert EXAMPLES["openapi"]["value"].startswith("openapi: 3.1.0\n")
    assert "event: GameCreated" in EXAMPLES["streamEvents"]["value"]


def test_the_check_fails_on_a_missing_or_dangling_reference_and_a_schema_on_a_wrong_example() -> None:
    spec = copy.deepcopy(SPEC_DOC)
    del spec["paths"]["/healthz"]["get"]["responses"]["200"]["content"]["application/json"]["examples"]
    spec["paths"]["/v1/games"]["post"]["requestBody"]["content"]["application/json"]["examples"]["recorded"] = {
        "$ref": EXAMPLE_REF + "nothing"
    }
    found = problems(spec)
    assert any("(healthz)" in p and "no example ref" in p for p in found), found
    assert any("(createGame) request" in p and "names no example" in p for p in found), found
    schema = WANTED["act"][1]["schema"]
    assert fits(schema, {**EXAMPLES["act"]["value"], "version": "eleven"}) != []
    assert fits(schema, {**EXAMPLES["act"]["value"], "events": [{"version": 1}]}) != []


def test_the_session_still_reaches_every_operation_and_its_answers_fit() -> None:
    fresh = record()
    assert sorted(fresh) == sorted(WANTED)
    for name in JSON_EXAMPLES:
        errors = fits(WANTED[name][1]["schema"], fresh[name]["value"])
        assert errors == [], f"{name}, recorded afresh, does not fit its schema: {errors}"
