"""Dragon Fortress (April May Games): plant crops, build towers, defeat dragons.

Three or four players grow Estate Lines from a shared common supply while the
dragons, called one by one, march through them. The rules live in ``rules.py``
(and the modules of each step of a turn, ``march.py`` and ``acquire.py``, which read
the table through ``reading.py``), the table and its fold in ``state.py``, the cards
in ``cards.json``.
"""

from games.dragon_fortress.game import GAME, DragonFortress

__all__ = ["GAME", "DragonFortress"]
