"""A webcam or capture device through OpenCV's VideoCapture (laptops at fairs, USB cameras).

The driver buffer is kept to one frame so that ``read()`` returns what the camera sees now,
not what it saw half a second ago while the pipeline was busy.
"""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.vision.sources.base import FrameSource, SourceError


class OpenCVSource(FrameSource):
    """``device`` is a camera index (0) or a device path or URL (``/dev/video0``)."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = (1280, 720)) -> None:
        self.device = device
        self.size = size
        self.name = f"opencv:{device}"
        self._cap: cv2.VideoCapture | None = None

    def open(self) -> None:
        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"camera {self.device!r} cannot be opened (unplugged, busy or no permission?)")
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        if self.size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def read(self) -> np.ndarray | None:
        if self._cap is None:
            return None
        ok, frame = self._cap.read()
        return frame if ok and frame is not None else None

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
