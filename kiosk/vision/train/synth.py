"""Made-up card designs for training.

The index model must read the corner of *any* brand, so instead of learning one deck's pixels it
sees faces of many random designs: fonts, glyph sizes and positions, suit shapes (font glyphs or
drawn outlines), ink colours, paper tints, borders, court frames and big centre pips that reach
into the corner. The negatives it must refuse are in :mod:`.negatives`.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from kiosk.vision.face import FACE_SIZE, INDEX_BOX

#: Suit letters and the joker's star ("*"), as Unicode glyphs.
_SUIT_CHARS = {"S": "\u2660", "C": "\u2663", "H": "\u2665", "D": "\u2666", "*": "\u2605"}
#: Where rank fonts are looked for: the bundled DejaVu set, then Debian's font packages for
#: training (``apt install fonts-dejavu-core fonts-liberation2 fonts-freefont-ttf
#: fonts-urw-base35 fonts-crosextra-caladea fonts-crosextra-carlito fonts-roboto-unhinted
#: fonts-linuxlibertine fonts-open-sans``). Real indices are tall serif or grotesque glyphs,
#: often thin: one family taught the model DejaVu's shapes, not the ranks.
_FONT_DIRS = (
    Path(__file__).resolve().parents[2] / "render" / "fonts",
    Path("/usr/share/fonts/truetype"),
    Path("/usr/share/fonts/opentype"),
)
#: Fonts no index is set in: slanted, monospaced, symbols and dingbats, keycaps, maths, script.
_NOT_INDEX_FONTS = (
    "Italic",
    "Oblique",
    "Ita.",
    "_I.",
    "_RI",
    "_RBI",
    "_RZI",
    "Mono",
    "Symbol",
    "D050000L",
    "Z003",
    "LinBiolinum_K",
    "MathTeX",
)


#: The characters of the ranks' indices: a rank font must draw each of them.
_RANK_GLYPHS = "2345678910AJQK"


def font_dirs() -> tuple[Path, ...]:
    """The folders rank fonts come from: the bundled set alone where ``KIOSK_TRAIN_FONTS`` is
    ``bundled`` (a seed then draws the same pictures on any machine; the tests run so), else the
    system's font folders too."""
    return _FONT_DIRS[:1] if os.environ.get("KIOSK_TRAIN_FONTS") == "bundled" else _FONT_DIRS


@cache
def font_paths(dirs: tuple[Path, ...] | None = None) -> tuple[Path, ...]:
    """The upright text fonts used for ranks, found in ``dirs`` (by default :func:`font_dirs`),
    sorted by file name, so a dataset seed means the same images wherever the same fonts are
    installed. A font that does not load at any size (a colour bitmap font such as Noto Color
    Emoji) or draws a rank as nothing or as its "tofu" box is left out."""
    dirs = font_dirs() if dirs is None else dirs
    found = {
        p.name: p
        for d in dirs
        if d.is_dir()
        for p in sorted(d.rglob("*"))
        if p.suffix in (".ttf", ".otf") and not any(k in p.name for k in _NOT_INDEX_FONTS)
    }
    paths = tuple(found[k] for k in sorted(found) if _draws_every_rank(found[k]))
    if not paths:
        raise RuntimeError(f"no .ttf or .otf font that draws every rank found in {[str(d) for d in dirs]}")
    return paths


@cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


def _bitmap(font: ImageFont.FreeTypeFont, char: str) -> np.ndarray:
    img = Image.new("L", (64, 64), 0)
    ImageDraw.Draw(img).text((8, 8), char, font=font, fill=255)
    return np.asarray(img)


def _draws_every_rank(path: Path) -> bool:
    """Whether the font loads as a scalable font and draws every rank glyph as ink of its own."""
    try:
        font = _font(path, 40)
    except OSError:
        return False
    tofu = _bitmap(font, "\ue000")
    return all((drawn := _bitmap(font, g)).any() and (drawn != tofu).any() for g in _RANK_GLYPHS)


@cache
def _has_suit_glyphs(path: Path) -> bool:
    """True when the font draws the four suits, each as itself: a missing glyph renders as the
    "tofu" box, and FreeSerif Bold swaps spades and clubs, which would teach wrong labels."""
    font = _font(path, 40)
    tofu = _bitmap(font, "\ue000")
    if any(not (_bitmap(font, _SUIT_CHARS[s]) != tofu).any() for s in "SCHD"):
        return False
    return _suits_in_order(font)


