"""Telling a frame that shows nothing new from the last frame analysed.

Most of the time nothing moves on a kiosk's table: the cards lie there between two turns. The
pipeline then need not detect and identify again (60 to 85 ms of CPU per frame here, several
times that on a Pi, which runs hot under a constant load). A frame is *unchanged* when a coarse
thumbnail of it (blocks of about 40x40 pixels at 1280x720, which average sensor noise away)
nowhere differs from the last analysed frame's by more than a few grey levels. A card slid in, a
fingertip on an index, a card turned all change whole blocks by tens of levels. The comparison
is with the last frame *analysed*, not the previous one, so a slow drift (the light of a window)
adds up until it counts.
"""

from __future__ import annotations

import cv2
import numpy as np

GRID: tuple[int, int] = (32, 18)  # thumbnail (w, h): a 16:9 frame in blocks about a card's index wide
LEVEL = 6  # grey levels a block may drift; a card's edge or a finger moves blocks by 20 or more
MAX_RUN = 15  # frames skipped in a row at most (1 s at 15 fps): a bounded staleness, whatever happens


class StillFrames:
    """Call :meth:`unchanged` with every frame; :meth:`skipped` when the caller used its verdict
    to skip the frame, :meth:`analysed` when it analysed it instead."""

    def __init__(self, level: int = LEVEL, grid: tuple[int, int] = GRID, max_run: int = MAX_RUN) -> None:
        self.level, self.grid, self.max_run = level, grid, max_run
        self._reference: np.ndarray | None = None
        self._latest: np.ndarray | None = None
        self._run = 0
        self.analysed_frames = 0  # how many frames were analysed: what bench_pipeline reports

    @classmethod
    def never(cls) -> StillFrames:
        """One that never skips: for benchmarks whose every frame must be a fresh look."""
        return cls(max_run=0)

    def unchanged(self, bgr: np.ndarray) -> bool:
        """Whether ``bgr`` (BGR uint8) shows what the last analysed frame showed, within noise,
        and fewer than ``max_run`` frames have been skipped since it."""
        small = cv2.resize(bgr, self.grid, interpolation=cv2.INTER_AREA)
        self._latest = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.int16)
        ref = self._reference
        return (
            ref is not None
            and ref.shape == self._latest.shape
            and self._run < self.max_run
            and int(np.abs(self._latest - ref).max()) <= self.level
        )

    def skipped(self) -> None:
        self._run += 1

    def analysed(self) -> None:
        """The frame last passed to :meth:`unchanged` is the new reference."""
        self._reference, self._run = self._latest, 0
        self.analysed_frames += 1
