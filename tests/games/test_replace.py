"""``games.base.replace``: what ``dataclasses.replace`` gives, for the states' shapes."""

from __future__ import annotations

import dataclasses
from functools import cached_property

import pytest

from games.base import replace


@dataclasses.dataclass(frozen=True)
class Plain:
    value: int
    cards: tuple[str, ...] = ()

    @cached_property
    def total(self) -> int:
        return self.value + len(self.cards)


@dataclasses.dataclass(frozen=True, slots=True)
class Slotted:
    value: int
    seat: int = 0


@pytest.mark.parametrize("original", [Plain(1, ("AS",)), Slotted(1, 2)])
def test_replace_equals_dataclasses_replace_and_leaves_the_original(original: Plain | Slotted) -> None:
    assert replace(original, value=7) == dataclasses.replace(original, value=7)
    assert replace(original) == original and replace(original) is not original
    assert original.value == 1


def test_a_cached_property_is_computed_again_on_the_copy() -> None:
    original = Plain(1, ("AS", "KD"))
    assert original.total == 3
    assert replace(original, cards=()).total == 1


@pytest.mark.parametrize("original", [Plain(1), Slotted(1)])
def test_an_unknown_field_is_a_type_error(original: Plain | Slotted) -> None:
    with pytest.raises(TypeError, match="no fields"):
        replace(original, colour="red")
