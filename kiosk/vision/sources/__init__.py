"""Frame sources behind one interface, chosen by a spec string (config ``camera`` or ``--camera``).

Specs: ``picamera2`` (the Pi camera), ``0`` / ``1`` (an OpenCV camera index), ``/dev/video0``
or a URL (an OpenCV device path), a video file or a folder of images, ``virtual`` (the
rendered table) and ``auto`` (Pi camera, else the first webcam, else the virtual table).
A source that cannot be opened is logged in one line and the next of its fallbacks is tried;
only when all fail does :func:`open_source` raise :class:`SourceError` (one clear line).
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
    "FALLBACKS",
]

log = logging.getLogger(__name__)

#: What to try, in order, for a spec; a spec not listed has no fallback.
FALLBACKS: dict[str, tuple[str, ...]] = {
    "picamera2": ("picamera2", "0"),
    "auto": ("picamera2", "0", "virtual"),
}


def make_source(spec: str, size: tuple[int, int] = (1280, 720), **virtual: Any) -> FrameSource:
    """The (unopened) source a single spec names; ``virtual`` options go to VirtualSource."""
    spec = spec.strip()
    if spec == "picamera2":
        return Picamera2Source(size)
    if spec == "virtual":
        return VirtualSource(size=size, **virtual)
    if spec == "chaos":  # the virtual table through a fault-injecting camera (demo, soak)
        from kiosk.vision.sources.chaos import ChaosSource

        chaos = {k: virtual.pop(k) for k in ("chaos_seed", "log") if k in virtual}
        return ChaosSource(VirtualSource(size=size, **virtual), seed=chaos.get("chaos_seed", 0), log=chaos.get("log"))
    if spec.isdigit():
        return OpenCVSource(int(spec), size)
    if spec.startswith("/dev/") or "://" in spec:
        return OpenCVSource(spec, size)
    if spec and Path(spec).exists():
        return FileSource(spec)
    raise SourceError(
        f"unknown camera {spec!r}: use picamera2, auto, virtual, a camera index, "
        "a /dev/video path, a video file or a folder of images"
    )


def open_source(spec: str, size: tuple[int, int] = (1280, 720), **virtual: Any) -> FrameSource:
    """Open the first source of ``spec``'s fallback chain that works."""
    tried = []
    for candidate in FALLBACKS.get(spec.strip(), (spec,)):
        source = make_source(candidate, size, **virtual)
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
