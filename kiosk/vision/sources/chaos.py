"""A fault-injecting camera for the demo and the reliability tests: it wraps another source and,
on a seeded schedule, drops frames, hands over garbage (black, white, noise, tiny, huge, wrong
shape, wrong dtype, None) or vanishes for a while as an unplugged camera does, then comes back.

The vision worker and the app run unchanged on top of it; the log says what was injected and
what the kiosk recovered from (a good frame processed after the fault, a reopened camera).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from kiosk.vision.sources.base import FrameSource, SourceError

GARBAGE: tuple[str, ...] = ("black", "white", "noise", "tiny", "huge", "gray2d", "rgba", "float", "empty")
CATEGORIES: tuple[str, ...] = ("dropped", "garbage", "vanished")


@dataclass
class ChaosLog:
    injected: Counter[str] = field(default_factory=Counter)
    recovered: Counter[str] = field(default_factory=Counter)
    garbage_kinds: Counter[str] = field(default_factory=Counter)
    open_faults: Counter[str] = field(default_factory=Counter)

    def inject(self, category: str) -> None:
        self.injected[category] += 1
        self.open_faults[category] += 1

    def good_frame(self) -> None:
        """A real frame went through again: every fault so far is behind us."""
        self.recovered.update(self.open_faults)
        self.open_faults.clear()

    def summary(self) -> dict[str, dict[str, int]]:
        return {c: {"injected": self.injected[c], "recovered": self.recovered[c]} for c in CATEGORIES}


def garbage_frame(kind: str, rng: np.random.Generator, size: tuple[int, int]) -> object:
    """A frame no camera should send, of the named kind."""
    w, h = size
    if kind == "black":
        return np.zeros((h, w, 3), np.uint8)
    if kind == "white":
        return np.full((h, w, 3), 255, np.uint8)
    if kind == "noise":
        return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    if kind == "tiny":
        return np.zeros((1, 1, 3), np.uint8)
    if kind == "huge":
        return np.full((3000, 4000, 3), 128, np.uint8)
    if kind == "gray2d":
        return rng.integers(0, 256, (h, w), dtype=np.uint8)
    if kind == "rgba":
        return np.zeros((h, w, 4), np.uint8)
    if kind == "float":
        return rng.random((h, w, 3))
    return np.zeros((0, 0, 3), np.uint8)


class ChaosSource(FrameSource):
    """``inner`` with faults: each read drops (``p_drop``) or garbles (``p_garbage``) the frame, and
    every ``vanish_every`` seconds the camera disappears for ``vanish_seconds``."""

    def __init__(
        self,
        inner: FrameSource,
        seed: int = 0,
        p_drop: float = 0.03,
        p_garbage: float = 0.03,
        vanish_every: float = 25.0,
        vanish_seconds: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        log: ChaosLog | None = None,
    ) -> None:
        self.inner = inner
        self.name = f"chaos:{inner.name}"
        self.finite = inner.finite
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.p_drop, self.p_garbage = p_drop, p_garbage
        self.vanish_every, self.vanish_seconds = vanish_every, vanish_seconds
        self.clock = clock
        self.log = log or ChaosLog()
        self._next_vanish = clock() + vanish_every
        self._back_at = 0.0
        self._size = (640, 480)

    @property
    def index(self) -> int:
        """The wrapped source's frame number (the virtual table's film time)."""
        return int(getattr(self.inner, "index", 0))

    def _vanished(self) -> bool:
        now = self.clock()
        if now < self._back_at:
            return True
        if now >= self._next_vanish:
            self._back_at = now + self.vanish_seconds
            self._next_vanish = now + self.vanish_every * self.rng.uniform(0.7, 1.3)
            self.log.inject("vanished")
            return True
        return False

    def open(self) -> None:
        if self._vanished():
            raise SourceError("chaos camera: unplugged")
        self.inner.open()

    def read(self) -> object:  # type: ignore[override]
        if self._vanished():
            return None
        frame = self.inner.read()
        if frame is None:
            return None
        self._size = (frame.shape[1], frame.shape[0])
        roll = self.rng.random()
        if roll < self.p_drop:
            self.log.inject("dropped")
            frame = self.inner.read()  # the dropped frame never arrives; the next one does
            if frame is None:
                return None
        elif roll < self.p_drop + self.p_garbage:
            kind = self.rng.choice(GARBAGE)
            self.log.inject("garbage")
            self.log.garbage_kinds[kind] += 1
            return garbage_frame(kind, self.np_rng, self._size)
        self.log.good_frame()
        return frame

    def close(self) -> None:
        self.inner.close()
