"""Suit pips in three families, so that the identifier never learns one printer's shapes.

``glyph`` uses the DejaVu suit characters (the classic French shapes), ``round`` builds them
from circles (soft, modern decks), ``sharp`` from straight-edged polygons (jumbo/bold decks).
Each pip is an antialiased ``L`` mask, cached per size because a face reuses it up to ten times.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from kiosk.render.text import text_mask

PIP_FAMILIES: tuple[str, ...] = ("glyph", "round", "sharp")
_GLYPHS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_SS = 4  # supersampling of vector pips


def _heart(d: ImageDraw.ImageDraw, s: float, sharp: bool) -> None:
    if sharp:
        d.polygon(
            [
                (50 * s, 96 * s),
                (4 * s, 42 * s),
                (4 * s, 20 * s),
                (18 * s, 6 * s),
                (34 * s, 6 * s),
                (50 * s, 22 * s),
                (66 * s, 6 * s),
                (82 * s, 6 * s),
                (96 * s, 20 * s),
                (96 * s, 42 * s),
            ],
            fill=255,
        )
        return
    d.ellipse([2 * s, 6 * s, 52 * s, 56 * s], fill=255)
    d.ellipse([48 * s, 6 * s, 98 * s, 56 * s], fill=255)
    d.polygon([(4 * s, 40 * s), (96 * s, 40 * s), (50 * s, 96 * s)], fill=255)


def _vector(suit: str, family: str, side: int) -> Image.Image:
    big = Image.new("L", (side * _SS, side * _SS), 0)
    d = ImageDraw.Draw(big)
    s = side * _SS / 100.0
    sharp = family == "sharp"
    if suit == "H":
        _heart(d, s, sharp)
    elif suit == "S":
        _heart(d, s, sharp)
        big = big.transpose(Image.Transpose.FLIP_TOP_BOTTOM).resize((side * _SS, round(side * _SS * 0.8)))
        full = Image.new("L", (side * _SS, side * _SS), 0)
        full.paste(big, (0, 0))
        d = ImageDraw.Draw(full)
        d.polygon([(50 * s, 62 * s), (30 * s, 98 * s), (70 * s, 98 * s)], fill=255)
        big = full
    elif suit == "D":
        half = 40 if sharp else 34
        d.polygon(
            [
                (50 * s, 2 * s),
                ((50 + half) * s, 50 * s),
                (50 * s, 98 * s),
                ((50 - half) * s, 50 * s),
            ],
            fill=255,
        )
    else:  # clubs
        if sharp:
            for cx, cy in ((50, 24), (24, 56), (76, 56)):
                d.regular_polygon((cx * s, cy * s, 23 * s), 6, fill=255)
        else:
            for cx, cy in ((50, 26), (26, 56), (74, 56)):
                d.ellipse([(cx - 23) * s, (cy - 23) * s, (cx + 23) * s, (cy + 23) * s], fill=255)
        d.polygon([(44 * s, 40 * s), (56 * s, 40 * s), (50 * s, 70 * s)], fill=255)
        d.polygon([(50 * s, 58 * s), (30 * s, 98 * s), (70 * s, 98 * s)], fill=255)
    return big.resize((side, side), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def pip_mask(suit: str, family: str, size: tuple[int, int], upside_down: bool = False) -> Image.Image:
    """The pip of ``suit`` fitted into ``size`` (w, h), centred; turned 180 degrees on request."""
    if suit not in _GLYPHS:
        raise ValueError(f"unknown suit {suit!r}")
    if family not in PIP_FAMILIES:
        raise ValueError(f"unknown pip family {family!r}; expected one of {PIP_FAMILIES}")
    w, h = max(1, size[0]), max(1, size[1])
    side = min(w, h)
    if family == "glyph":
        ink = text_mask(_GLYPHS[suit], "DejaVuSans-Bold")
        scale = side / max(ink.width, ink.height)
        shape = ink.resize(
            (max(1, round(ink.width * scale)), max(1, round(ink.height * scale))),
            Image.Resampling.LANCZOS,
        )
    else:
        shape = _vector(suit, family, side)
    mask = Image.new("L", (w, h), 0)
    mask.paste(shape, ((w - shape.width) // 2, (h - shape.height) // 2))
    return mask.rotate(180) if upside_down else mask


def draw_pip(
    img: Image.Image,
    suit: str,
    family: str,
    box: tuple[int, int, int, int],
    fill: tuple[int, int, int],
    upside_down: bool = False,
) -> None:
    x0, y0, x1, y1 = box
    img.paste(fill, (x0, y0, x1, y1), pip_mask(suit, family, (x1 - x0, y1 - y0), upside_down))
