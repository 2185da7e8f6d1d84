"""No control on a table holds another control (axe's nested-interactive), in any state a
game reaches and under any selection a player can make in it.

The board tests play one game each by clicking, so a clash that only some deals bring
is met only when that deal comes up. One failed CI: a stomping-grounds realm held the
dragons on it, and a dragon picked to fly lit the realm it sat on as a target, a button
inside a button. Here every kind's module draws, in the browser, every state of a few
random games played by the rules in memory, as the seat to act sees it, and the board
play (boardplay.js) wires each drawing as the table does. The check is structural (no
place an action uses holds another such place or a control), which covers every
selection at once: a selection only makes some of those places buttons."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games import registry
from games.play import new_game, step
from tests.e2e.board import CONTROL, NESTED_IN

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

KINDS = [k for k in registry.keys() if k != "tiny"]
GAMES = {"stomping-grounds": 16, "fortress-siege": 4}  # random games drawn of each kind; 6 by default
# Actions that let a turn go by: a player who mostly does something else fills the table
# (dragons flying, challenges out, cards down) as a uniformly random one seldom does.
WAITS = {"pass", "end_phase", "end_turn", "skip", "land", "done"}
MIN_STATES = 400  # at least this many states of each kind are drawn
# Options that keep a random game short enough to see its end within the sample.
SHORT = {"stomping-grounds": {"turn_limit": 4}}

# Draws each state as the table does (the kind's render, then boardplay.js wiring what
# nothing picked yet makes playable) and answers how many states it drew and, for each
# state with any, two findings: controls that hold another control now, and places an
# action uses (data-ref) that hold another such place or any control but a card's own
# "i" (which gives way when its card becomes a button). The board makes buttons only of
# places actions use, whatever is selected, and a selection never draws anything new, so
# a state with no such holding has no nesting under any selection: the second finding is
# the whole property, not a sample of it.
# The states come as one JSON text per game, parsed in the page: handed over as Python
# objects, Playwright serialised every nested value of every view one by one, which took
# most of the time (over three quarters of it for stomping-grounds' 20 MB of views).
DRAW = """async ({ kind, text }) => {
  const steps = JSON.parse(text);
  const { kindModule } = await import('/client/kinds/index.js');
  const { makeCtx } = await import('/client/table.js');
  const { loadFaces } = await import('/client/faces.js');
  const { wireBoard, reachable } = await import('/client/boardplay.js');
  await loadFaces(kind);
  const km = kindModule(kind);
  const nestedIn = NESTED_IN;
  const host = document.createElement('div');
  document.body.append(host);
  const found = [];
  for (const s of steps) {
    const seats = Array.from({ length: s.players }, (_, i) => ({ seat: i, name: `Bot ${i + 1}` }));
    const ctx = makeCtx({ kind, seat: s.seat, seats, status: 'active' }, s.view, s.actions, s.seat);
    host.replaceChildren();
    const box = document.createElement('div');
    box.className = 'board-box';
    host.append(box);
    const board = km.render(s.view, ctx);
    box.append(board);
    const items = s.actions.map((a, i) => ({
      a, i, refs: km.refs ? km.refs(a, ctx) : [], label: km.label(a, ctx) || a.type,
    }));
    const used = new Set(reachable(items, board).flatMap((it) => it.refs));
    const holding = [...board.querySelectorAll('[data-ref]')].filter((n) => used.has(n.dataset.ref))
      .flatMap((n) => [...n.querySelectorAll('[data-ref], CONTROL')]
        .filter((m) => (m.dataset.ref ? used.has(m.dataset.ref) : !m.matches('.face-info')))
        .map((m) => `${n.dataset.ref} holds ${m.dataset.ref || m.outerHTML.slice(0, 60)}`));
    wireBoard(box, board, items, { state: { path: [] }, busy: false, onAct: () => {}, onSelect: () => {} });
    const nested = nestedIn(box);
    if (holding.length || nested.length) {
      found.push({ seat: s.seat, phase: s.view.phase ?? null, holding: [...new Set(holding)], nested });
    }
  }
  host.remove();
  return { drawn: steps.length, found };
}""".replace("NESTED_IN", NESTED_IN).replace("CONTROL", CONTROL)


def sample_states(kind: str, games: int) -> Iterator[tuple[int, str]]:
    """Every state of ``games`` random games of ``kind`` (rules only, in memory), each as
    the seat to act sees it with its legal actions, a game at a time: how many states,
    and their list as JSON text (what DRAW parses)."""
    game = registry.get(kind)
    assert game is not None, kind
    for number in range(games):
        players = game.min_players + number % (game.max_players - game.min_players + 1)
        rng = random.Random(f"{kind}-{number}")
        play = new_game(game, players, SHORT.get(kind), rng)
        seen: list[dict[str, Any]] = []
        for _ in range(5_000):
            if game.outcome(play.state) is not None:
                break
            seat = rng.choice(sorted(game.to_act(play.state)))
            actions = game.legal_actions(play.state, seat)
            if not actions:
                break
            seen.append({"players": players, "seat": seat, "view": game.view(play.state, seat), "actions": actions})
            moves = [a for a in actions if a["type"] not in WAITS]
            step(game, play, seat, rng.choice(moves if moves and rng.random() < 0.8 else actions), rng)
        yield len(seen), json.dumps(seen)


@pytest.mark.parametrize("kind", KINDS)
def test_no_control_on_the_board_holds_another(page: Any, kind: str) -> None:
    page.goto("/")
    page.wait_for_selector("[data-testid=create]")
    states = 0
    found: list[Any] = []
    for count, text in sample_states(kind, GAMES.get(kind, 6)):
        drawn = page.evaluate(DRAW, {"kind": kind, "text": text})
        assert drawn["drawn"] == count, (drawn["drawn"], count)
        found += drawn["found"]
        states += count
    print(f"\n{kind}: {states} states drawn")
    assert states >= MIN_STATES, states
    assert not found, (len(found), found[:5])
