"""The card outlines the detection stages pass on (:class:`Candidate`) and the cards selection
keeps, with what each set aside at its place (:class:`Kept`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True, eq=False)
class Candidate:
    """A card outline proposed on the analysis copy of a frame: its ``quad`` ((4, 2) float32),
    how card-like it is (``score``), whether it was completed from a partial view (``partial``:
    a guessed outline, read more strictly), and whether it is a region of the outline model
    (``from_model``: kept on a table as white as paper, and parted where two cards merged)."""

    quad: np.ndarray
    score: float
    partial: bool = False
    from_model: bool = False


@dataclass(eq=False)
class Kept:
    """A candidate kept by :func:`kiosk.vision.select.suppress`, its bounding ``box`` (x0, y0, x1,
    y1) and its *alternates*: the outlines it beat at its place, best first, for a second look
    when its own face cannot be read."""

    candidate: Candidate
    box: np.ndarray
    alternates: list[np.ndarray] = field(default_factory=list)

    @property
    def quad(self) -> np.ndarray:
        return self.candidate.quad

    @property
    def partial(self) -> bool:
        return self.candidate.partial
