"""Information-set Monte Carlo tree search (single observer, SO-ISMCTS).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (2012):
one tree over the searching seat's information set. Every iteration samples a
full state the seat cannot tell from the real one (``game.determinize``), walks
the tree choosing among the actions legal in that sample (UCB1 with
availability counts, since an action exists only in the samples where it is
legal), adds one node, plays a couple of random moves (``ROLLOUT_DEPTH``), scores
the leaf (the outcome when the game ended, else ``game.evaluate`` per seat) and
credits each edge with the score of the seat that took it. Short rollouts ending
in the evaluation beat long random ones here: a random move is a poor model of
either player, and the time saved buys more iterations (fortress-royals against
greedy, same 10 deals: 12 random moves 20%, 2 moves 65%, 2 moves and the prior 90%).

The root's actions also start from a prior: in each of the first few
determinizations, the state each action leads to is evaluated (the greedy bot's
look) and counts as ``PRIOR_VISITS`` visits of that action with that score
(prior knowledge as virtual visits, Gelly and Silver 2007). The search so starts
from the greedy choice, averaged over several guesses at the hidden cards, and
leaves it only when the simulations say so.

The root also widens progressively (Coulom 2007; Chaslot et al. 2008 call it
progressive unpruning): after ``n`` iterations only the ``WIDEN_SCALE * n **
WIDEN_POWER`` actions the prior ranks best (at least two) may be tried and chosen,
so a budget of a few hundred iterations is spent on a dozen or so candidates, not
spread over every legal action. It matters where a seat has many actions whose
values differ by less than the noise of one simulation: without it,
fortress-royals' secret move of one card (91 actions, a few visits each) was
chosen all but at random.

Pure like the rest of ``games/``: no I/O and no clock. A caller that owns a
clock hands it in (``clock``, seconds): the search then runs until
``MOVE_SECONDS`` have passed on it, checked before every iteration, with
``ITERATION_CAP`` only as a safety net. Without a clock (tests, pure callers)
the budget is a fixed number of iterations per kind, its bot module's
``ISMCTS_ITERATIONS`` (``GameBase.ismcts_iterations``; ``ITERATIONS`` lists them). A
``deadline`` callable, when given, stops the search early either way.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from games import registry
from games.base import Action, Game, GameBase, IllegalAction, State

MOVE_SECONDS = 0.3
ITERATION_CAP = 100_000
DEFAULT_ITERATIONS = 300
"""Iterations per move without a clock, for a kind whose bot module sets none."""
ROLLOUT_DEPTH = 2
EXPLORATION = 0.7
PRIOR_SAMPLES = 4
PRIOR_VISITS = 2
WIDEN_SCALE = 2.0
WIDEN_POWER = 0.3

Key = tuple[int, str]
Clock = Callable[[], float]


def iterations_of(game: Game) -> int:
    """The iterations per move without a clock for ``game``'s kind: its bot module's
    ``ISMCTS_ITERATIONS``, else ``DEFAULT_ITERATIONS``."""
    if isinstance(game, GameBase) and game.ismcts_iterations is not None:
        return game.ismcts_iterations
    return DEFAULT_ITERATIONS


def __getattr__(name: str) -> Mapping[str, int]:
    """``ITERATIONS``: each registered kind's iterations per move without a clock, by kind
    (for the kinds whose bot module sets them). Read from the registry when asked rather
    than at import, so that loading this module never loads the game packages."""
    if name != "ITERATIONS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return MappingProxyType(
        {
            kind: game.ismcts_iterations
            for kind, game in registry.all_games().items()
            if isinstance(game, GameBase) and game.ismcts_iterations is not None
        }
    )


_KEYS = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def action_key(action: Action) -> str:
    """The canonical JSON of an action: equal actions get equal keys."""
    return _KEYS.encode(action)


@dataclass(eq=False)
class Node:
    """One edge of the tree and the node it leads to: how often it was available,
    visited, and the total score of the seat whose action it is."""

    visits: int = 0
    available: int = 0
    total: float = 0.0
    children: dict[Key, Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        if self.visits == 0:
            return math.inf
        return self.total / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


def considered(game: Game, state: State, seat: int) -> list[Action]:
    """The actions a bot chooses among: ``legal_actions``, less those that the kind's bot
    module's ``considered(state, seat, legal)``, when it has one, leaves out by a policy of
    the bots' own, never a rule (Dragoborne's bots move a creature once a turn, where its
    rules set no limit, so that their turns end)."""
    legal = game.legal_actions(state, seat)
    policy = getattr(getattr(game, "bot_module", None), "considered", None)
    return legal if policy is None else list(policy(state, seat, legal))


def ismcts_bot(game: Game, state: State, seat: int, rng: random.Random) -> Action:
    """The ``ismcts`` bot at its default budget for ``game`` (no clock: a fixed count)."""
    return search(game, state, seat, rng)


def search(
    game: Game,
    state: State,
    seat: int,
    rng: random.Random,
    iterations: int | None = None,
    deadline: Callable[[], bool] | None = None,
    clock: Clock | None = None,
    seconds: float | None = None,
    rollout_depth: int = ROLLOUT_DEPTH,
    exploration: float = EXPLORATION,
    prior_samples: int = PRIOR_SAMPLES,
    prior_visits: int = PRIOR_VISITS,
    widen_scale: float = WIDEN_SCALE,
    widen_power: float = WIDEN_POWER,
) -> Action:
    """The action for ``seat`` after the budget: ``seconds`` (by default ``MOVE_SECONDS``)
    on ``clock`` when one is handed in, else ``iterations`` (by default the kind's, ``iterations_of``); whichever
    comes first, stopping earlier when ``deadline()`` is true.

    ``state`` is the true state, but it is read only through
    ``game.determinize(state, seat, ·)`` and ``game.legal_actions(state, seat)``
    (with the kind's bot policy on them, ``considered``, which reads what the seat sees):
    nothing the seat could not know reaches the choice.
    """
    legal = considered(game, state, seat)
    if len(legal) <= 1:
        return legal[0]
    if iterations is not None:
        budget = iterations
    elif clock is not None:
        budget = ITERATION_CAP
    else:
        budget = iterations_of(game)
    started = clock() if clock is not None else 0.0
    allowed = MOVE_SECONDS if seconds is None else seconds

    def stop() -> bool:
        if deadline is not None and deadline():
            return True
        return clock is not None and clock() - started >= allowed

    root = Node()
    sampled = 0
    ranked: list[Key] = []  # the root's actions, best prior first
    widened: frozenset[Key] | None = None  # the ones that may be tried now (None: all)
    for done in range(budget):
        if stop():
            break
        world = game.determinize(state, seat, rng)
        if sampled < prior_samples and prior_visits > 0:
            _add_prior(game, world, seat, root, rng, prior_visits)
            sampled += 1
            ranked = sorted(root.children, key=lambda key: -root.children[key].total / root.children[key].visits)
            widened = None
        if ranked and widen_scale > 0:
            width = max(2, math.ceil(widen_scale * (done + 1) ** widen_power))
            if widened is None or len(widened) < min(width, len(ranked)):
                widened = frozenset(ranked[:width])
        _iterate(game, world, seat, root, rng, rollout_depth, exploration, widened)
    return _most_visited(root, seat, legal, widened)


@dataclass(frozen=True)
class Appraisal:
    """One legal action of a seat, as the search saw it: how often it was tried, and the
    seat's mean score after it (its share of the win at the end, else ``evaluate``)."""

    action: Action
    visits: int
    value: float


def appraise(game: Game, state: State, seat: int, rng: random.Random, iterations: int) -> list[Appraisal]:
    """Every legal action of ``seat`` with the search's estimate of the seat's score after
    it, most visited first: the post-game analysis' look at a decision. Every action is
    tried (no widening, no prior: each unvisited action comes first), at least twice as
    many iterations as there are actions. Like ``search``, it reads ``state`` only through
    ``game.determinize(state, seat, ·)`` and ``game.legal_actions(state, seat)``."""
    legal = game.legal_actions(state, seat)
    root = Node()
    for _ in range(max(iterations, 2 * len(legal))):
        world = game.determinize(state, seat, rng)
        _iterate(game, world, seat, root, rng, ROLLOUT_DEPTH, EXPLORATION, None)
    found = []
    for action in legal:
        child = root.children.get((seat, action_key(action)))
        visits = child.visits if child is not None else 0
        found.append(Appraisal(action, visits, child.total / visits if child is not None and visits else 0.0))
    return sorted(found, key=lambda a: (-a.visits, -a.value))


def _add_prior(game: Game, world: State, seat: int, root: Node, rng: random.Random, visits: int) -> None:
    """Count ``visits`` visits of each of ``seat``'s actions in ``world`` at the evaluation
    of the state it leads to (the greedy bot's look, one determinization's worth)."""
    for action in considered(game, world, seat):
        after = _apply(game, world, seat, action, rng)
        if after is None:
            continue
        key = (seat, action_key(action))
        child = root.children.get(key)
        if child is None:
            child = root.children[key] = Node()
        child.available += visits
        child.visits += visits
        child.total += visits * _scorer(game, after)(seat)


def _iterate(
    game: Game,
    world: State,
    seat: int,
    root: Node,
    rng: random.Random,
    rollout_depth: int,
    exploration: float,
    allowed: frozenset[Key] | None = None,
) -> None:
    """One simulation in ``world``; at the root only the ``allowed`` actions (when some
    of them are legal there)."""
    path: list[tuple[Node, int]] = []
    node = root
    acting: int | None = seat
    expanded = False
    while acting is not None and not expanded:
        # The root's actions are its caller's to narrow: search keeps to the considered ones
        # (its prior, so its widening, and its choice); appraise weighs every legal one.
        legal = game.legal_actions(world, acting) if node is root else considered(game, world, acting)
        if not legal:
            break
        keyed = [((acting, action_key(action)), action) for action in legal]
        if node is root and allowed is not None:
            keyed = [pair for pair in keyed if pair[0] in allowed] or keyed
        untried = []
        for key, action in keyed:
            child = node.children.get(key)
            if child is None:
                untried.append((key, action))
            else:
                child.available += 1
        if untried:
            key, action = untried[rng.randrange(len(untried))]
            child = node.children[key] = Node(available=1)
            expanded = True
        else:
            key, action = max(keyed, key=lambda pair: node.children[pair[0]].ucb(exploration))
            child = node.children[key]
        world = _apply(game, world, acting, action, rng)
        if world is None:
            return
        path.append((child, acting))
        node = child
        acting = _next_actor(game, world)
    for _ in range(rollout_depth):
        if acting is None:
            break
        legal = considered(game, world, acting)
        if not legal:
            break
        after = _apply(game, world, acting, legal[rng.randrange(len(legal))], rng)
        if after is None:
            break
        world = after
        acting = _next_actor(game, world)
    score = _scorer(game, world)
    for child, actor in path:
        child.visits += 1
        child.total += score(actor)


def _next_actor(game: Game, world: State) -> int | None:
    """Who acts next in a simulation: the lowest seat to act, as the service would
    pick first; None once the game is over or nobody may act."""
    if game.outcome(world) is not None:
        return None
    seats = game.to_act(world)
    return min(seats) if seats else None


def _apply(game: Game, world: State, seat: int, action: Action, rng: random.Random) -> State | None:
    """The state after ``action``; None if the game refuses an action it listed
    (a game bug: the simulation stops there rather than crash the bot)."""
    try:
        return game.decision(world, seat, action, rng).state
    except IllegalAction:
        return None


def _scorer(game: Game, world: State) -> Callable[[int], float]:
    """Each seat's score of a leaf, computed once per seat on demand: 1/len(winners)
    or 0 at the end of the game, else ``evaluate``."""
    result = game.outcome(world)
    cache: dict[int, float] = {}

    def score(seat: int) -> float:
        if seat not in cache:
            if result is None:
                cache[seat] = game.evaluate(world, seat)
            else:
                winners = result["winners"]
                cache[seat] = 1.0 / len(winners) if seat in winners else 0.0
        return cache[seat]

    return score


def _most_visited(root: Node, seat: int, legal: list[Action], allowed: frozenset[Key] | None = None) -> Action:
    """The most visited of the actions legal now and ``allowed`` (ties: the better mean,
    then list order)."""
    if allowed is not None:
        legal = [action for action in legal if (seat, action_key(action)) in allowed] or legal

    def rank(action: Action) -> tuple[int, float]:
        child = root.children.get((seat, action_key(action)))
        if child is None or child.visits == 0:
            return (0, 0.0)
        return (child.visits, child.total / child.visits)

    return max(legal, key=rank)
