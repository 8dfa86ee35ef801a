"""A webcam or capture device through OpenCV's VideoCapture (laptops at fairs, USB cameras).

The driver buffer is kept to one frame so that ``read()`` returns what the camera sees now,
not what it saw half a second ago while the pipeline was busy. Frames are asked for as MJPG:
most USB webcams give 1280x720 uncompressed (YUYV) at 10 fps or less over USB 2, and at the
rate asked for (``fps``) only compressed.
"""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.vision.sources.base import FrameSource, SourceError


class OpenCVSource(FrameSource):
    """``device`` is a camera index (0) or a device path or URL (``/dev/video0``); ``size`` and
    ``fps`` are asked of the camera (a webcam that cannot gives what it can)."""

    def __init__(
        self, device: int | str = 0, size: tuple[int, int] | None = (1280, 720), fps: float | None = None
    ) -> None:
        self.device = device
        self.size = size
        self.fps = fps
        self.name = f"opencv:{device}"
        self._cap: cv2.VideoCapture | None = None

    def open(self) -> None:
        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise SourceError(f"camera {self.device!r} cannot be opened (unplugged, busy or no permission?)")
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))  # before the size: V4L2 picks the mode
        if self.size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        if self.fps:
            cap.set(cv2.CAP_PROP_FPS, float(self.fps))
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