def _ink_shape(font: ImageFont.FreeTypeFont, char: str) -> np.ndarray:
    """``char``'s ink, whole, scaled to 32 x 32 (boolean)."""
    left, top, right, bottom = font.getbbox(char)
    img = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(img).text((-left, -top), char, font=font, fill=255)
    return cv2.resize(np.asarray(img), (32, 32), interpolation=cv2.INTER_AREA) > 127


@cache
def _reference_suits() -> tuple[np.ndarray, ...]:
    """The four suits of the bundled DejaVu Sans, as :func:`_ink_shape` cuts them."""
    ref = _font(_FONT_DIRS[0] / "DejaVuSans.ttf", 40)
    return tuple(_ink_shape(ref, _SUIT_CHARS[s]) for s in "SCHD")


def _suits_in_order(font: ImageFont.FreeTypeFont, chars: dict[str, str] = _SUIT_CHARS) -> bool:
    """Whether the font's four suit glyphs match those of the bundled DejaVu Sans (the
    reference) best in their own order: the overlaps summed over the suits are largest when
    spade goes with spade, club with club, and so on, not with the glyphs swapped."""
    mine = [_ink_shape(font, chars[s]) for s in "SCHD"]
    iou = np.array([[(a & b).sum() / max(1, (a | b).sum()) for b in _reference_suits()] for a in mine])
    best = max(itertools.permutations(range(4)), key=lambda order: sum(iou[i, j] for i, j in enumerate(order)))
    return best == (0, 1, 2, 3)


