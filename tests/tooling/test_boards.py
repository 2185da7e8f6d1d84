"""The boards ``tablestream replay`` draws (service/boards.py): given a game of each kind
played by bots, when a version is drawn for a seat or for a spectator, then the drawing
names the seat to act and every seat, shows the viewing seat's hand by card name, and
never names a card hidden from the viewer; a view no drawing knows falls back to the
tree. Last, the command itself draws the board, not the view's JSON."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

import fakeredis
import pytest
import redis

from core.config import Config
from games import registry
from games.base import rules_of
from projections.table import Table, evolve
from projections.views import board
from service.boards import DRAWINGS, Sheet, draw, tree
from service.tooling_cli import seat_names
from stores.platform import Platform
from tests.short import short
from workers.scheduling import InlineBots

KINDS = sorted(DRAWINGS)
NAMES = ("ann", "bob", "cy", "dee")
SUITS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
STANDARD = re.compile(r"^(10|[2-9AJQK])([SHDC])(\.\d+)?$")


def standard_name(card: str, rules: int) -> str | None:
    if re.fullmatch(r"JK\d*(\.\d+)?", card):
        return "Joker"
    match = STANDARD.match(card)
    return f"{match.group(1)}{SUITS[match.group(2)]}" if match else None


def dragon_fortress_name(card: str, rules: int) -> str | None:
    from games.dragon_fortress.cards import TYPE_OF

    kind = TYPE_OF.get(card)
    return kind.name if kind else None


def dragoborne_name(card: str, rules: int) -> str | None:
    from games.dragoborne.cards import card_of

    try:
        return card_of(card, rules).name
    except (KeyError, IndexError):
        return None


def stomping_name(card: str, rules: int) -> str | None:
    from games.stomping_grounds.cards import card as printed

    try:
        return printed(card, rules).name
    except KeyError:
        return None


# A card's name as the card data (or, for a standard card, its rank and suit) gives it;
# None for a string that is no card.
CARD_NAME: dict[str, Callable[[str, int], str | None]] = {
    "fortress-siege": standard_name,
    "fortress-royals": standard_name,
    "dragon-fortress": dragon_fortress_name,
    "dragoborne": dragoborne_name,
    "stomping-grounds": stomping_name,
}


def hand_in(kind: str, view: dict[str, Any], seat: int) -> list[str]:
    """The viewing seat's own hand, as its view holds it."""
    if kind == "fortress-royals":
        return list(view["hands"][seat]["cards"])
    return list(view["players"][seat]["hand"])


def own_names(hidden: set[str | None], shown: set[str | None]) -> set[str]:
    """The names among ``hidden`` that no card in view bears, nor has in its name."""
    return {name for name in hidden if name and not any(shown_name and name in shown_name for shown_name in shown)}


def hand_of(text: str, seat: int) -> str:
    """The ``hand:`` line under seat ``seat``'s heading in a drawing."""
    block = text.split(f"\n#{seat} ", 1)[1].split("\n#", 1)[0]
    (line,) = [line for line in block.splitlines() if line.strip().startswith("hand:")]
    return line


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def played(platform: Platform, kind: str) -> list[Table]:
    """A game of ``kind`` played to the end by random bots: its table at every version with a state."""
    game = registry.get(kind)
    assert game is not None
    players = [{"bot": "random", "name": NAMES[seat]} for seat in range(game.min_players)]
    # A chosen seed deals the same cards and the bots play the same moves each run.
    game_id = platform.handler.create_game(kind, players, short(kind), seed=f"boards-{kind}").table.game_id
    assert platform.handler.load(game_id).status == "finished"
    tables: dict[int, Table] = {}
    table: Any = None
    for envelope in platform.store.read(game_id):
        table = evolve(table, envelope, tables.__getitem__)
        tables[envelope.version] = table
    return [table for table in tables.values() if table.state is not None]


@cache
def tables_of(kind: str) -> tuple[Table, ...]:
    """The game ``played`` for ``kind`` on a platform of its own (on fakeredis), played once."""
    platform = Platform(Config(redis_url="fake"), fakeredis.FakeRedis())
    platform.handler.scheduler = InlineBots(platform)
    return tuple(played(platform, kind))


