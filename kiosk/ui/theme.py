"""Colours and fonts of the kiosk: the Belgian flag's black, yellow and red on a warm paper white.

Sizes are fractions of the screen's shorter side (:func:`unit`), so 800x480, 1024x600 and a
720x1280 portrait panel look the same; the portrait screens stack what landscape puts side by side.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import pygame

INK = (24, 24, 24)
PAPER = (250, 246, 236)
YELLOW = (253, 218, 36)
RED = (239, 51, 64)
GREEN = (38, 150, 80)
AMBER = (240, 160, 30)
GREY = (120, 120, 120)
LIGHT = (225, 220, 205)
WHITE = (255, 255, 255)
BLUE = (40, 90, 160)
SLATE = (96, 96, 96)  # what the table is waiting for: quieter than a ruling, white text still AA

#: The smallest text on an 800x480 screen, in pixels (the font size); other screens scale it with
#: their shorter side, as every size here: 25 px at 1024x600, 30 px on a 720x1280 portrait panel.
MIN_PX = 20

LEVEL_COLOURS = {
    "ok": GREEN,
    "violation": RED,
    "reminder": AMBER,
    "info": BLUE,
    "score": BLUE,
    "game_over": INK,
    "expects": SLATE,
}


def _font_file(bold: bool) -> Path | None:
    """The sans font shipped with the renderer (same face on screen and on cards), if any."""
    try:
        folder = Path(str(resources.files("kiosk.render") / "fonts"))
    except ModuleNotFoundError:
        return None
    if not folder.is_dir():
        return None
    names = sorted(p for p in folder.glob("*.ttf") if "Sans" in p.name and "Mono" not in p.name)
    wanted = [p for p in names if ("Bold" in p.name) == bold and "Oblique" not in p.name and "Condensed" not in p.name]
    return (wanted or names)[0] if names else None


@cache
def font(px: int, bold: bool = False) -> pygame.font.Font:
    """A font of ``px`` pixels; cached because pygame fonts are costly to open."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(_font_file(bold), max(8, px))


def unit(size: tuple[int, int]) -> int:
    """The screen's shorter side: what sizes are fractions of (a portrait panel's height is long)."""
    return min(size)


def portrait(size: tuple[int, int]) -> bool:
    return size[1] > size[0]


def min_px(size: tuple[int, int]) -> int:
    """The smallest text size on a screen of ``size``: MIN_PX scaled with its shorter side."""
    return round(MIN_PX * unit(size) / 480)