def _suit_polygon(suit: str, x: float, y: float, w: float, h: float, fat: float) -> list[list[tuple[float, float]]]:
    """A drawn suit in the box (x, y, w, h): one or more polygons (circles as 24-gons)."""

    def circle(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
        return [(cx + r * math.cos(t), cy + r * math.sin(t)) for t in np.linspace(0, 2 * math.pi, 24)]

    if suit == "*":
        radii = [w / 2 if i % 2 == 0 else w * (0.18 + 0.04 * fat) for i in range(10)]
        return [
            [
                (
                    x + w / 2 + r * math.sin(i * math.pi / 5),
                    y + h / 2 - r * math.cos(i * math.pi / 5),
                )
                for i, r in enumerate(radii)
            ]
        ]
    if suit == "D":
        k = 0.35 + 0.15 * fat
        return [
            [
                (x + w / 2, y),
                (x + w / 2 + w * k, y + h / 2),
                (x + w / 2, y + h),
                (x + w / 2 - w * k, y + h / 2),
            ]
        ]
    r = w * (0.24 + 0.04 * fat)
    if suit == "H":
        return [
            circle(x + w / 2 - r * 0.95, y + r, r),
            circle(x + w / 2 + r * 0.95, y + r, r),
            [(x, y + r * 1.2), (x + w, y + r * 1.2), (x + w / 2, y + h)],
        ]
    stem = [
        (x + w / 2 - w * 0.08, y + h * 0.62),
        (x + w / 2 + w * 0.08, y + h * 0.62),
        (x + w / 2 + w * 0.22, y + h),
        (x + w / 2 - w * 0.22, y + h),
    ]
    if suit == "S":
        return [
            circle(x + w / 2 - r * 0.95, y + h * 0.82 - r, r),
            circle(x + w / 2 + r * 0.95, y + h * 0.82 - r, r),
            [(x, y + h * 0.82 - r * 1.2), (x + w, y + h * 0.82 - r * 1.2), (x + w / 2, y)],
            stem,
        ]
    return [
        circle(x + w / 2, y + r, r),
        circle(x + w / 2 - r * 1.05, y + r * 2.3, r),
        circle(x + w / 2 + r * 1.05, y + r * 2.3, r),
        stem,
    ]


def _draw_suit(
    draw: ImageDraw.ImageDraw,
    rng: np.random.Generator,
    suit: str,
    box: tuple[float, float, float, float],
    ink: tuple[int, int, int],
    font: Path | None,
) -> None:
    x, y, w, h = box
    if font is not None and suit != "*":  # few fonts have the star; tofu boxes would teach nonsense
        f = _font(font, max(6, int(h * 1.25)))
        bb = f.getbbox(_SUIT_CHARS[suit])
        draw.text(
            (x + w / 2 - (bb[0] + bb[2]) / 2, y + h / 2 - (bb[1] + bb[3]) / 2),
            _SUIT_CHARS[suit],
            font=f,
            fill=ink,
        )
        return
    for poly in _suit_polygon(suit, x, y, w, h, float(rng.uniform(-1, 1))):
        draw.polygon(poly, fill=ink)


Box = tuple[float, float, float, float]  # x, y, width, height
Ink = tuple[int, int, int]


def _upside_down(img: Image.Image, box: Box, ink: Ink, draw: Callable[[ImageDraw.ImageDraw, Box, Ink], None]) -> None:
    """``draw(canvas, box, ink)`` on ``img`` turned upside down about the box's centre."""
    x, y, w, h = box
    half = int(max(w, h)) + 2  # room for a glyph reaching past its box
    sign = Image.new("RGB", (2 * half, 2 * half))
    draw(ImageDraw.Draw(sign), (half - w / 2, half - h / 2, w, h), (255, 255, 255))
    corner = (round(x + w / 2) - half, round(y + h / 2) - half)
    img.paste(Image.new("RGB", sign.size, ink), corner, sign.convert("L").rotate(180))


#: How much a rank is condensed (its drawn width over the font's): one glyph, and "10", which
#: most brands squeeze further. Real indices are often tall and narrow: pp2021's brand draws Q 0.3
#: as wide as tall, 9 0.37 and "10" 0.38 (measured on its crops), where the fonts draw Q 0.7-1.0,
#: 9 0.64-0.92 and "10" 1.27-1.83. With (0.6, 1.15) and (0.5, 0.71) the narrowest queen the model
#: saw was wider than that brand's, and as narrow as the 0 of a "10": it read those queens as 10.
SQUEEZE = (0.35, 1.15)
TEN_SQUEEZE = (0.25, 0.71)


def _draw_rank(
    draw: ImageDraw.ImageDraw,
    rng: np.random.Generator,
    rank: str,
    box: tuple[float, float, float, float],
    ink: tuple[int, int, int],
    font: Path,
) -> None:
    """The rank text fitted to the box height and condensed at random: real indices are often
    tall and narrow (a condensed Q is as narrow as the 0 of a "10", a condensed 3 as a J), so
    the width of a glyph must not tell the rank. "10" is squeezed further, as most brands do."""
    x, y, w, h = box
    size = max(6, int(h * 1.35))
    f = _font(font, size)
    bb = f.getbbox(rank)
    tw, th = bb[2] - bb[0], bb[3] - bb[1]
    scale = h / max(th, 1)
    layer = Image.new("L", (int(tw) + 4, int(th) + 4), 0)
    ImageDraw.Draw(layer).text((2 - bb[0], 2 - bb[1]), rank, font=f, fill=255)
    squeeze = float(rng.uniform(*(TEN_SQUEEZE if len(rank) == 2 else SQUEEZE)))
    nw = max(2, int(round((tw + 4) * scale * squeeze)))
    nh = max(2, int(round((th + 4) * scale)))
    mask = layer.resize((nw, nh), Image.Resampling.BILINEAR)
    draw.bitmap((int(x + w / 2 - nw / 2), int(y)), mask, fill=ink)


def _draw_card_q(
    draw: ImageDraw.ImageDraw,
    rng: np.random.Generator,
    box: tuple[float, float, float, float],
    ink: tuple[int, int, int],
) -> None:
    """The Q of most real decks (Bicycle and its kin), which no text font draws: a narrow oval
    whose tail is a stroke crossing the bowl, or a swash under it."""
    x, y, w, h = box
    gw = h * float(rng.uniform(0.45, 0.8))
    stroke = max(1, int(h * rng.uniform(0.07, 0.16)))
    cx = x + w / 2
    bottom = y + h * float(rng.uniform(0.8, 0.92))
    draw.ellipse((cx - gw / 2, y, cx + gw / 2, bottom), outline=ink, width=stroke)
    if rng.random() < 0.6:  # the tail crosses the bowl from its left middle
        start = (cx - gw * rng.uniform(0.1, 0.45), y + h * rng.uniform(0.45, 0.65))
    else:  # a swash from the bowl's foot
        start = (cx - gw * rng.uniform(0.0, 0.2), bottom - stroke)
    end = (cx + gw * rng.uniform(0.35, 0.65), y + h * rng.uniform(0.95, 1.05))
    mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2 + h * rng.uniform(-0.08, 0.08))
    draw.line((start, mid, end), fill=ink, width=stroke, joint="curve")


