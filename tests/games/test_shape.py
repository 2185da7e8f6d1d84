"""Every game package has one shape, so that a newcomer finds any rule of any game in
the same file of its package (README, "How to add a game"):

- ``__init__.py`` exports ``GAME`` and nothing else;
- ``game.py`` is the Game object only: one class whose every method is one ``return``
  handing over to the modules below, and ``GAME``;
- ``state.py`` the ``State``; ``evolve.py`` the ``EVOLVE`` table, one case per event type;
- ``rules.py`` the rules of play (``setup``, ``to_act``, ``legal_actions``, ``move``, ...),
  with phase-of-play modules it imports for the large phases;
- ``view.py`` what a seat may see and believe; ``bot.py`` the bots' evaluation;
- ``cards.py`` the card data; ``faces.py`` the cards' faces for the web client.

Each of those names is defined in its one module and in no other of the package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games import registry

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
    },
    "view.py": {"view", "redact", "secrets", "determinize", "card_names", "action_cards", "final_view"},
    "bot.py": {"evaluate"},
    "faces.py": {"card_faces"},
}
REQUIRED = {
    "rules.py": {"setup", "to_act", "legal_actions", "move", "outcome"},
    "view.py": {"view", "redact", "secrets", "determinize"},
    "bot.py": {"evaluate"},
    "faces.py": {"card_faces"},
}
FILES = ("__init__.py", "game.py", "state.py", "evolve.py", "rules.py", "view.py", "bot.py", "cards.py", "faces.py")
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
def test_a_game_object_only_hands_over_to_its_modules(package: str) -> None:
    module = tree(package, "game.py")
    classes = [node for node in module.body if isinstance(node, ast.ClassDef)]
    functions = [node.name for node in module.body if isinstance(node, ast.FunctionDef)]
    assert len(classes) == 1 and not functions, f"{package}.game: one class and no functions, not {functions}"
    assert "GAME" in top_level_names(module)
    for method in (node for node in classes[0].body if isinstance(node, ast.FunctionDef)):
        body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        assert len(body) == 1 and isinstance(body[0], ast.Return), (
            f"{package}.game.{classes[0].name}.{method.name} does more than hand over (one return)"
        )
