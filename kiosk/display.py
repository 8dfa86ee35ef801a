"""Choose SDL's video driver before pygame opens the display: KMS/DRM on a Pi console, the
desktop's X11/Wayland when there is one, the dummy driver when headless (tests, CI, a server)."""

from __future__ import annotations

import os


def choose_driver(headless: bool) -> str:
    """Set ``SDL_VIDEODRIVER`` (unless the environment already did) and return it."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    elif "SDL_VIDEODRIVER" not in os.environ:
        if os.environ.get("WAYLAND_DISPLAY"):
            os.environ["SDL_VIDEODRIVER"] = "wayland"
        elif os.environ.get("DISPLAY"):
            os.environ["SDL_VIDEODRIVER"] = "x11"
        elif os.path.exists("/dev/dri/card0") or os.path.exists("/dev/dri/card1"):
            os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
        else:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    return os.environ["SDL_VIDEODRIVER"]
