"""Kakkerlakkenpoker faces: one drawing per species on its own colour, with the name, no index.

The deck is told apart by its artwork (``identify_by = "face"``), so each species has a distinct
silhouette *and* a distinct background colour; the eight copies of a species share one face,
as they do in play. Species keys are matched on their letters (``stink-bug`` = ``stinkbug``)
and an unknown species still gets a face: its name, big.
"""

from __future__ import annotations

import re

from PIL import Image, ImageDraw

from kiosk.decks import Card
from kiosk.render.shapes import Shape, shapes_mask
from kiosk.render.text import draw_fitted

RGB = tuple[int, int, int]


def _legs(xs: tuple[float, ...], y: float, reach: float, width: float, bend: float = 8) -> list[Shape]:
    """Pairs of jointed insect legs leaving the body at ``xs`` (left and right of x = 50)."""
    out: list[Shape] = []
    for x in xs:
        for k in (-1, 1):
            joint = (50 + k * (x + reach * 0.6), y - bend + x * 0.4)
            foot = (50 + k * (x + reach), y + bend + x * 0.9)
            out.append(("line", [(50 + k * x, y + x * 0.3), joint, foot], width))
    return out


# fmt: off
_BAT: list[Shape] = [
    ("poly", [(50, 40), (36, 30), (20, 26), (4, 34), (12, 42), (14, 54), (22, 50), (28, 60),
              (36, 54), (44, 64), (50, 58), (56, 64), (64, 54), (72, 60), (78, 50), (86, 54),
              (88, 42), (96, 34), (80, 26), (64, 30)]),
    ("ellipse", (42, 32, 58, 62)),
    ("poly", [(43, 36), (44, 24), (49, 33)]), ("poly", [(57, 36), (56, 24), (51, 33)]),
    ("hole_ellipse", (45, 37, 48, 40)), ("hole_ellipse", (52, 37, 55, 40)),
]
_FLY: list[Shape] = [
    ("ellipse", (10, 14, 50, 44)), ("ellipse", (50, 14, 90, 44)),
    ("hole_ellipse", (14, 18, 46, 40)), ("hole_ellipse", (54, 18, 86, 40)),
    ("ellipse", (38, 20, 62, 42)), ("ellipse", (40, 40, 60, 84)), ("ellipse", (40, 8, 60, 26)),
    ("hole_ellipse", (41, 12, 48, 20)), ("hole_ellipse", (52, 12, 59, 20)),
    *_legs((8, 10, 9), 40, 22, 2.5, bend=6),
]
_COCKROACH: list[Shape] = [
    ("ellipse", (34, 26, 66, 92)), ("ellipse", (38, 16, 62, 34)),
    ("line", [(45, 18), (34, 8), (14, 2)], 2), ("line", [(55, 18), (66, 8), (86, 2)], 2),
    ("hole_line", [(50, 36), (50, 90)], 1.5),
    *_legs((14, 15, 14), 44, 26, 3),
]
_FROG: list[Shape] = [
    ("ellipse", (22, 30, 78, 80)),
    ("ellipse", (24, 20, 44, 40)), ("ellipse", (56, 20, 76, 40)),
    ("hole_ellipse", (29, 25, 39, 35)), ("hole_ellipse", (61, 25, 71, 35)),
    ("ellipse", (32, 28, 36, 32)), ("ellipse", (64, 28, 68, 32)),
    ("poly", [(26, 66), (8, 74), (4, 90), (20, 84), (34, 78)]),
    ("poly", [(74, 66), (92, 74), (96, 90), (80, 84), (66, 78)]),
    ("poly", [(32, 70), (26, 92), (40, 94), (42, 78)]),
    ("poly", [(68, 70), (74, 92), (60, 94), (58, 78)]),
    ("hole_line", [(36, 54), (50, 60), (64, 54)], 2),
]
_RAT: list[Shape] = [
    ("ellipse", (28, 40, 74, 72)),
    ("poly", [(34, 46), (6, 58), (30, 66)]),
    ("ellipse", (26, 34, 40, 48)),
    ("hole_ellipse", (29, 37, 37, 45)),
    ("ellipse", (18, 52, 22, 56)),
    ("line", [(72, 62), (84, 70), (92, 60), (96, 44), (90, 30)], 3),
    ("line", [(40, 70), (36, 80)], 4), ("line", [(64, 70), (68, 80)], 4),
    ("hole_ellipse", (19, 53, 21, 55)),
]
_SCORPION: list[Shape] = [
    ("ellipse", (36, 52, 64, 86)),
    ("ellipse", (44, 40, 56, 52)), ("ellipse", (45, 30, 55, 41)), ("ellipse", (46, 21, 56, 31)),
    ("ellipse", (50, 13, 60, 23)), ("ellipse", (56, 8, 66, 18)),
    ("poly", [(64, 10), (74, 14), (66, 20)]),
    ("line", [(40, 80), (26, 90), (16, 84)], 3), ("line", [(60, 80), (74, 90), (84, 84)], 3),
    ("ellipse", (6, 72, 22, 88)), ("ellipse", (78, 72, 94, 88)),
    ("hole_poly", [(8, 76), (16, 80), (10, 82)]), ("hole_poly", [(92, 76), (84, 80), (90, 82)]),
    *_legs((12, 13, 13), 60, 18, 2.5, bend=5),
]
_SPIDER: list[Shape] = [
    ("ellipse", (36, 44, 64, 80)), ("ellipse", (40, 28, 60, 48)),
    *[("line", [(50 + k * 8, 38 + i * 4), (50 + k * (26 + i * 2), 20 + i * 14),
                (50 + k * (40 + i), 34 + i * 18)], 2.5) for i in range(4) for k in (-1, 1)],
    ("hole_ellipse", (44, 33, 48, 37)), ("hole_ellipse", (52, 33, 56, 37)),
    ("hole_poly", [(50, 54), (56, 62), (50, 70), (44, 62)]),
]
_STINKBUG: list[Shape] = [
    ("poly", [(22, 30), (78, 30), (84, 40), (70, 58), (50, 92), (30, 58), (16, 40)]),
    ("poly", [(42, 20), (58, 20), (60, 30), (40, 30)]),
    ("line", [(44, 22), (34, 10), (24, 8)], 2), ("line", [(56, 22), (66, 10), (76, 8)], 2),
    ("hole_poly", [(36, 40), (64, 40), (50, 64)]),
    *_legs((20, 22, 18), 44, 20, 3),
]

