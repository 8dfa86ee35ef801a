"""A screen mounted turned: the app draws upright on a surface of its own, which is turned onto
the panel, and taps on the panel are turned back.

``rotate`` is how many degrees clockwise the picture is turned on the panel (``[display]
rotate``): Touch Display 2 is a 720x1280 portrait panel, and KMS/DRM (Pi OS Lite) cannot turn
it, so a landscape kiosk on it sets 90. Under a desktop whose compositor already turns the
output (``wlr-randr --transform``), leave it at 0.
"""

from __future__ import annotations

import pygame

ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)


def panel_size(size: tuple[int, int], rotate: int) -> tuple[int, int]:
    """The panel's size for an upright picture of ``size`` turned by ``rotate`` (and back: the
    picture's size for a panel of ``size``)."""
    w, h = size
    return (h, w) if rotate in (90, 270) else (w, h)


def onto_panel(picture: pygame.Surface, rotate: int) -> pygame.Surface:
    """The upright ``picture`` turned clockwise by ``rotate`` degrees, as the panel shows it."""
    return pygame.transform.rotate(picture, -rotate) if rotate else picture


def to_picture(pos: tuple[int, int], panel: tuple[int, int], rotate: int) -> tuple[int, int]:
    """The pixel of the upright picture shown at panel pixel ``pos`` (``panel`` is the panel's
    size); the inverse of :func:`onto_panel`, clamped to the picture."""
    pw, ph = panel
    u, v = min(max(int(pos[0]), 0), pw - 1), min(max(int(pos[1]), 0), ph - 1)
    if rotate == 90:
        return v, pw - 1 - u
    if rotate == 180:
        return pw - 1 - u, ph - 1 - v
    if rotate == 270:
        return ph - 1 - v, u
    return u, v
