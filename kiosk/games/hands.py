"""A hand the engine cannot see: at the table the camera only sees cards leave a hand.

An engine built with ``at_table=True`` does not deal. Where its rules need a hand, it keeps an
:class:`UnseenHand`: how many cards the player holds (when the deal fixes it) and nothing about
which. A card laid from it is named only then; legality that depends on the rest of the hand is
proven later from what the player lays or shows (``kiosk.games.renege``), never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class UnseenHand:
    """``count`` cards nobody has seen yet (None: the table does not know how many)."""

    count: int | None = None

    def __len__(self) -> int:
        return self.count or 0

    def lay(self) -> None:
        """One card leaves the hand (the camera saw it land). A known count cannot go below 0."""
        if self.count is not None:
            if self.count == 0:
                raise ValueError("no card left in this hand")
            self.count -= 1

    def take(self, n: int = 1) -> None:
        """The player takes ``n`` cards the camera does not see (a draw, a gift)."""
        if self.count is not None:
            self.count += n
