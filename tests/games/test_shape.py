"""Every game package has one shape, so that a newcomer finds any rule of any game in
the same file of its package (README, "How to add a game"):

- ``__init__.py`` exports ``GAME`` and nothing else;
- ``game.py`` is the Game object only: one class holding the game's facts and naming the
  modules below (``rules_module = rules``, ...), with no method of its own (``GameBase``
  hands each function of the contract over to the module that holds it), and ``GAME``;
- ``state.py`` the ``State``; ``evolve.py`` the ``EVOLVE`` table, one case per event type;
- ``rules.py`` the rules of play (``setup``, ``to_act``, ``legal_actions``, ``move``, ...),
  with phase-of-play modules it imports for the large phases;
- ``view.py`` what a seat may see and believe; ``bot.py`` the bots' evaluation and ISMCTS's
  iterations per move;
- ``cards.py`` the card data; ``faces.py`` the cards' faces for the web client;
  ``drawing.py`` the board drawn as text for the terminal.

Each of those names is defined in its one module and in no other of the package."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from games import registry
from games.base import HANDED_OVER, Audited, Decider, Derived, Game, GameBase, Presented, Searched

ROOT = Path(__file__).resolve().parents[2]
HOMES = {
    "rules.py": {
        "setup",
        "check_options",
        "to_act",
        "legal_actions",
        "move",
        "action_schemas",
        "is_over",
        "outcome",
        "not_your_turn",
        "after_move",
        "refusal",
    },
    "view.py": {"view", "redact", "secrets", "determinize", "card_names", "action_cards", "final_view"},
    "bot.py": {"evaluate", "ISMCTS_ITERATIONS"},
    "faces.py": {"card_faces"},
    "drawing.py": {"draw"},
}
REQUIRED = {
    "rules.py": {"setup", "to_act", "legal_actions", "move", "outcome"},
    "view.py": {"view", "redact", "secrets", "determinize"},
    "bot.py": {"evaluate", "ISMCTS_ITERATIONS"},
    "faces.py": {"card_faces"},
    "drawing.py": {"draw"},
}
FILES = (
    "__init__.py",
    "game.py",
    "state.py",
    "evolve.py",
    "rules.py",
    "view.py",
    "bot.py",
    "cards.py",
    "faces.py",
    "drawing.py",
)
MODULES = {
    "rules_module": "rules",
    "view_module": "view",
    "bot_module": "bot",
    "faces_module": "faces",
    "drawing_module": "drawing",
}
PACKAGES = sorted(
    {
        type(game).__module__.rsplit(".", 1)[0]
        for game in map(registry.get, registry.keys())
        if game is not None and type(game).__module__.startswith("games.")
    }
)


def tree(package: str, name: str) -> ast.Module:
    path = ROOT / package.replace(".", "/") / name
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def top_level_names(module: ast.Module) -> set[str]:
    """The functions, classes and assigned names a module defines at its top level."""
    names: set[str] = set()
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_every_game_of_the_registry_is_a_package_of_ours() -> None:
    assert len(PACKAGES) == len([k for k in registry.keys() if k != "tiny"]), PACKAGES


@pytest.mark.parametrize("package", PACKAGES)
def test_a_game_package_has_the_shape(package: str) -> None:
    folder = ROOT / package.replace(".", "/")
    # the files, each in its place
    missing = [name for name in FILES if not (folder / name).is_file()]
    assert not missing, f"{package} lacks {missing}"
    modules = {path.name: tree(package, path.name) for path in folder.glob("*.py")}
    # every named piece is defined in its home and nowhere else
    for home, names in HOMES.items():
        defined = top_level_names(modules[home])
        assert REQUIRED.get(home, set()) <= defined, f"{package}.{home} lacks {REQUIRED[home] - defined}"
        for name, module in modules.items():
            strays = (top_level_names(module) & names) if name != home else set()
            assert not strays, f"{package}.{name} defines {sorted(strays)}, whose home is {home}"
    for name, module in modules.items():
        has_table = "EVOLVE" in top_level_names(module)
        assert has_table == (name == "evolve.py"), f"{package}: EVOLVE belongs in evolve.py, not {name}"
    assert "State" in top_level_names(modules["state.py"]), f"{package}.state lacks State"
    # __init__ exports GAME only
    init = modules["__init__.py"]
    assert top_level_names(init) <= {"__all__"}, f"{package}.__init__ defines {top_level_names(init)}"
    imported = {a.asname or a.name for n in init.body if isinstance(n, ast.ImportFrom) for a in n.names}
    assert imported - {"annotations"} == {"GAME"}, f"{package}.__init__ imports {imported}"


@pytest.mark.parametrize("package", PACKAGES)
def test_a_game_object_holds_facts_and_names_its_modules(package: str) -> None:
    module = tree(package, "game.py")
    classes = [node for node in module.body if isinstance(node, ast.ClassDef)]
    functions = [node.name for node in module.body if isinstance(node, ast.FunctionDef)]
    assert len(classes) == 1 and not functions, f"{package}.game: one class and no functions, not {functions}"
    assert "GAME" in top_level_names(module)
    methods = [node.name for node in classes[0].body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assert not methods, f"{package}.game.{classes[0].name} defines {methods}: GameBase hands them over to the modules"
    named = {
        target.id: node.value.id
        for node in classes[0].body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    wrong = {part: named.get(part) for part, home in MODULES.items() if named.get(part) != home}
    assert not wrong, f"{package}.game.{classes[0].name} names its modules {wrong}, not {MODULES}"


@pytest.mark.parametrize("package", PACKAGES)
def test_the_game_object_calls_its_modules_functions_themselves(package: str) -> None:
    # GameBase hands over by name, once, when the class is made: the game's method is the
    # module's function itself (legal_actions: that function keeping its last answer), and
    # a function the module lacks keeps GameBase's default.
    game = importlib.import_module(package).GAME
    for part, names in HANDED_OVER.items():
        module = getattr(game, part)
        for name in names:
            own = getattr(module, name, None)
            expected = own if own is not None else getattr(GameBase, name).__get__(game)
            method = getattr(game, name)
            if name == "legal_actions" and own is not None:
                method = method.__wrapped__
            assert method == expected, f"{package}: {name} is not {part}.{name}"
    assert game.ismcts_iterations == game.bot_module.ISMCTS_ITERATIONS


DESIGN_DECIDER = {"setup", "evolve", "to_act", "legal_actions", "decide", "view", "redact", "outcome"}
"""The functions the design's game contract names (besides the facts and options schema)."""


