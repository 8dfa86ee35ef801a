"""The operator PIN with rate-limited tries: three wrong codes lock it, each lock twice as long."""

from __future__ import annotations

import hmac


class PinGuard:
    """Checks PIN entries; the caller passes the time so the rule is testable."""

    def __init__(self, pin: str, tries: int = 3, lock_seconds: float = 30.0) -> None:
        self._pin = pin
        self.tries = tries
        self.lock_seconds = lock_seconds
        self._failures = 0
        self._locks = 0
        self._locked_until = 0.0

    def locked_for(self, now: float) -> float:
        """Seconds left before a new try is accepted (0 when open)."""
        return max(0.0, self._locked_until - now)

    def check(self, entry: str, now: float) -> bool:
        """True for the right PIN; a locked guard refuses every entry, right or wrong."""
        if self.locked_for(now) > 0:
            return False
        if hmac.compare_digest(entry.encode(), self._pin.encode()):
            self._failures = 0
            self._locks = 0
            return True
        self._failures += 1
        if self._failures >= self.tries:
            self._failures = 0
            self._locked_until = now + self.lock_seconds * (2**self._locks)
            self._locks += 1
        return False
