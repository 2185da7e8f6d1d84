"""Writes the typed actions and views of openapi.yaml from the games' own code.

Each kind's actions become ``Action_<kind>``: a ``oneOf`` discriminated on ``type``, one
schema per action type, built from the game's ``action_schemas()``; ``Action`` is any
kind's action. Each kind's view becomes ``View_<kind>``, the shape of what its ``view``
and ``final_view`` return, read from seeded random games of every player count (every
seat's view and a spectator's, at every move, and at the end); ``View`` is any kind's
view, told apart by its ``kind`` (a kind a server registers of its own is
``View_other``). Only the parts between the markers are written, so the rest of the
contract stays as written by hand. ``python -m service.spec_gen`` rewrites
the file; ``--check`` fails when it is out of date (tests/api/test_spec_actions.py and
tests/api/test_spec_views.py run the same comparison, and check views of other games).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import yaml

from games.play import new_game, step
from games.registry import all_games

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"
BEGIN = "    # -- typed actions: written by `python -m service.spec_gen` from each game's action_schemas() --\n"
END = "    # -- end of typed actions --\n"
VIEWS_BEGIN = "    # -- typed views: written by `python -m service.spec_gen` from each game's views in play --\n"
VIEWS_END = "    # -- end of typed views --\n"
SAMPLE_SEEDS = range(4)
SAMPLE_MOVES = 400
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


class Shape:
    """What the values seen at one place of a view had in common: their JSON types, an
    object's keys (with how often each was there) or a list's items."""

    def __init__(self) -> None:
        self.types: set[str] = set()
        self.objects = 0
        self.keys: dict[str, int] = {}
        self.properties: dict[str, Shape] = {}
        self.items: Shape | None = None

    def add(self, value: Any) -> None:
        if value is None:
            self.types.add("null")
        elif isinstance(value, bool):
            self.types.add("boolean")
        elif isinstance(value, int):
            self.types.add("integer")
        elif isinstance(value, float):
            self.types.add("number")
        elif isinstance(value, str):
            self.types.add("string")
        elif isinstance(value, list):
            self.types.add("array")
            if not value:
                return
            items = self.items = self.items or Shape()
            if all(type(item) is str for item in value):  # a list of card ids: one look will do
                items.types.add("string")
                return
            for item in value:
                items.add(item)
        elif isinstance(value, dict):
            self.types.add("object")
            self.objects += 1
            keys, properties = self.keys, self.properties
            for key, item in value.items():
                keys[key] = keys.get(key, 0) + 1
                shape = properties.get(key)
                if shape is None:
                    shape = properties[key] = Shape()
                shape.add(item)
        else:
            raise TypeError(f"not JSON: {value!r}")

    def schema(self) -> dict[str, Any]:
        types = sorted(self.types - {"integer"} if "number" in self.types else self.types)
        out: dict[str, Any] = {}
        if types:
            out["type"] = types[0] if len(types) == 1 else types
        if "object" in self.types:
            if any(not key.isidentifier() for key in self.keys):
                # Keyed by card or pile names: a map, not a record.
                merged = Shape()
                for shape in self.properties.values():
                    merged.merge(shape)
                out["additionalProperties"] = merged.schema()
            else:
                out["properties"] = {key: self.properties[key].schema() for key in sorted(self.properties)}
                required = sorted(key for key, seen in self.keys.items() if seen == self.objects)
                if required:
                    out["required"] = required
        if "array" in self.types:
            out["items"] = self.items.schema() if self.items is not None else {}
        return out

    def merge(self, other: Shape) -> None:
        self.types |= other.types
        self.objects += other.objects
        for key, seen in other.keys.items():
            self.keys[key] = self.keys.get(key, 0) + seen
            self.properties.setdefault(key, Shape()).merge(other.properties[key])
        if other.items is not None:
            self.items = self.items or Shape()
            self.items.merge(other.items)


def sampled_views(game: Any, seeds: Any = SAMPLE_SEEDS, moves: int = SAMPLE_MOVES) -> Any:
    """Every view of seeded random games of each player count: each seat's and a
    spectator's after every move, and the final views at the end."""
    for players in range(game.min_players, game.max_players + 1):
        for seed in seeds:
            rng = random.Random(f"views-{game.key}-{players}-{seed}")
            play = new_game(game, players, None, rng)
            for _ in range(moves):
                for viewer in (None, *range(players)):
                    yield game.view(play.state, viewer)
                if game.outcome(play.state) is not None:
                    break
                seat = rng.choice(sorted(game.to_act(play.state)))
                step(game, play, seat, rng.choice(game.legal_actions(play.state, seat)), rng)
            if game.outcome(play.state) is not None:
                for viewer in (None, *range(players)):
                    yield game.final_view(play.state, viewer)


def view_components() -> dict[str, Any]:
    components: dict[str, Any] = {}
    mapping: dict[str, str] = {}
    for key, game in _packaged().items():
        shape = Shape()
        for view in sampled_views(game):
            shape.add(view)
        schema = shape.schema()
        schema["properties"] = {"kind": {"type": "string", "enum": [key]}, **schema.get("properties", {})}
        schema["required"] = ["kind", *schema.get("required", [])]
        name = "View_" + key.replace("-", "_")
        mapping[key] = f"#/components/schemas/{name}"
        components[name] = {"description": f"What a seat of {key} (or a spectator) sees: its view.", **schema}
    # A kind a server registers of its own (or a test's) is outside this contract: its view
    # is whatever that game gives, with its kind.
    components["View_other"] = {
        "description": "The view of a kind this contract does not describe (one a server registers of its own).",
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"type": "string", "not": {"enum": list(mapping)}}},
    }
    components["View"] = {
        "description": "A view of the game's kind (View_<kind>), told apart by its kind.",
        "oneOf": [{"$ref": ref} for ref in [*mapping.values(), "#/components/schemas/View_other"]],
    }
    return components


def _between(text: str, begin: str, end: str, components: dict[str, Any]) -> str:
    before, rest = text.split(begin, 1)
    _, after = rest.split(end, 1)
    body = yaml.safe_dump(components, sort_keys=False, width=100, allow_unicode=True)
    return before + begin + "".join(f"    {line}\n" for line in body.splitlines()) + end + after


def rendered(spec_text: str) -> str:
    """``spec_text`` with its typed actions and views written afresh."""
    text = _between(spec_text, BEGIN, END, action_components())
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
