"""L'Affiche Belge faces: each place as a small travel poster (sky, landmark, region emblem, name).

The poster leaves the two index corners free (the face renderer puts the standard index on a
white plate there), so the deck is read like any standard deck by its indices while the art
shows the place. Which landmark a place gets is derived from its id with a stable checksum, so
faces are identical across runs and machines.
"""

from __future__ import annotations

import zlib

from PIL import Image, ImageDraw

from kiosk.decks import Card
from kiosk.render.emblems import draw_emblem
from kiosk.render.shapes import Shape, shapes_mask
from kiosk.render.text import draw_fitted

RGB = tuple[int, int, int]
# region -> (sky top, sky bottom, landmark/hills, band, band text)
PALETTES: dict[str | None, tuple[RGB, RGB, RGB, RGB, RGB]] = {
    "flanders": ((250, 204, 40), (255, 240, 180), (34, 34, 34), (20, 20, 20), (250, 214, 60)),
    "wallonia": ((214, 40, 50), (250, 176, 100), (70, 40, 40), (150, 20, 30), (255, 226, 90)),
    "brussels": ((30, 80, 170), (140, 185, 235), (28, 40, 80), (20, 40, 110), (252, 214, 60)),
    None: ((90, 110, 130), (200, 210, 220), (40, 50, 60), (40, 50, 60), (240, 240, 240)),
}
_REGION_LABEL = {
    "flanders": "VLAANDEREN",
    "wallonia": "WALLONIE",
    "brussels": "BRUXELLES · BRUSSEL",
}


