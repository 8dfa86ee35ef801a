"""The one interface every camera hides behind: open, read the latest frame, close.

A source is a context manager. ``read()`` returns a BGR uint8 frame, or None when no frame
came (a camera unplugged, a file at its end); it never raises for that, so the vision worker
decides what to do (reopen with backoff). ``open()`` raises :class:`SourceError`, a
:class:`~kiosk.errors.KioskError`, with a message that says which device and why.

What a driver hands over is not trusted: :func:`checked_frame` is the boundary every frame
crosses once, in the vision worker, before anything (the live view, calibration, the pipeline)
looks at it; a frame of the wrong type, dtype or shape never gets further.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType

import cv2
import numpy as np

from kiosk.errors import KioskError

MIN_SIDE = 32  # frames smaller than this on either side hold no card worth naming
MAX_PIXELS = 40_000_000  # larger frames are refused rather than risking memory


def checked_frame(frame: object) -> np.ndarray | None:
    """The frame as a contiguous BGR uint8 image (grey and BGRA converted), or None for anything
    that is not a usable picture: None, not an array, a dtype other than uint8 (float, int16),
    not 2-D or 3-D, 2 channels, empty, under MIN_SIDE or over MAX_PIXELS."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        return None
    if frame.ndim == 2:
        frame = frame[:, :, None]
    if frame.ndim != 3 or frame.shape[2] not in (1, 3, 4):
        return None
    h, w = frame.shape[:2]
    if min(h, w) < MIN_SIDE or h * w > MAX_PIXELS:
        return None
    if frame.shape[2] == 1:
        return cv2.cvtColor(np.ascontiguousarray(frame), cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(np.ascontiguousarray(frame), cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(frame)


class SourceError(KioskError):
    """A frame source cannot be opened (missing library, no device, unreadable path)."""


class FrameSource(ABC):
    """Frames from somewhere; ``name`` says where (for logs and the status screen)."""

    name: str = "source"
    #: True for sources that end (files); the worker then stops instead of reopening.
    finite: bool = False

    @abstractmethod
    def open(self) -> None:
        """Acquire the device or file; raise SourceError when it cannot be had."""

    @abstractmethod
    def read(self) -> np.ndarray | None:
        """The next (freshest) BGR frame, or None when there is none."""

    @abstractmethod
    def close(self) -> None:
        """Release the device; safe to call twice or without open()."""

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
