"""Stomping Grounds as the registry lists it: the game object, with its title, player
counts, options, rules revision and the events undo never crosses, and the modules that
hold the contract's functions, which ``GameBase`` hands each function over to by name
(``games.base.HANDED_OVER``): ``rules`` (the options and the opening, who acts, what may
be done and the move that does it, why anything else is refused, the outcome), ``evolve``
(the fold, as ``evolvers``), ``view`` (what a seat may see and believe), ``bot`` (the
greedy bot's evaluation, ISMCTS's budget), ``faces`` (the cards as the web client shows
them) and ``drawing`` (the board as text for the terminal).
"""

from __future__ import annotations

from games.base import GameBase, Option

from . import bot, drawing, faces, rules, view
from .cards import DECK_KEYS
from .evolve import EVOLVE


class StompingGrounds(GameBase):
    key = "stomping-grounds"
    title = "Stomping Grounds"
    summary = (
        "Two to four dragons fight for a land of realms laid edge to edge. Fly over the map, "
        "complete challenges and duel other dragons to burn your own 60-card deck away: the first "
        "dragon with no cards left in deck, stash and junk at the end of a turn wins."
    )
    min_players = 2
    max_players = 4
    rules_revision = 2
    options: tuple[Option, ...] = (
        Option(
            "decks",
            "array",
            None,
            "Deck key per seat (" + ", ".join(DECK_KEYS) + "); dealt at random when null.",
            nullable=True,
        ),
        Option(
            "deck",
            "array",
            None,
            "Explicit deck order per seat, top first (card ids 's<seat>-<card slug>-<copy>'), for "
            "scenarios and tutorials; needs 'decks'; setup keeps it unshuffled; hidden until the end.",
            nullable=True,
        ),
        Option(
            "turn_limit",
            "integer",
            None,
            "Rounds after which the dragon with the fewest cards left wins (our rule, not the "
            f"rulebook's); null: no limit (rules revision 1 plays {rules.REVISION_1_TURN_LIMIT} when null).",
            minimum=1,
            maximum=200,
            nullable=True,
        ),
    )
    # events that draw, shuffle or reveal a face-down card (a deck's top, a searched card)
    irreversible_types = frozenset(
        {
            "GameStarted",
            "LuckDrawn",
            "DeckShuffled",
            "CardsDrawn",
            "CardsStashed",
            "DragonFlew",
            "CardsBurned",
            "RealmPlayed",
            "HoardPlayed",
        }
    )
    unfair_options = ("deck",)
    evolvers = EVOLVE
    strict_json = True

    rules_module = rules
    view_module = view
    bot_module = bot
    faces_module = faces
    drawing_module = drawing


GAME = StompingGrounds()
