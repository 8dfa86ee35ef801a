"""Filled vector drawings described as data: the emblems and the animal artwork are lists of
shapes in a 100 x 100 design space, rasterised supersampled into one antialiased mask.

Keeping drawings as data (not drawing code) lets the same silhouette serve a card face, a
thermal stamp and a training image at any size, and keeps each drawing reviewable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from PIL import Image, ImageDraw

Point = tuple[float, float]
# ("poly", points) | ("ellipse", (x0, y0, x1, y1)) | ("line", points, width);
# the "hole_" variants erase what was drawn before them (eyes, gaps between limbs).
ShapeKind = Literal["poly", "ellipse", "line", "hole_poly", "hole_ellipse", "hole_line"]
Shape = tuple  # (kind, data) or (kind, data, width) — kept loose so drawings stay readable data

_SUPERSAMPLE = 4


def shapes_mask(shapes: Sequence[Shape], size: tuple[int, int]) -> Image.Image:
    """Rasterise ``shapes`` into an ``L`` mask of ``size`` (255 = ink), square and centred."""
    w, h = max(1, size[0]), max(1, size[1])
    side = min(w, h)
    big = Image.new("L", (side * _SUPERSAMPLE, side * _SUPERSAMPLE), 0)
    draw = ImageDraw.Draw(big)
    scale = side * _SUPERSAMPLE / 100.0
    for shape in shapes:
        kind, data = shape[0], shape[1]
        ink = 0 if kind.startswith("hole") else 255
        if kind.endswith("ellipse"):
            draw.ellipse([v * scale for v in data], fill=ink)
        elif kind.endswith("line"):
            width = max(1, round(shape[2] * scale))
            draw.line([(x * scale, y * scale) for x, y in data], fill=ink, width=width, joint="curve")
        else:
            draw.polygon([(x * scale, y * scale) for x, y in data], fill=ink)
    small = big.resize((side, side), Image.Resampling.LANCZOS)
    if (w, h) == (side, side):
        return small
    mask = Image.new("L", (w, h), 0)
    mask.paste(small, ((w - side) // 2, (h - side) // 2))
    return mask
