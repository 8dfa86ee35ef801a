"""The Raspberry Pi camera module through picamera2 (from apt on the Pi, absent elsewhere).

Continuous capture: the camera runs in video mode with a small buffer queue and ``read()``
takes the newest completed frame. picamera2's ``RGB888`` format is laid out B, G, R in memory,
which is OpenCV's order, so frames need no conversion. The detector downsamples internally
(under a millisecond), so the separate low-resolution stream is not used.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

import numpy as np

from kiosk.vision.sources.base import FrameSource, SourceError

log = logging.getLogger(__name__)


def picamera2_available() -> bool:
    """Whether the picamera2 library can be imported (only on a Pi with python3-picamera2)."""
    try:
        importlib.import_module("picamera2")
    except Exception:  # noqa: BLE001 - a broken install is as absent as a missing one
        return False
    return True


class Picamera2Source(FrameSource):
    """Camera ``index`` of the Pi in video mode at ``size`` (width, height)."""

    def __init__(self, size: tuple[int, int] = (1280, 720), index: int = 0) -> None:
        self.size = size
        self.index = index
        self.name = f"picamera2:{index}"
        self._cam: Any = None

    def open(self) -> None:
        try:
            module = importlib.import_module("picamera2")
        except Exception as exc:  # noqa: BLE001
            raise SourceError(
                "picamera2 is not installed (on the Pi: sudo apt install "
                "python3-picamera2, and a venv with --system-site-packages): "
                f"{exc}"
            ) from None
        try:
            cam = module.Picamera2(self.index)
            config = cam.create_video_configuration(main={"size": tuple(self.size), "format": "RGB888"}, buffer_count=2)
            cam.configure(config)
            cam.start()
        except Exception as exc:  # noqa: BLE001 - libcamera raises many types; all mean "no camera"
            raise SourceError(f"Pi camera {self.index} cannot be started: {exc}") from None
        self._cam = cam

    def read(self) -> np.ndarray | None:
        if self._cam is None:
            return None
        try:
            frame = self._cam.capture_array("main")
        except Exception as exc:  # noqa: BLE001 - a lost camera is reported as "no frame"
            log.warning("Pi camera read failed: %s", exc)
            return None
        if frame is None:
            return None
        return np.ascontiguousarray(frame[:, :, :3]) if frame.ndim == 3 else frame

    def close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is None:
            return
        for step in ("stop", "close"):
            try:
                getattr(cam, step)()
            except Exception as exc:  # noqa: BLE001 - closing must not fail the shutdown
                log.debug("Pi camera %s failed: %s", step, exc)
