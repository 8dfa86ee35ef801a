"""The Raspberry Pi camera module through picamera2 (from apt on the Pi, absent elsewhere).

Continuous capture: the camera runs in video mode with a small buffer queue and ``read()``
takes the next completed frame, waiting at most :data:`CAPTURE_TIMEOUT_S`; a camera that
stalls gives None, which the vision worker counts as a lost camera (it closes and reopens it).
picamera2's ``RGB888`` format is laid out B, G, R in memory, which is OpenCV's order, so frames
need no conversion. The detector downsamples internally, so no low-resolution stream is used.

The sensor runs in the mode that sees its whole field (:func:`full_field_mode`): asked for
1280x720 alone, picamera2 picks the Camera Module 3's 1536x864 mode, a crop of the middle two
thirds, and the mat no longer fits at the heights in ``hardware/CAMERA.md``; its full-field
binned mode (2304x1296) is scaled down by the ISP instead. The controls
(:func:`camera_controls`) fix the frame rate, avoid the flicker of mains-powered lights and
focus a Camera Module 3 on the table.
"""

from __future__ import annotations

import importlib
import inspect
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from kiosk.vision.sources.base import FrameSource, SourceError

log = logging.getLogger(__name__)

#: A frame comes every 1/fps seconds; none for this long is a stalled camera.
CAPTURE_TIMEOUT_S = 2.0
#: libcamera's enumerations, by value (controls.AfModeEnum, controls.AeFlickerModeEnum).
AF_MANUAL, AF_CONTINUOUS = 0, 2
FLICKER_MANUAL = 1


def picamera2_available() -> bool:
    """Whether the picamera2 library can be imported (only on a Pi with python3-picamera2)."""
    try:
        importlib.import_module("picamera2")
    except Exception:  # noqa: BLE001 - a broken install is as absent as a missing one
        return False
    return True


def full_field_mode(
    modes: Sequence[Mapping[str, Any]], size: tuple[int, int], fps: float | None = None
) -> Mapping[str, Any] | None:
    """Of picamera2's ``sensor_modes``, the smallest that sees the sensor's whole field (the
    largest ``crop_limits``), is at least ``size`` and reaches ``fps``; None when there are none.

    Camera Module 3: 2304x1296 (binned, full field, 56 fps), not 1536x864 (cropped) nor
    4608x2592 (14 fps). Camera Module 2: 1640x1232. Where no full-field mode is large or fast
    enough, the largest-field mode closest to it is taken.
    """
    if not modes:
        return None

    def field(mode: Mapping[str, Any]) -> int:
        _, _, w, h = mode["crop_limits"]
        return int(w) * int(h)

    widest = max(field(m) for m in modes)
    full = [m for m in modes if field(m) == widest]
    large = [m for m in full if m["size"][0] >= size[0] and m["size"][1] >= size[1]] or full
    fast = [m for m in large if not fps or float(m.get("fps", 0.0)) >= fps] or large
    return min(fast, key=lambda m: (m["size"][0] * m["size"][1], -float(m.get("fps", 0.0))))


def camera_controls(available: Mapping[str, Any], fps: float | None, focus_m: float, mains_hz: int) -> dict[str, Any]:
    """The libcamera controls to start with, of those the camera has (``camera_controls``).

    ``FrameDurationLimits`` holds the frame rate at ``fps``; ``AeFlickerMode`` manual with an
    ``AeFlickerPeriod`` of half the mains period (10 ms at 50 Hz) keeps exposures in whole
    periods of the lights' flicker; a lens that focuses (Camera Module 3) is set for ``focus_m``
    metres (``LensPosition`` is in dioptres, 1/m), or focuses continuously when it is 0.
    """
    wanted: dict[str, Any] = {}
    if fps:
        frame_us = round(1e6 / fps)
        wanted["FrameDurationLimits"] = (frame_us, frame_us)
    if mains_hz:
        wanted["AeFlickerMode"] = FLICKER_MANUAL
        wanted["AeFlickerPeriod"] = round(1e6 / (2 * mains_hz))
    if focus_m > 0:
        wanted["AfMode"] = AF_MANUAL
        wanted["LensPosition"] = 1.0 / focus_m
    else:
        wanted["AfMode"] = AF_CONTINUOUS
    return {name: value for name, value in wanted.items() if name in available}


