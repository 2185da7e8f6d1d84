"""Fortress (royals in hand) as the registry lists it: the game object, with its title,
summary, player counts, options, rules revision and the events undo never crosses, and the
modules that hold the contract's functions, which ``GameBase`` hands each function over to
by name (``games.base.HANDED_OVER``): ``rules`` (the first-player draw, who acts, what may
be done and what it causes, the outcome), ``evolve`` (the fold, as ``evolvers``), ``view``
(what a seat may see and believe), ``bot`` (the greedy bot's evaluation, ISMCTS's budget),
``faces`` (the cards as the web client shows them) and ``drawing`` (the board as text for
the terminal).
"""

from __future__ import annotations

from games.base import GameBase, Option
from games.fortress_royals import bot, drawing, faces, rules, view
from games.fortress_royals.evolve import EVOLVE


class FortressRoyals(GameBase):
    key = "fortress-royals"
    title = "Fortress (royals in hand)"
    summary = (
        "Build a secret ten-card hand one card at a time, each at the left or right end, "
        "to keep your Jacks, Queens and Kings deep inside it. Then attack your neighbour's "
        "hand from either end to break its defenses and capture its royals; rounds are "
        "played to a target score."
    )
    min_players = 2
    max_players = 5
    rules_revision = 2
    """Revision 2: every royal has "a rank of 0", so royals of any face are equal
    ranks; a King taken from an attacker scores as one of the "other royals" (1 point)."""
    options: tuple[Option, ...] = (
        Option(
            "royals_pair_by_face",
            "boolean",
            False,
            "Our first reading: only royals of the same face (two Kings, two Jacks) are equal "
            "ranks, so a Jack beside a Queen neither attacks nor defends with it. By default every "
            "royal has the rulebook's rank of 0 and any royals side by side are equal ranks.",
        ),
        Option(
            "kings_taken_in_defence_score_2",
            "boolean",
            False,
            "Our first reading: every King in a captured pile scores 2, also one taken from an "
            "attacker. By default only a King your own attack beat scores 2, and one taken in "
            "defence scores 1 like the other royals.",
        ),
        Option(
            "target",
            "integer",
            None,
            "Points that win the game; by default 21 for two players, 17 for three, 14 for four, 12 for five.",
            minimum=1,
            maximum=200,
            nullable=True,
        ),
        Option(
            "rounds",
            "integer",
            None,
            "Play exactly this many rounds instead of playing to a target score "
            "(the rulebook's shorter game); the highest total wins.",
            minimum=1,
            maximum=50,
            nullable=True,
        ),
        Option(
            "deck",
            "array",
            None,
            "Fixed card order(s) for tutorials and tests: one order of the 52 cards used for "
            "the first-player draw and every shuffle, or a list of orders: the first for the "
            "first-player draw, then one per shuffle (the last repeats). Not a fair deal.",
            nullable=True,
        ),
    )
    irreversible_types = frozenset(
        {
            "FirstCardsDrawn",
            "DeckShuffled",
            "CardsDealt",
            "CardDrawn",
            "AttackResolved",
            "AceDiscarded",
            "RoundEnded",
        }
    )
    unfair_options = ("deck",)
    evolvers = EVOLVE
    malformed_reason = 'An action is an object with a "type".'

    rules_module = rules
    view_module = view
    bot_module = bot
    faces_module = faces
    drawing_module = drawing


GAME = FortressRoyals()