# species key (letters only) -> (drawing, ink, background)
_SPECIES: dict[str, tuple[list[Shape], RGB, RGB]] = {
    "bat": (_BAT, (40, 30, 60), (196, 178, 232)),
    "fly": (_FLY, (20, 60, 40), (180, 226, 170)),
    "cockroach": (_COCKROACH, (96, 50, 20), (246, 214, 160)),
    "frog": (_FROG, (20, 100, 40), (210, 240, 120)),
    "rat": (_RAT, (70, 70, 76), (206, 206, 214)),
    "scorpion": (_SCORPION, (90, 40, 10), (252, 180, 110)),
    "spider": (_SPIDER, (20, 20, 20), (250, 160, 170)),
    "stinkbug": (_STINKBUG, (30, 60, 110), (160, 206, 246)),
}
# fmt: on
def species_key(species: str | None) -> str | None:
    """The drawing key of a species name from a deck file, or None when no drawing matches."""
    if not species:
        return None
    key = re.sub(r"[^a-z]", "", species.lower())
    return key if key in _SPECIES else None


def draw_animal_face(card: Card, size: tuple[int, int]) -> Image.Image:
    w, h = size
    key = species_key(card.species)
    drawing, ink, background = _SPECIES[key] if key else ([], (30, 30, 30), (235, 235, 235))
    img = Image.new("RGB", size, background)
    d = ImageDraw.Draw(img)
    inset = round(w * 0.05)
    d.rounded_rectangle(
        [inset, inset, w - inset, h - inset],
        radius=round(w * 0.06),
        outline=ink,
        width=max(2, w // 80),
    )
    art = round(w * 0.82)
    top = round(h * 0.1)
    if drawing:
        img.paste(
            ink,
            ((w - art) // 2, top, (w - art) // 2 + art, top + art),
            shapes_mask(drawing, (art, art)),
        )
    name = card.name("fr")
    draw_fitted(
        img,
        name.upper(),
        (round(w * 0.12), round(h * 0.74), round(w * 0.88), round(h * 0.84)),
        "DejaVuSansCondensed-Bold",
        ink,
        squeeze=0.7,
    )
    other = card.name("nl")
    if other != name:
        draw_fitted(
            img,
            other,
            (round(w * 0.2), round(h * 0.855), round(w * 0.8), round(h * 0.905)),
            "DejaVuSerif",
            ink,
            squeeze=0.7,
        )
    return img