def _draw_card_3(
    draw: ImageDraw.ImageDraw,
    rng: np.random.Generator,
    box: tuple[float, float, float, float],
    ink: tuple[int, int, int],
) -> None:
    """The flat-topped 3 of many real decks, which few text fonts draw: a bar, a diagonal down
    to the waist and a round bowl under it (the rounded 3 of the fonts reads as a 5 beside it)."""
    x, y, w, h = box
    gw = h * float(rng.uniform(0.45, 0.65))
    stroke = max(1, int(h * rng.uniform(0.08, 0.15)))
    cx = x + w / 2
    left, right = cx - gw / 2, cx + gw / 2
    waist = y + h * float(rng.uniform(0.36, 0.46))
    draw.line(((left + stroke * 0.3, y + stroke / 2), (right, y + stroke / 2)), fill=ink, width=stroke)
    draw.line(((right - stroke * 0.3, y + stroke / 2), (cx - gw * 0.1, waist)), fill=ink, width=stroke)
    draw.arc((left, waist - stroke / 2, right + gw * 0.05, y + h), 245, 515, fill=ink, width=stroke)


def _paper(rng: np.random.Generator) -> tuple[int, int, int]:
    base = rng.uniform(215, 255)
    tint = rng.uniform(-12, 8, size=3)
    return tuple(int(np.clip(base + t, 0, 255)) for t in tint)  # type: ignore[return-value]


def _ink(rng: np.random.Generator, red: bool) -> tuple[int, int, int]:
    if red:
        return (int(rng.uniform(170, 240)), int(rng.uniform(0, 60)), int(rng.uniform(0, 70)))
    v = int(rng.uniform(0, 55))
    return (v, v, int(v + rng.uniform(0, 25)))


def _court_picture(
    draw: ImageDraw.ImageDraw,
    rng: np.random.Generator,
    frame: tuple[float, float, float, float],
    suit: str,
    ink: tuple[int, int, int],
    suit_font: Path | None,
) -> None:
    """A busy court picture in ``frame`` (x0, y0, x1, y1): a frame line, often a big suit sign in
    its top corner beside the index (as on most brands), then strokes, bands and blobs of colour,
    so that only the index column tells a court card from a pip card."""
    x0, y0, x1, y1 = frame
    fw = x1 - x0
    draw.rectangle(frame, outline=ink if rng.random() < 0.5 else (40, 60, 160), width=int(rng.integers(1, 3)))
    colours = [(200, 40, 40), (230, 190, 40), (40, 60, 160), (20, 20, 20), (240, 240, 235)]
    for _ in range(int(rng.integers(8, 30))):
        colour = colours[int(rng.integers(len(colours)))]
        a = (rng.uniform(x0, x1), rng.uniform(y0, y1))
        kind = rng.random()
        if kind < 0.4:  # a blob, kept inside the frame (never over the index)
            r = min(rng.uniform(3, 22), fw / 2)
            c = (np.clip(a[0], x0 + r, x1 - r), np.clip(a[1], y0 + r, y1 - r))
            draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=colour)
        elif kind < 0.8:  # a stroke, its thickness inside the frame too
            b = (a[0] + rng.uniform(-40, 40), a[1] + rng.uniform(-40, 40))
            width = int(rng.integers(1, 7))
            m = width / 2 + 1
            a, b = ((np.clip(px, x0 + m, x1 - m), np.clip(py, y0 + m, y1 - m)) for px, py in (a, b))
            draw.line((a, b), fill=colour, width=width)
        else:
            pts = [
                (np.clip(a[0] + rng.uniform(-25, 25), x0, x1), np.clip(a[1] + rng.uniform(-25, 25), y0, y1))
                for _ in range(3)
            ]
            draw.polygon(pts, fill=colour)
    if rng.random() < 0.6:
        size = fw * rng.uniform(0.16, 0.3)
        m = rng.uniform(2, 8)
        _draw_suit(draw, rng, suit, (x0 + m, y0 + m, size, size * 1.1), ink, suit_font)


