"""Dragon Fortress (April May Games, our 160-card manifest in ``cards.json``): plant crops,
build towers, defeat dragons. Three or four players grow Estate Lines from a shared common
supply while the dragons, called one by one, march through them; the strongest Estate in
victory and bonus points wins when the Shadow Terror falls or a player plays the last card
from hand. ``RULINGS.md`` records how we read the rulebook where it is unclear (rules
revision 2, with options for revision 1's readings), and ``README.md`` how to play.
"""

from games.dragon_fortress.game import GAME

__all__ = ["GAME"]
