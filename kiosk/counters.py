"""Usage counters (counts only, never images): stamps per place, games played.

Kept as a small JSON file in the state directory, rewritten atomically, so the operator menu
survives power cuts; an unreadable file starts again from zero rather than stopping the kiosk.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from pathlib import Path
from typing import Any

from kiosk.devices.state import atomic_write

log = logging.getLogger(__name__)


class Counters:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.places: Counter[str] = Counter()
        self.games: Counter[str] = Counter()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            self.places.update({str(k): int(v) for k, v in data.get("places", {}).items()})
            self.games.update({str(k): int(v) for k, v in data.get("games", {}).items()})
        except FileNotFoundError:
            pass
        except (OSError, ValueError, AttributeError, TypeError) as exc:
            log.warning("counters file %s unreadable (%s); starting from zero", path, exc)

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
        data = json.dumps({"places": self.places, "games": self.games}, sort_keys=True).encode()
        try:
            atomic_write(self.path, data)
        except OSError as exc:  # a full disk must not stop the kiosk; the counts stay in memory
            log.warning("cannot save counters to %s: %s", self.path, exc)
