"""Frames from a video file or a folder of images (demos, replays of a recorded table, tests).

Images in a folder play in name order; unreadable or oversized ones (:mod:`kiosk.vision.stills`)
are skipped with a warning, so one bad file does not stop a replay.
"""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np

from kiosk.vision.sources.base import FrameSource, SourceError

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})


class FileSource(FrameSource):
    """A video file (anything OpenCV's VideoCapture reads) or a folder of still images."""

    finite = True

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.name = f"file:{self.path}"
        self._images: list[Path] = []
        self._next = 0
        self._cap: cv2.VideoCapture | None = None

    def open(self) -> None:
        if self.path.is_dir():
            self._images = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._images:
                raise SourceError(f"no images in folder {self.path}")
            self._next = 0
            return
        if not self.path.is_file():
            raise SourceError(f"no such video file or folder: {self.path}")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"cannot read video file {self.path}")
        self._cap = cap

    def read(self) -> np.ndarray | None:
        if self._cap is not None:
            ok, frame = self._cap.read()
            return frame if ok else None
        from kiosk.vision.stills import ImageError, read_image  # stills imports this package

        while self._next < len(self._images):
            path = self._images[self._next]
            self._next += 1
            try:
                return read_image(path)  # its size checked from the header before decoding
            except ImageError as exc:
                log.warning("skipping %s", exc)
        return None

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
        self._images = []
