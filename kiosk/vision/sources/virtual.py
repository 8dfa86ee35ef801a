"""A table played by the renderer: cards slid in and taken away, hands passing over, light
changing, with the ground truth of every frame (demos without a camera, tests, benchmarks)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from kiosk.vision.sources.base import FrameSource, SourceError


class VirtualSource(FrameSource):
    """Frames of ``kiosk.render.timeline.VirtualTable``; ``truth`` is the last frame's truth.

    ``fps`` paces ``read()`` like a camera would (None: as fast as asked, for benchmarks);
    ``realtime`` makes the film follow the wall clock as a real table does: a slow reader gets
    the frame of *now*, skipping the ones it missed, and the film goes on while the source is
    closed (an unplugged camera). Other keyword arguments (``split``, ``script``, ``mat``) go to
    VirtualTable unchanged.
    """

    def __init__(
        self,
        deck_id: str = "standard-52",
        seed: int = 0,
        size: tuple[int, int] = (1280, 720),
        fps: float | None = None,
        realtime: bool = False,
        **table_kwargs: Any,
    ) -> None:
        self.deck_id = deck_id
        self.seed = seed
        self.size = size
        self.fps = fps
        self.table_kwargs = table_kwargs
        self.name = f"virtual:{deck_id}:{seed}"
        self.truth: Any = None
        self.index = 0
        self._table: Any = None
        self._last = 0.0
        self.realtime = realtime
        self._epoch: float | None = None

    def open(self) -> None:
        try:
            from kiosk.render.timeline import VirtualTable
        except ImportError as exc:
            raise SourceError(f"the virtual table needs kiosk.render.timeline: {exc}") from None
        self._table = VirtualTable(self.deck_id, seed=self.seed, size=self.size, **self.table_kwargs)
        if self._epoch is None:
            self._epoch = time.monotonic()
        if not self.realtime:  # a reopened real-time table goes on where the film is now
            self.index = 0
        self.truth = None

    @property
    def homography(self) -> np.ndarray:
        """Camera pixels -> mat coordinates of the filmed table (what calibration would find)."""
        if self._table is None:
            raise SourceError("the virtual table is not open")
        return np.linalg.inv(np.asarray(self._table.mat_to_frame, dtype=np.float64))

    def read(self) -> np.ndarray | None:
        if self._table is None:
            return None
        if self.fps:
            wait = self._last + 1.0 / self.fps - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self._last = time.monotonic()
        if self.realtime and self._epoch is not None:
            from kiosk.render.timeline import FPS

            self.index = max(self.index, int((time.monotonic() - self._epoch) * FPS))
            if self.index >= len(self._table):  # the film loops, as a demo on a stand does
                self._epoch = time.monotonic()
                self.index = 0
        try:
            frame, self.truth = self._table.frame(self.index)
        except (IndexError, StopIteration):
            return None
        self.index += 1
        return frame

    def close(self) -> None:
        self._table = None
