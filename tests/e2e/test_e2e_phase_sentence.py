"""Every phase says what you may do: whenever it is your move, the table's status line
names, in one sentence, each kind of action the game lists for you now (the ones under
Actions) and where to find them, in every kind and over the first moves of a game."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import registry
from tests.e2e.board import each_turn_looked_at

KINDS = sorted(key for key in registry.keys() if key != "tiny")

# The status line, and the kinds of action the table offers now (each a data-action-type).
READ = """() => ({
  status: document.querySelector('.whose-turn')?.textContent || '',
  types: [...new Set([...document.querySelectorAll('[data-action-type]')].map((n) => n.dataset.actionType))],
})"""


def spoken(action_type: str) -> str:
    """An action type as the sentence says it: ``end_phase`` -> ``end phase``."""
    return re.sub(r"[_-]+", " ", action_type).strip().lower()


@pytest.mark.parametrize("kind", KINDS)
def test_each_of_your_moves_says_what_you_may_do(page: Any, kind: str) -> None:
    checked = 0
    for _ in each_turn_looked_at(page, kind, 6):
        page.wait_for_function("() => /Your move/.test(document.querySelector('.whose-turn')?.textContent || '')")
        seen = page.evaluate(READ)
        sentence = seen["status"].split("Your move", 1)[1]
        assert "You may " in sentence, seen["status"]
        said = sentence.split("You may ", 1)[1].split(":", 1)[0]
        assert seen["types"], "your move, and no action offered"
        for action_type in seen["types"]:
            assert spoken(action_type) in said, (action_type, said)
        assert "board" in sentence and "Actions" in sentence, sentence
        checked += 1
    assert checked >= 2, f"only {checked} of your moves were checked"