class Picamera2Source(FrameSource):
    """Camera ``index`` of the Pi in video mode at ``size`` (width, height) and ``fps``; see
    :func:`camera_controls` for ``focus_m`` and ``mains_hz``."""

    def __init__(
        self,
        size: tuple[int, int] = (1280, 720),
        index: int = 0,
        *,
        fps: float | None = None,
        focus_m: float = 0.0,
        mains_hz: int = 0,
        timeout_s: float = CAPTURE_TIMEOUT_S,
    ) -> None:
        self.size = size
        self.index = index
        self.fps = fps
        self.focus_m = focus_m
        self.mains_hz = mains_hz
        self.timeout_s = timeout_s
        self.name = f"picamera2:{index}"
        self.mode: Mapping[str, Any] | None = None
        self._cam: Any = None
        self._timed = True  # picamera2 >= 0.3.17 can bound a wait (Picamera2.wait(job, timeout))

    def open(self) -> None:
        try:
            module = importlib.import_module("picamera2")
        except Exception as exc:  # noqa: BLE001
            raise SourceError(
                "picamera2 is not installed (on the Pi: sudo apt install "
                "python3-picamera2, and a venv with --system-site-packages): "
                f"{exc}"
            ) from None
        cam = None
        try:
            cam = module.Picamera2(self.index)
            self.mode = full_field_mode(cam.sensor_modes, self.size, self.fps)
            options: dict[str, Any] = {
                "main": {"size": tuple(self.size), "format": "RGB888"},
                "buffer_count": 2,
                "controls": camera_controls(cam.camera_controls, self.fps, self.focus_m, self.mains_hz),
            }
            cam.configure(_video_configuration(cam, options, self.mode))
            cam.start()
            self._timed = "timeout" in inspect.signature(cam.wait).parameters
        except Exception as exc:  # noqa: BLE001 - libcamera raises many types; all mean "no camera"
            if cam is not None:
                _close(cam)
            raise SourceError(f"Pi camera {self.index} cannot be started: {exc}") from None
        if self.mode is not None:
            log.info("Pi camera %d: sensor mode %dx%d scaled to %dx%d", self.index, *self.mode["size"], *self.size)
        self._cam = cam

    def read(self) -> np.ndarray | None:
        if self._cam is None:
            return None
        try:
            if self._timed:
                frame = self._cam.wait(self._cam.capture_array("main", wait=False), timeout=self.timeout_s)
            else:  # an older picamera2 waits as long as it takes
                frame = self._cam.capture_array("main")
        except TimeoutError:
            log.warning("Pi camera gave no frame in %.1f s", self.timeout_s)
            return None
        except Exception as exc:  # noqa: BLE001 - a lost camera is reported as "no frame"
            log.warning("Pi camera read failed: %s", exc)
            return None
        if frame is None:
            return None
        return np.ascontiguousarray(frame[:, :, :3]) if frame.ndim == 3 else frame

    def close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            _close(cam)


def _video_configuration(cam: Any, options: dict[str, Any], mode: Mapping[str, Any] | None) -> Any:
    """The video configuration, its sensor in ``mode``: picamera2's ``sensor`` option (0.3.13 and
    later, every Pi 5), else the raw stream's size, which older versions pick the mode by."""
    if mode is None:
        return cam.create_video_configuration(**options)
    try:
        return cam.create_video_configuration(
            **options, sensor={"output_size": tuple(mode["size"]), "bit_depth": mode["bit_depth"]}
        )
    except TypeError:
        return cam.create_video_configuration(**options, raw={"size": tuple(mode["size"])})


def _close(cam: Any) -> None:
    for step in ("stop", "close"):
        try:
            getattr(cam, step)()
        except Exception as exc:  # noqa: BLE001 - closing must not fail the shutdown
            log.debug("Pi camera %s failed: %s", step, exc)
