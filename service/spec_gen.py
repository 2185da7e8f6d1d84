"""Writes the typed actions of openapi.yaml from the games' own definitions.

Each kind's actions become ``Action_<kind>``: a ``oneOf`` discriminated on ``type``, one
schema per action type, built from the game's ``action_schemas()``; ``Action`` is any
kind's action. Only the part between the markers is written, so the rest of the contract
stays as written by hand. ``python -m service.spec_gen`` rewrites the file; ``--check``
fails when it is out of date (tests/api/test_spec_actions.py runs the same comparison).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

from games.registry import all_games

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"
BEGIN = "    # -- typed actions: written by `python -m service.spec_gen` from each game's action_schemas() --\n"
END = "    # -- end of typed actions --\n"
PACKAGED_PREFIX = "games."


def _name(*parts: str) -> str:
    return "_".join(["Action", *(part.replace("-", "_") for part in parts)])


def action_components() -> dict[str, Any]:
    """The components of every packaged kind's actions, by schema name."""
    components: dict[str, Any] = {}
    kinds = {
        key: game for key, game in sorted(all_games().items()) if type(game).__module__.startswith(PACKAGED_PREFIX)
    }
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


def rendered(spec_text: str) -> str:
    """``spec_text`` with its typed actions written afresh."""
    before, rest = spec_text.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    body = yaml.safe_dump(action_components(), sort_keys=False, width=100, allow_unicode=True)
    return before + BEGIN + "".join(f"    {line}\n" for line in body.splitlines()) + END + after


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
