"""Court art (J, Q, K) in three manners, so court cards of different brands look different.

``portrait``: a double-headed figure in a frame, like the classic French pattern; ``monogram``:
a big letter under a line-drawn headdress, like minimalist modern decks; ``silhouette``: a solid
bust in the suit colour, mirrored, like jumbo/bold decks. Each figure wears its rank's headdress
(crown for a King, tiara for a Queen, feathered cap for a Jack) so the art itself tells the rank.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from kiosk.render.pips import draw_pip
from kiosk.render.text import draw_fitted

RGB = tuple[int, int, int]
GOLD: RGB = (232, 186, 48)
BLUE: RGB = (38, 70, 150)
SKIN: RGB = (246, 214, 180)
_LETTER_FONT = {"monogram": "DejaVuSansCondensed-Bold", "silhouette": "DejaVuSansMono-Bold"}


def _headdress(
    d: ImageDraw.ImageDraw,
    rank: str,
    cx: float,
    base: float,
    size: float,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 0,
) -> None:
    """The headdress sitting on ``base`` (y of the top of the head), ``size`` wide."""
    half = size / 2
    if rank == "K":  # crown with three points
        pts = [
            (cx - half, base),
            (cx - half, base - size * 0.55),
            (cx - half * 0.5, base - size * 0.25),
            (cx, base - size * 0.7),
            (cx + half * 0.5, base - size * 0.25),
            (cx + half, base - size * 0.55),
            (cx + half, base),
        ]
    elif rank == "Q":  # rounded tiara
        pts = [
            (cx - half, base),
            (cx - half * 0.8, base - size * 0.3),
            (cx - half * 0.4, base - size * 0.42),
            (cx, base - size * 0.48),
            (cx + half * 0.4, base - size * 0.42),
            (cx + half * 0.8, base - size * 0.3),
            (cx + half, base),
        ]
    else:  # cap with a feather
        pts = [
            (cx - half, base),
            (cx - half * 0.9, base - size * 0.3),
            (cx + half * 0.6, base - size * 0.35),
            (cx + half * 1.3, base - size * 0.75),
            (cx + half * 0.9, base - size * 0.2),
            (cx + half, base),
        ]
    if outline is None:
        d.polygon(pts, fill=fill)
    else:
        d.line(pts + [pts[0]], fill=outline, width=width, joint="curve")


def _half_figure(img: Image.Image, rank: str, box: tuple[int, int, int, int], colour: RGB, solid: bool) -> None:
    """The upper half of a double-headed figure inside ``box`` (the frame's upper half)."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = x0 + w / 2
    head_r = w * 0.16
    head_cy = y0 + h * 0.42
    robe_top = head_cy + head_r * 0.8
    robe = [
        (cx - w * 0.12, robe_top),
        (cx + w * 0.12, robe_top),
        (x1 - w * 0.04, y1),
        (x0 + w * 0.04, y1),
    ]
    if solid:
        d.polygon(robe, fill=colour)
        d.ellipse([cx - head_r, head_cy - head_r, cx + head_r, head_cy + head_r], fill=colour)
        _headdress(d, rank, cx, head_cy - head_r * 0.7, w * 0.36, colour)
        return
    d.polygon(robe, fill=colour)
    stripe = max(2, round(w * 0.035))
    for k in (-1, 1):
        d.line(
            [(cx + k * w * 0.06, robe_top + h * 0.05), (cx + k * w * 0.26, y1)],
            fill=GOLD,
            width=stripe,
        )
    d.polygon([(cx - w * 0.14, robe_top), (cx + w * 0.14, robe_top), (cx, robe_top + h * 0.14)], fill=BLUE)
    d.ellipse(
        [cx - head_r, head_cy - head_r, cx + head_r, head_cy + head_r],
        fill=SKIN,
        outline=(40, 30, 30),
        width=max(1, round(w * 0.01)),
    )
    eye = max(1, round(w * 0.018))
    for k in (-1, 1):
        ex = cx + k * head_r * 0.4
        d.ellipse([ex - eye, head_cy - eye, ex + eye, head_cy + eye], fill=(30, 30, 30))
    if rank == "K":  # beard
        d.chord(
            [cx - head_r, head_cy - head_r * 0.2, cx + head_r, head_cy + head_r * 1.3],
            0,
            180,
            fill=(120, 80, 40),
        )
    _headdress(d, rank, cx, head_cy - head_r * 0.7, w * 0.36, GOLD)


def _mirror_lower_half(img: Image.Image, frame: tuple[int, int, int, int]) -> None:
    """Copy the frame's upper half, turned 180 degrees, onto its lower half."""
    x0, y0, x1, y1 = frame
    mid = (y0 + y1) // 2
    upper = img.crop((x0, y0, x1, mid)).rotate(180)
    img.paste(upper, (x0, y1 - upper.height))


def draw_court(img: Image.Image, rank: str, suit: str, art: str, colour: RGB, pips: str) -> None:
    """Draw the J/Q/K art of ``suit`` in manner ``art`` between the two corner indices."""
    w, h = img.size
    frame = (round(0.24 * w), round(0.1 * h), round(0.76 * w), round(0.9 * h))
    x0, y0, x1, y1 = frame
    fw = x1 - x0
    d = ImageDraw.Draw(img)
    pip = round(fw * 0.2)
    if art == "portrait":
        d.rectangle(frame, fill=(252, 240, 200))
        _half_figure(img, rank, (x0, y0, x1, (y0 + y1) // 2), colour, solid=False)
        draw_pip(img, suit, pips, (x0 + 4, y0 + 4, x0 + 4 + pip, y0 + 4 + pip), colour)
        _mirror_lower_half(img, frame)
        d.rectangle(frame, outline=(40, 40, 60), width=max(1, w // 125))
        d.line([(x0, (y0 + y1) // 2), (x1, (y0 + y1) // 2)], fill=(40, 40, 60), width=max(1, w // 250))
    elif art == "silhouette":
        _half_figure(img, rank, (x0, y0, x1, (y0 + y1) // 2), colour, solid=True)
        _mirror_lower_half(img, frame)
        cy = (y0 + y1) // 2
        ring = round(fw * 0.2)
        d.ellipse([w // 2 - ring, cy - ring, w // 2 + ring, cy + ring], fill=img.getpixel((2, h // 2)))
        draw_pip(img, suit, pips, (w // 2 - pip, cy - pip, w // 2 + pip, cy + pip), colour)
    elif art == "monogram":
        width = max(2, round(w * 0.012))
        d.rounded_rectangle(frame, radius=round(fw * 0.1), outline=colour, width=width)
        _headdress(d, rank, w / 2, y0 + (y1 - y0) * 0.3, fw * 0.5, colour, outline=colour, width=width)
        draw_fitted(
            img,
            rank,
            (
                x0 + round(fw * 0.22),
                round(y0 + (y1 - y0) * 0.34),
                x1 - round(fw * 0.22),
                round(y0 + (y1 - y0) * 0.7),
            ),
            _LETTER_FONT[art],
            colour,
        )
        py = round(y0 + (y1 - y0) * 0.76)
        draw_pip(img, suit, pips, (w // 2 - pip // 2, py, w // 2 + pip // 2, py + pip), colour)
    else:
        raise ValueError(f"unknown court art {art!r}")
