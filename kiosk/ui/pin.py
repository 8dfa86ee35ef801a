"""The operator PIN with rate-limited tries: three wrong codes lock it, each lock twice as long.

The lockout survives a power cut: the failed tries, the locks so far and the time left on the
current lock are saved in the state directory (``pin.json``) at each change, so pulling the plug
does not buy new tries. Within a run the lock is timed on the monotonic clock the caller passes;
across runs the saved end is a wall-clock time, and a lock read back never lasts longer than its
own length (a clock set back by a day cannot stretch it to a day).
"""

from __future__ import annotations

import hmac
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.devices.state import count, load_json, save_file


class PinGuard:
    """Checks PIN entries; the caller passes the (monotonic) time so the rule is testable.

    ``path``: where the lockout is kept between runs (None: in memory only); ``wall``: the wall
    clock that dates a saved lock."""

    def __init__(
        self,
        pin: str,
        tries: int = 3,
        lock_seconds: float = 30.0,
        path: Path | None = None,
        wall: Callable[[], float] = time.time,
        now: float | None = None,
    ) -> None:
        self._pin = pin
        self.tries = tries
        self.lock_seconds = lock_seconds
        self.path = path
        self._wall = wall
        self._failures = 0
        self._locks = 0
        self._locked_until = 0.0
        saved = load_json(path, self._parse) if path is not None else None
        if saved is not None:
            self._failures, self._locks, left = saved
            self._locked_until = (time.monotonic() if now is None else now) + left

    def _parse(self, data: Any) -> tuple[int, int, float]:
        """(failures, locks, seconds of lock left) from the saved file."""
        failures, locks = count(data["failures"]), count(data["locks"])
        if locks > 64:
            raise ValueError(f"{locks} locks")
        until = float(data["locked_until"])
        longest = self.lock_seconds * 2 ** max(locks - 1, 0)
        left = min(max(0.0, until - self._wall()), longest) if until else 0.0
        return min(failures, self.tries - 1), locks, left

    def locked_for(self, now: float) -> float:
        """Seconds left before a new try is accepted (0 when open)."""
        return max(0.0, self._locked_until - now)

    def check(self, entry: str, now: float) -> bool:
        """True for the right PIN; a locked guard refuses every entry, right or wrong."""
        if self.locked_for(now) > 0:
            return False
        if hmac.compare_digest(entry.encode(), self._pin.encode()):
            if self._failures or self._locks:
                self._failures = 0
                self._locks = 0
                self._save(now)
            return True
        self._failures += 1
        if self._failures >= self.tries:
            self._failures = 0
            self._locked_until = now + self.lock_seconds * (2**self._locks)
            self._locks += 1
        self._save(now)
        return False

    def _save(self, now: float) -> None:
        """Write the lockout before answering: a power cut right after a wrong try keeps it."""
        if self.path is None:
            return
        left = self.locked_for(now)
        data = {"failures": self._failures, "locks": self._locks, "locked_until": self._wall() + left if left else 0.0}
        save_file(self.path, json.dumps(data).encode())