def spread(tables: Sequence[Table], count: int = 12) -> list[Table]:
    """``count`` tables spread over the game, its last one included."""
    step = max(len(tables) // count, 1)
    return [*tables[step::step][: count - 1], tables[-1]]


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_draws_its_board_for_a_seat_and_for_a_spectator(kind: str) -> None:
    tables = tables_of(kind)
    name_of = CARD_NAME[kind]
    hidden_checked = 0
    for table in spread(tables):
        rules = rules_of(table.options)
        sheet = Sheet(seat_names(table), False, rules, tuple(sorted(table.to_act())))
        for seat in (0, 1, None):
            view = board(table, seat)
            text = "\n".join(draw(kind, view, sheet))
            first = text.splitlines()[0]
            assert first.startswith("to act: "), text
            for acting in table.to_act():
                assert f"#{acting} {NAMES[acting]}" in first, (table.version, first)
            for index in range(len(table.seats)):
                assert f"#{index} {NAMES[index]}" in text
            assert not text.lstrip().startswith(("{", "phase:", "you:")), "the view as a tree, not a board"
            if seat is not None:
                assert "(you)" in text
                for card in hand_in(kind, view, seat):
                    name = name_of(card, rules)
                    assert name and name in text, (table.version, card, text)
            # Once the game is over every hand is shown (projections.views.board): nothing is hidden.
            over = table.status == "finished"
            secrets = frozenset() if over else table.game.secrets(table.state, seat)
            shown_names = {name_of(value, rules) for value in strings(view)} - {None}
            # A hidden card that shares its name with one in view (another copy) cannot be told apart.
            unseen = own_names({name_of(card, rules) for card in secrets}, shown_names)
            hidden_checked += len(unseen)
            for name in unseen:
                assert name not in text, (table.version, seat, name)
            for card in secrets:
                assert card not in text
            for other in range(len(table.seats)):
                if other == seat:
                    continue
                # Its hand line shows what of its hand is public (cards known, revealed, gold) and counts.
                whole_hand = set(hand_in(kind, board(table, other), other))
                public = {name_of(card, rules) for card in whole_hand - secrets}
                hand_line = hand_of(text, other)
                for name in own_names({name_of(card, rules) for card in whole_hand & secrets}, public):
                    hidden_checked += 1
                    assert name not in hand_line, (table.version, seat, other, hand_line)
    assert hidden_checked > 0, "no hidden card checked: the checks above checked nothing"


@pytest.mark.parametrize("kind", KINDS)
def test_fields_no_drawing_knows_are_shown_as_a_tree(kind: str) -> None:
    table = tables_of(kind)[-1]
    sheet = Sheet(seat_names(table), False, rules_of(table.options), tuple(sorted(table.to_act())))
    view = {**board(table, 0), "weather": {"wind": "north", "gusts": [3, 5]}}
    text = "\n".join(draw(kind, view, sheet))
    assert text.startswith("to act: ")
    assert "other:" in text and "weather:" in text and '"north"' in text

    unreadable = {**board(table, 0), "players": "not a list", "hands": 7}
    lines = draw(kind, unreadable, sheet)
    assert "does not read as" in lines[0]
    assert lines[1:] == tree(unreadable, False)


def test_a_kind_without_a_drawing_is_drawn_as_its_view_tree() -> None:
    view = {"phase": "dusk", "players": [{"seat": 0, "hand": ["moon-1"]}], "to_act": [0]}
    sheet = Sheet(("ann",), colour=True)
    assert draw("future-kind", view, sheet) == tree(view, True)


def test_colour_only_when_asked() -> None:
    view = {"phase": "turn", "active": 0, "moves_left": 3, "to_act": [0], "players": []}
    plain = draw("fortress-siege", view, Sheet(("ann",), colour=False))
    coloured = draw("fortress-siege", view, Sheet(("ann",), colour=True))
    assert "\033[" not in "".join(plain)
    assert "\033[" in "".join(coloured)
    assert re.sub(r"\033\[\d+m", "", "\n".join(coloured)) == "\n".join(plain)


def test_the_replay_command_draws_the_board_at_a_version(real_redis: redis.Redis, redis_url: str, prefix: str) -> None:
    kind = "dragoborne"
    live = Platform(Config(redis_url=redis_url, prefix=prefix), real_redis)
    live.handler.scheduler = InlineBots(live)
    tables = played(live, kind)
    table = tables[len(tables) // 2]
    view = board(table, 1)
    env = {**os.environ, "REDIS_URL": redis_url, "TABLESTREAM_PREFIX": prefix}
    command = ["replay", table.game_id, "--at", str(table.version), "--seat", "1", "--plain"]
    result = subprocess.run(
        [sys.executable, "-m", "service.cli", *command], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith(f"v{table.version} ")
    assert "\033[" not in out
    drawing = out.splitlines()[2:]
    assert drawing[0].startswith("  to act: ")
    # --seat 1 is the seat the API numbers 1, and the board calls it that: seats count from 0 everywhere.
    assert "#0 ann" in out and "#1 bob (you)" in out
    for card in view["players"][1]["hand"]:
        name = dragoborne_name(card, rules_of(table.options))
        assert name and name in out
    tree_lines = {line for line in tree(view, False, 1) if len(line.strip()) > 12}
    assert not tree_lines & set(drawing), "the view's JSON tree, not the board"
