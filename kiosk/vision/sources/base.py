"""The one interface every camera hides behind: open, read the latest frame, close.

A source is a context manager. ``read()`` returns a BGR uint8 frame, or None when no frame
came (a camera unplugged, a file at its end); it never raises for that, so the vision worker
decides what to do (reopen with backoff). ``open()`` raises :class:`SourceError`, a
:class:`~kiosk.errors.KioskError`, with a message that says which device and why.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType

import numpy as np

from kiosk.errors import KioskError


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
