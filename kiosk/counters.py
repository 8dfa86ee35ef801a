"""Usage counters (counts only, never images): stamps per place, games played.

Kept as a small JSON file in the state directory, rewritten atomically, so the operator menu
survives power cuts. The file is read defensively (:func:`kiosk.devices.state.load_json`): a bad
one is set aside and the counts start again from zero rather than stopping the kiosk; a failed
save keeps the counts in memory and is reported once.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from kiosk.devices.state import count, load_json, save_file

#: At most this many places or games are kept (a deck has 54 cards; the registry 13 games).
MAX_NAMES = 1000


def _parse(data: Any) -> tuple[dict[str, int], dict[str, int]]:
    """The file's two tables, checked: names to counts (0 to 2**53), at most MAX_NAMES each."""
    if not isinstance(data, dict):
        raise TypeError("not a JSON object")
    tables = []
    for key in ("places", "games"):
        table = data.get(key, {})
        if not isinstance(table, dict) or len(table) > MAX_NAMES:
            raise ValueError(f"{key} must be an object of at most {MAX_NAMES} names")
        tables.append({str(k): count(v) for k, v in table.items()})
    return tables[0], tables[1]


class Counters:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.places: Counter[str] = Counter()
        self.games: Counter[str] = Counter()
        loaded = load_json(path, _parse)
        if loaded is not None:
            self.places.update(loaded[0])
            self.games.update(loaded[1])

    def stamp(self, card_id: str) -> None:
        self.places[card_id] += 1
        self._save()

    def game(self, game_id: str) -> None:
        self.games[game_id] += 1
        self._save()

    def summary(self) -> dict[str, Any]:
        return {
            "stamps": sum(self.places.values()),
            "games": sum(self.games.values()),
            "places": dict(self.places),
            "per_game": dict(self.games),
        }

    def _save(self) -> None:
        save_file(self.path, json.dumps({"places": self.places, "games": self.games}, sort_keys=True).encode())
