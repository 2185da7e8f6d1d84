"""Writes the typed actions, options and views of openapi.yaml from the games' own code.

Each kind's actions become ``Action_<kind>``: a ``oneOf`` discriminated on ``type``, one
schema per action type, built from the game's ``action_schemas()``; ``Action`` is any
kind's action. Each kind's view becomes ``View_<kind>``, the schema its view module writes
beside ``view`` (``view_schema()``); ``View`` is any kind's view, discriminated on its
``kind``. Only the parts between the markers are written, so the rest of the contract
stays as written by hand. ``python -m service.spec_gen`` rewrites the file; ``--check``
fails when it is out of date (tests/api/test_spec_actions.py runs the same comparison;
tests/games/contract.py checks the views of thousands of random games against them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

from games.base import Option
from games.registry import all_games

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"
BEGIN = "    # -- typed actions and options: written by `python -m service.spec_gen` from each game's code --\n"
END = "    # -- end of typed actions --\n"
VIEWS_BEGIN = "    # -- typed views: written by `python -m service.spec_gen` from each game's view_schema() --\n"
VIEWS_END = "    # -- end of typed views --\n"
PACKAGED_PREFIX = "games."


def _packaged() -> dict[str, Any]:
    return {key: game for key, game in sorted(all_games().items()) if type(game).__module__.startswith(PACKAGED_PREFIX)}


def _name(*parts: str) -> str:
    return "_".join(["Action", *(part.replace("-", "_") for part in parts)])


def action_components() -> dict[str, Any]:
    """The components of every packaged kind's actions, by schema name."""
    components: dict[str, Any] = {}
    kinds = _packaged()
    for key, game in kinds.items():
        mapping: dict[str, str] = {}
        for action_type, fields in sorted(game.action_schemas().items()):  # type: ignore[attr-defined]
            name = _name(key, action_type)
            mapping[action_type] = f"#/components/schemas/{name}"
            components[name] = {
                "type": "object",
                "description": f"The action {action_type!r} of {key}.",
                "additionalProperties": False,
                "required": ["type", *fields["required"]],
                "properties": {"type": {"type": "string", "enum": [action_type]}, **fields["properties"]},
            }
        components[_name(key)] = {
            "description": f"An action of {key}, told apart by its type.",
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }
    components["Action"] = {
        "description": "An action of the game's kind (Action_<kind>): a legal action, sent back unchanged.",
        "anyOf": [{"$ref": f"#/components/schemas/{_name(key)}"} for key in kinds],
    }
    return components


def view_components() -> dict[str, Any]:
    """Each packaged kind's ``View_<kind>``: the schema its view module writes beside its
    ``view`` (``games.viewschema``), with the ``kind`` the API adds; ``View`` is any of
    them, told apart by ``kind``."""
    components: dict[str, Any] = {}
    mapping: dict[str, str] = {}
    for key, game in _packaged().items():
        schema = game.view_schema()
        if schema is None:
            raise SystemExit(f"{key} has no view_schema() in its view module: its views would be untyped")
        schema = json.loads(json.dumps(schema))  # one copy per use: no YAML anchors
        schema["properties"] = {"kind": {"type": "string", "enum": [key]}, **schema["properties"]}
        schema["required"] = ["kind", *schema["required"]]
        name = "View_" + key.replace("-", "_")
        mapping[key] = f"#/components/schemas/{name}"
        components[name] = {"description": f"What a seat of {key} (or a spectator) sees: its view.", **schema}
    components["View"] = {
        "description": "A view of the game's kind (View_<kind>), told apart by its kind.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "kind", "mapping": mapping},
    }
    return components


def _between(text: str, begin: str, end: str, components: dict[str, Any]) -> str:
    before, rest = text.split(begin, 1)
    _, after = rest.split(end, 1)
    body = yaml.safe_dump(components, sort_keys=False, width=100, allow_unicode=True)
    return before + begin + "".join(f"    {line}\n" for line in body.splitlines()) + end + after


def _option_schema(option: Option) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": [option.type, "null"] if option.nullable else option.type}
    if option.choices is not None:
        schema["enum"] = list(option.choices)
    if option.minimum is not None:
        schema["minimum"] = option.minimum
    if option.maximum is not None:
        schema["maximum"] = option.maximum
    if option.type == "array":
        # Every list option names cards or decks, or holds lists of them (one a seat or a
        # shuffle); saying so spares generators arbitrary JSON for each item.
        schema["items"] = {"type": ["string", "array"], "items": {"type": "string"}}
    if option.type == "object":
        schema["additionalProperties"] = True
    # The default is said, not declared: client generators make a field with a default
    # required, and every option may be left out.
    schema["description"] = f"{option.description} Default: {json.dumps(option.default)}."
    return schema


def option_components() -> dict[str, Any]:
    """Each packaged kind's ``Options_<kind>``: every option it accepts (GET /v1/kinds), each
    optional; ``CreateGame.options`` is any kind's."""
    components: dict[str, Any] = {}
    for key, game in _packaged().items():
        components["Options_" + key.replace("-", "_")] = {
            "type": "object",
            "description": f"The options of {key}, each optional (its default when left out).",
            "additionalProperties": False,
            "properties": {option.name: _option_schema(option) for option in game.accepted_options},
        }
    components["Options"] = {
        "description": "The options of the game's kind (Options_<kind>; GET /v1/kinds lists them).",
        "anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in components],
    }
    return components


def rendered(spec_text: str) -> str:
    """``spec_text`` with its typed actions, options and views written afresh."""
    text = _between(spec_text, BEGIN, END, {**action_components(), **option_components()})
    return _between(text, VIEWS_BEGIN, VIEWS_END, view_components())


def main(argv: list[str]) -> int:
    current = SPEC.read_text()
    wanted = rendered(current)
    if "--check" in argv:
        if current != wanted:
            print(f"{SPEC} is out of date: run python -m service.spec_gen", file=sys.stderr)
            return 1
        return 0
    SPEC.write_text(wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