def synth_face(rng: np.random.Generator, rank: str, suit: str) -> np.ndarray:
    """A random-brand standard face (RGB, FACE_SIZE) with the index in both corners.

    The index column (rank above suit) is laid out first; court pictures and centre pips may
    start anywhere right of it, inside the corner box too, as on many real decks, but never over
    it. A joker is rank ``"JK"`` with suit ``"*"`` (a star), as on the kiosk's Manneken-Pis cards.
    """
    w, h = FACE_SIZE
    img = Image.new("RGB", (w, h), _paper(rng))
    draw = ImageDraw.Draw(img)
    ink = _ink(rng, suit in "HD" or (suit == "*" and rng.random() < 0.5))
    fonts = font_paths()
    rank_font = fonts[int(rng.integers(len(fonts)))]
    suit_fonts = [p for p in fonts if _has_suit_glyphs(p)]
    suit_font = suit_fonts[int(rng.integers(len(suit_fonts)))] if suit_fonts and rng.random() < 0.5 else None
    bx0, by0, bx1, by1 = (INDEX_BOX[0] * w, INDEX_BOX[1] * h, INDEX_BOX[2] * w, INDEX_BOX[3] * h)
    bw, bh = bx1 - bx0, by1 - by0
    # The index: rank above suit, both centred on one column near the corner.
    col_w = bw * rng.uniform(0.4, 0.8)
    cx = bx0 + bw * rng.uniform(0.06, 0.16) + col_w / 2
    rank_h = bh * rng.uniform(0.2, 0.42)
    top = by0 + bh * rng.uniform(0.04, 0.14)
    suit_h = rank_h * rng.uniform(0.6, 0.95)
    gap = bh * rng.uniform(0.0, 0.08)
    # Whatever the design draws in the middle starts right of the index column.
    free_x = cx + col_w / 2 + bw * rng.uniform(0.03, 0.12)
    if rank in ("J", "Q", "K") and rng.random() < 0.8:
        fx = rng.uniform(free_x, max(free_x, bw * 1.2))
        fy = bh * rng.uniform(0.04, 0.3)
        _court_picture(draw, rng, (fx, fy, w - fx, h - fy), suit, ink, suit_font)
    elif rank not in ("J", "Q", "K"):
        pip = rng.uniform(0.18, 0.32) * w
        px = rng.uniform(free_x, max(free_x, bw * 1.25))

        def one_pip(canvas: ImageDraw.ImageDraw, box: Box, colour: Ink) -> None:
            _draw_suit(canvas, rng, suit, box, colour, suit_font)

        for py in np.linspace(bh * rng.uniform(0.05, 0.2), h - bh * 0.15 - pip, int(rng.integers(2, 5))):
            for box in ((px, py, pip, pip * 1.1), (w - px - pip, py, pip, pip * 1.1)):
                if py + pip * 0.55 > h / 2:  # the lower half's pips upside down, as decks print them
                    _upside_down(img, box, ink, one_pip)
                else:
                    one_pip(draw, box, ink)
    if rng.random() < 0.3:
        m = rng.uniform(3, 8)
        draw.rectangle((m, m, w - m, h - m), outline=ink, width=1)
    if rank == "Q" and rng.random() < 0.35:
        _draw_card_q(draw, rng, (cx - col_w / 2, top, col_w, rank_h), ink)
    elif rank == "3" and rng.random() < 0.35:
        _draw_card_3(draw, rng, (cx - col_w / 2, top, col_w, rank_h), ink)
    else:
        _draw_rank(draw, rng, rank, (cx - col_w / 2, top, col_w, rank_h), ink, rank_font)
    _draw_suit(
        draw,
        rng,
        suit,
        (cx - suit_h * 0.45, top + rank_h + gap, suit_h * 0.9, suit_h),
        ink,
        suit_font,
    )
    # The same index, turned, in the opposite corner.
    corner = img.crop((0, 0, int(bx1), int(by1))).rotate(180)
    img.paste(corner, (w - int(bx1), h - int(by1)))
    arr = np.asarray(img).copy()
    return _round_corners(arr, rng)


def _round_corners(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Outside the rounded corners the warp shows the table, so paint a random table colour."""
    h, w = face.shape[:2]
    r = int(rng.uniform(6, 16))
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - r - 1, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - r - 1), 255, -1)
    for cx, cy in ((r, r), (w - r - 1, r), (r, h - r - 1), (w - r - 1, h - r - 1)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    table = np.array(rng.uniform(0, 255, size=3), np.uint8)
    out = face.copy()
    out[mask == 0] = table
    return out