def protocol_functions(protocol: type) -> set[str]:
    members = vars(protocol).items()
    return {
        name
        for name, member in members
        if not name.startswith("_") and (callable(member) or isinstance(member, property))
    }


def test_the_game_protocol_is_the_design_s_decider_and_small_named_parts() -> None:
    # The decider is exactly the design's functions; everything else the platform asks of a
    # kind sits in a part named for who needs it, and the parts do not overlap.
    assert protocol_functions(Decider) == DESIGN_DECIDER
    parts = [Decider, Derived, Audited, Searched, Presented]
    assert set(Game.__mro__[1:]) >= set(parts)
    named = [protocol_functions(part) for part in parts]
    assert sum(len(n) for n in named) == len(set().union(*named)), "a function is in two parts"
    assert max(len(n) for n in named[2:]) <= 3


@pytest.mark.parametrize("package", PACKAGES)
def test_no_kind_writes_what_game_base_derives(package: str) -> None:
    # The derived part is the same for every kind: a kind that wrote its own would depart
    # from the options' declarations (GET /v1/kinds) or from the one way to decide.
    game = importlib.import_module(package).GAME
    assert isinstance(game, Game)
    for name in protocol_functions(Derived):
        assert getattr(type(game), name) is getattr(GameBase, name), f"{package} writes its own {name}"
