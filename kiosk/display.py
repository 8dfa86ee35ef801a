"""Choose SDL's video driver before pygame opens the display: KMS/DRM on a Pi console, the
desktop's X11/Wayland when there is one, the dummy driver when headless (tests, CI, a server);
and say which video drivers the SDL library under pygame has.

That second question decides whether a Pi OS Lite kiosk shows anything: PyPI's pygame wheels
bundle an SDL built without KMS/DRM, Debian's SDL (``python3-pygame``, ``libsdl2``) has it.
"""

from __future__ import annotations

import ctypes
import os
import re
from collections.abc import Mapping
from pathlib import Path

#: The SDL 2 library in a process's memory map: Debian's libSDL2-2.0.so.0.*, or a wheel's
#: renamed copy (pygame.libs/libSDL2-2-<hash>.0.so.0.*); not SDL_image, SDL_mixer or SDL_ttf.
_SDL_LIBRARY = re.compile(r"/\S*/libSDL2-2[^/\s]*\.so[^/\s]*")


def driver_for(environ: Mapping[str, str], headless: bool = False) -> str:
    """The driver :func:`choose_driver` would pick with ``environ`` (``SDL_VIDEODRIVER`` first)."""
    if headless:
        return "dummy"
    if environ.get("SDL_VIDEODRIVER"):
        return environ["SDL_VIDEODRIVER"]
    if environ.get("WAYLAND_DISPLAY"):
        return "wayland"
    if environ.get("DISPLAY"):
        return "x11"
    if os.path.exists("/dev/dri/card0") or os.path.exists("/dev/dri/card1"):
        return "kmsdrm"
    return "dummy"


def choose_driver(headless: bool) -> str:
    """Set ``SDL_VIDEODRIVER`` (unless the environment already did) and return it."""
    os.environ["SDL_VIDEODRIVER"] = driver_for(os.environ, headless)
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    return os.environ["SDL_VIDEODRIVER"]


def sdl_video_drivers(maps: Path = Path("/proc/self/maps")) -> tuple[str, list[str]] | None:
    """The SDL library pygame loaded (its file) and the video drivers built into it, lower case
    (``["x11", "wayland", "kmsdrm", "offscreen", "dummy", "evdev"]``); None where the library
    cannot be found in ``maps``."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame  # noqa: F401 - loads the SDL library it was built with

    found = _SDL_LIBRARY.search(maps.read_text(encoding="utf-8", errors="replace"))
    if found is None:
        return None
    library = ctypes.CDLL(found.group(0))  # already loaded: the same copy pygame uses
    library.SDL_GetVideoDriver.restype = ctypes.c_char_p
    library.SDL_GetVideoDriver.argtypes = [ctypes.c_int]
    count = library.SDL_GetNumVideoDrivers()
    return found.group(0), [library.SDL_GetVideoDriver(i).decode("ascii").lower() for i in range(count)]