def _sky(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    w, h = size
    grad = Image.linear_gradient("L").resize((w, h))
    return Image.composite(Image.new("RGB", size, bottom), Image.new("RGB", size, top), grad)


def _gables() -> list[Shape]:
    """A row of four stepped gables, the Flemish town house front."""
    shapes: list[Shape] = []
    for i, top in enumerate((45, 30, 50, 38)):
        x0, w, st = 2 + i * 24, 22, 3.0
        steps = [(x0 + k * st, top + (3 - k) * st) for k in range(4)]
        left = [p for x, y in steps for p in ((x, y + st), (x, y))]
        right = [(x0 + w - (x - x0), y) for x, y in reversed(left)]
        shapes.append(("poly", [(x0, 100), *left, *right, (x0 + w, 100)]))
        shapes.append(("hole_poly", [(x0 + 8, 100), (x0 + 8, 86), (x0 + 14, 86), (x0 + 14, 100)]))
    return shapes


def _trees() -> list[Shape]:
    """Poplars and a round tree: a park or an avenue."""
    shapes: list[Shape] = []
    for x, h in ((12, 60), (30, 80), (70, 70), (88, 55)):
        shapes += [
            ("ellipse", (x - 7, 100 - h, x + 7, 96 - h * 0.3)),
            ("line", [(x, 100), (x, 90)], 3),
        ]
    return [*shapes, ("ellipse", (36, 50, 64, 86)), ("line", [(50, 100), (50, 80)], 5)]


# fmt: off
# Landmark silhouettes in a 100 x 100 box standing on its bottom edge (y = 100).
_LANDMARKS: tuple[list[Shape], ...] = (
    [  # belfry
        ("poly", [(38, 100), (38, 25), (34, 25), (34, 20), (44, 20), (50, 0), (56, 20), (66, 20),
                  (66, 25), (62, 25), (62, 100)]),
        ("poly", [(10, 100), (10, 70), (90, 70), (90, 100)]),
        ("hole_ellipse", (45, 30, 55, 40)),
    ],
    [  # church
        ("poly", [(14, 100), (14, 65), (44, 45), (66, 65), (66, 100)]),
        ("poly", [(66, 100), (66, 35), (74, 2), (82, 35), (82, 100)]),
        ("hole_poly", [(36, 100), (36, 80), (44, 72), (52, 80), (52, 100)]),
    ],
    [  # castle
        ("poly", [(8, 100), (8, 35), (24, 35), (24, 60), (76, 60), (76, 35), (92, 35), (92, 100)]),
        *[("poly", [(x, 60), (x, 52), (x + 6, 52), (x + 6, 60)]) for x in (28, 40, 52, 64)],
        *[("poly", [(x, 35), (x, 28), (x + 5, 28), (x + 5, 35)]) for x in (8, 17.5, 76, 85.5)],
        ("hole_poly", [(42, 100), (42, 80), (50, 72), (58, 80), (58, 100)]),
    ],
    [  # windmill
        ("poly", [(36, 100), (42, 45), (58, 45), (64, 100)]),
        ("line", [(20, 22), (80, 82)], 5), ("line", [(80, 22), (20, 82)], 5),
        ("ellipse", (45, 47, 55, 57)),
    ],
    _gables(),
    [  # lighthouse on the coast
        ("poly", [(40, 100), (44, 25), (56, 25), (60, 100)]),
        ("poly", [(41, 25), (41, 15), (50, 8), (59, 15), (59, 25)]),
        ("hole_poly", [(46, 18), (54, 18), (54, 23), (46, 23)]),
        ("hole_poly", [(43, 60), (57, 60), (57.7, 70), (42.3, 70)]),
        ("poly", [(0, 100), (0, 92), (30, 88), (70, 90), (100, 86), (100, 100)]),
    ],
    [  # abbey ruins
        ("poly", [(6, 100), (6, 40), (20, 30), (34, 40), (34, 100)]),
        ("poly", [(40, 100), (40, 20), (60, 20), (60, 100)]),
        ("poly", [(66, 100), (66, 52), (80, 44), (94, 52), (94, 100)]),
        *[("hole_ellipse", (x - 5, 45, x + 5, 70)) for x in (20, 50, 80)],
        *[("hole_poly", [(x - 5, 57), (x + 5, 57), (x + 5, 100), (x - 5, 100)])
          for x in (20, 50, 80)],
    ],
    _trees(),
)
_MANNEKEN: list[Shape] = [
    ("poly", [(28, 100), (28, 80), (72, 80), (72, 100)]),
    ("ellipse", (41, 18, 59, 36)),
    ("poly", [(40, 36), (58, 36), (60, 58), (56, 80), (40, 80), (38, 58)]),
    ("line", [(42, 40), (36, 56)], 5),
]
# fmt: on


def draw_poster(card: Card, size: tuple[int, int]) -> Image.Image:
    """The poster art of an affiche-belge card (without its indices)."""
    w, h = size
    region = card.region if card.region in PALETTES else ("brussels" if card.kind == "joker" else None)
    sky_top, sky_bottom, land, band, band_text = PALETTES[region]
    img = _sky(size, sky_top, sky_bottom)
    d = ImageDraw.Draw(img)
    r = w * 0.08
    d.ellipse([w * 0.3 - r, h * 0.4 - r, w * 0.3 + r, h * 0.4 + r], fill=(255, 250, 230))
    if card.kind == "joker":
        landmark = _MANNEKEN
    else:
        landmark = _LANDMARKS[zlib.crc32(card.id.encode()) % len(_LANDMARKS)]
    side = round(h * 0.36)
    x0, y0 = (w - side) // 2, round(h * 0.645) - side
    img.paste(land, (x0, y0, x0 + side, y0 + side), shapes_mask(landmark, (side, side)))
    if card.kind == "joker":  # the famous jet, in water blue
        d.line(
            [(w * 0.5 + side * 0.06, y0 + side * 0.55), (w * 0.5 + side * 0.35, y0 + side * 0.8)],
            fill=(120, 190, 240),
            width=max(2, side // 40),
        )
    d.polygon(
        [
            (0, h * 0.62),
            (w * 0.3, h * 0.6),
            (w * 0.7, h * 0.66),
            (w, h * 0.62),
            (w, h * 0.7),
            (0, h * 0.7),
        ],
        fill=land,
    )
    d.rectangle([0, h * 0.7, w, h], fill=band)
    # Emblem roundel in the free top-right corner.
    ex, ey, er = w * 0.84, h * 0.11, w * 0.12
    if region is not None:
        d.ellipse(
            [ex - er, ey - er, ex + er, ey + er],
            fill=(255, 255, 255),
            outline=land,
            width=max(1, w // 150),
        )
        inner = er * 0.75
        draw_emblem(
            img,
            region,
            (round(ex - inner), round(ey - inner), round(ex + inner), round(ey + inner)),
            fill=sky_top if region != "flanders" else land,
        )
    label = _REGION_LABEL.get(region or "", "")
    if label:
        draw_fitted(
            img,
            label,
            (round(w * 0.25), round(h * 0.035), round(w * 0.68), round(h * 0.07)),
            "DejaVuSansCondensed-Bold",
            land,
        )
    name_fr, name_nl = card.name("fr"), card.name("nl")
    draw_fitted(
        img,
        name_fr.upper(),
        (round(w * 0.05), round(h * 0.73), round(w * 0.76), round(h * 0.81)),
        "DejaVuSansCondensed-Bold",
        band_text,
        squeeze=0.7,
    )
    if name_nl != name_fr:
        draw_fitted(
            img,
            name_nl,
            (round(w * 0.05), round(h * 0.835), round(w * 0.76), round(h * 0.885)),
            "DejaVuSerif-Bold",
            (255, 255, 255),
            squeeze=0.7,
        )
    return img
