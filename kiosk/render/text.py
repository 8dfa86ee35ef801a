"""Fonts shipped with the renderer and text fitted into a box.

Only DejaVu fonts (Bitstream Vera licence, see ``fonts/LICENSE.txt``) ship with the kiosk, so
rendering is identical on a laptop and on the Pi whatever fonts the system has. Text is fitted
by rendering it once and scaling the ink to the box: card indices must fill their box exactly,
whatever the font's metrics.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS: tuple[str, ...] = (
    "DejaVuSans",
    "DejaVuSans-Bold",
    "DejaVuSerif-Bold",
    "DejaVuSerif",
    "DejaVuSansMono-Bold",
    "DejaVuSansCondensed-Bold",
)
_RENDER_PX = 160  # size the glyphs are rasterised at before scaling to their box


def font_path(name: str) -> Path:
    if name not in FONTS:
        raise ValueError(f"unknown font {name!r}; shipped fonts: {FONTS}")
    return Path(str(resources.files("kiosk.render") / "fonts" / f"{name}.ttf"))


@lru_cache(maxsize=256)
def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path(name)), max(1, size))


@lru_cache(maxsize=2048)
def text_mask(text: str, font_name: str) -> Image.Image:
    """The ink of ``text`` as an ``L`` image cropped to its bounding box."""
    f = font(font_name, _RENDER_PX)
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(text))
    img = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(img).text((-x0, -y0), text, font=f, fill=255)
    return img.crop(img.getbbox() or (0, 0, 1, 1))


def fit_mask(text: str, font_name: str, size: tuple[int, int], squeeze: float = 0.55) -> Image.Image:
    """``text`` scaled to fill ``size`` in height, squeezed horizontally (down to ``squeeze``) or
    shrunk when it is too wide, as printed indices do with "10"."""
    mask = text_mask(text, font_name)
    bw, bh = max(1, size[0]), max(1, size[1])
    scale = bh / mask.height
    w, h = mask.width * scale, float(bh)
    if w > bw:
        if w * squeeze <= bw:
            w = float(bw)
        else:
            shrink = bw / (w * squeeze)
            w, h = float(bw), h * shrink
    return mask.resize((max(1, round(w)), max(1, round(h))), Image.Resampling.LANCZOS)


def draw_fitted(
    img: Image.Image,
    text: str,
    box: tuple[int, int, int, int],
    font_name: str,
    fill: tuple[int, int, int],
    align: str = "centre",
    squeeze: float = 0.55,
) -> tuple[int, int, int, int]:
    """Draw ``text`` into ``box`` (x0, y0, x1, y1), as large as the box allows; returns the box
    the text took."""
    x0, y0, x1, y1 = box
    mask = fit_mask(text, font_name, (x1 - x0, y1 - y0), squeeze)
    if align == "left":
        x = x0
    else:
        x = x0 + (x1 - x0 - mask.width) // 2
    y = y0 + (y1 - y0 - mask.height) // 2
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
    return x, y, x + mask.width, y + mask.height
