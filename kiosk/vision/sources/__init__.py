"""Frame sources behind one interface, chosen by a spec string (config ``camera`` or ``--camera``).

Specs: ``picamera2`` (the Pi camera), ``0`` / ``1`` (an OpenCV camera index), ``/dev/video0``
or a URL (an OpenCV device path), a video file or a folder of images, ``virtual`` (the
rendered table) and ``auto`` (the Pi camera, else the first webcam). ``auto`` never falls back
to the virtual table or a file: a kiosk whose camera is unplugged must not see cards nobody
showed. A source that cannot be opened is logged in one line and the next of its fallbacks is
tried; only when all fail does :func:`open_source` raise :class:`SourceError` (one clear line).
A spec that can never work (an unknown word, a file that is not there) is refused by
:func:`check_spec` before anything starts.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from kiosk.vision.sources.base import FrameSource, SourceError
from kiosk.vision.sources.files import FileSource
from kiosk.vision.sources.opencv import OpenCVSource
from kiosk.vision.sources.picamera2 import Picamera2Source
from kiosk.vision.sources.virtual import VirtualSource

__all__ = [
    "FrameSource",
    "SourceError",
    "FileSource",
    "OpenCVSource",
    "Picamera2Source",
    "VirtualSource",
    "make_source",
    "open_source",
    "check_spec",
    "is_camera_spec",
    "FALLBACKS",
]

log = logging.getLogger(__name__)

#: What to try, in order, for a spec; a spec not listed has no fallback.
FALLBACKS: dict[str, tuple[str, ...]] = {
    "picamera2": ("picamera2", "0"),
    "auto": ("picamera2", "0"),
}


def make_source(
    spec: str,
    size: tuple[int, int] = (1280, 720),
    *,
    fps: float | None = None,
    focus_m: float = 0.0,
    mains_hz: int = 0,
    **virtual: Any,
) -> FrameSource:
    """The (unopened) source a single spec names. ``fps`` is the rate asked of a camera (and the
    pace of the virtual table), ``focus_m`` and ``mains_hz`` go to the Pi camera
    (:class:`Picamera2Source`); the other options go to VirtualSource."""
    spec = spec.strip()
    if spec == "picamera2":
        return Picamera2Source(size, fps=fps, focus_m=focus_m, mains_hz=mains_hz)
    if spec == "virtual":
        return VirtualSource(size=size, fps=fps, **virtual)
    if spec == "chaos":  # the virtual table through a fault-injecting camera (demo, soak)
        from kiosk.vision.sources.chaos import ChaosSource

        chaos = {k: virtual.pop(k) for k in ("chaos_seed", "log") if k in virtual}
        return ChaosSource(
            VirtualSource(size=size, fps=fps, **virtual), seed=chaos.get("chaos_seed", 0), log=chaos.get("log")
        )
    if spec.isdigit():
        return OpenCVSource(int(spec), size, fps=fps)
    if spec.startswith("/dev/") or "://" in spec:
        return OpenCVSource(spec, size, fps=fps)
    if spec and Path(spec).exists():
        return FileSource(spec)
    if "/" in spec or Path(spec).suffix:
        raise SourceError(f"camera {spec!r}: no such video file or folder")
    raise SourceError(
        f"unknown camera {spec!r}: use picamera2, auto, virtual, a camera index, "
        "a /dev/video path, a video file or a folder of images"
    )


def _candidates(spec: str) -> tuple[str, ...]:
    return FALLBACKS.get(spec.strip(), (spec,))


def check_spec(spec: str) -> None:
    """Raise :class:`SourceError` for a spec that can never give frames (an unknown word, a file
    or folder that is not there); a camera that is merely unplugged now is not an error here."""
    for candidate in _candidates(spec):
        make_source(candidate)


def is_camera_spec(spec: str) -> bool:
    """Whether every source ``spec`` may open is a real camera (the Pi camera, a webcam, a
    capture device or stream), never a rendered table or a recording."""
    return all(isinstance(make_source(c), (Picamera2Source, OpenCVSource)) for c in _candidates(spec))


def open_source(spec: str, size: tuple[int, int] = (1280, 720), **options: Any) -> FrameSource:
    """Open the first source of ``spec``'s fallback chain that works (``options`` as for
    :func:`make_source`)."""
    tried = []
    for candidate in _candidates(spec):
        source = make_source(candidate, size, **options)
        try:
            source.open()
        except SourceError as exc:
            log.warning("camera %s unavailable: %s", candidate, exc)
            tried.append(f"{candidate}: {exc}")
            continue
        if tried:
            log.warning("using camera %s instead", source.name)
        return source
    raise SourceError("no camera could be opened (" + "; ".join(tried) + ")")
