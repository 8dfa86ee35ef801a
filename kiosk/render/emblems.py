"""The three region emblems (Flemish lion, Walloon coq, Brussels iris) as filled vector shapes.

Faces, posters and the 58 mm thermal stamps all draw the same emblems, so each is a list of
polygons and ellipses in a 100 x 100 design space, filled with one colour: solid silhouettes
stay legible when a stamp is thresholded to 1 bit. Drawing is supersampled into a mask, so
RGB faces get smooth edges while 1-bit images get a clean threshold of the same shape.
"""

from __future__ import annotations

from PIL import Image, ImageColor

from kiosk.render.shapes import Shape, shapes_mask

REGION_EMBLEMS: tuple[str, ...] = ("flanders", "wallonia", "brussels")


# fmt: off
# Lion rampant facing left (dexter), as on the Flemish flag: head up, tongue out, forepaws
# raised with claws, one hind leg planted and one raised, tail curling up behind the back.
def _claws(x: float, y: float, dx: float, dy: float) -> list[Shape]:
    """Three claws leaving a paw at (x, y) in the direction (dx, dy), fanned."""
    tips = [(x + dx + k * dy * 0.5, y + dy - k * dx * 0.5) for k in (-1, 0, 1)]
    return [("line", [(x, y), tip], 2.4) for tip in tips]


_LION: tuple[Shape, ...] = (
    ("poly", [(34, 26), (52, 22), (63, 40), (70, 58), (64, 74), (48, 70), (38, 52)]),
    ("ellipse", (26, 8, 48, 30)),
    ("poly", [(30, 12), (16, 14), (13, 21), (20, 27), (32, 28)]),
    ("poly", [(38, 11), (41, 2), (46, 10)]),
    ("poly", [(42, 5), (55, 7), (51, 12), (60, 15), (54, 20), (62, 25), (55, 28), (61, 34),
              (52, 35), (44, 28)]),
    ("line", [(42, 32), (30, 31), (20, 24)], 7),
    *_claws(19, 24, -7, -4),
    ("line", [(46, 44), (32, 47), (22, 43)], 7),
    *_claws(21, 43, -7, -3),
    ("line", [(52, 64), (42, 76), (30, 75)], 9),
    *_claws(30, 75, -7, -2),
    ("line", [(62, 66), (63, 82), (56, 93)], 9),
    *_claws(55, 93, -8, 2),
    ("line", [(66, 60), (79, 57), (85, 44), (79, 32), (83, 22)], 4),
    ("poly", [(82, 24), (76, 12), (84, 15), (88, 8), (89, 18), (95, 16), (87, 26)]),
    ("hole_poly", [(14, 21), (26, 21), (27, 23.5), (15, 24)]),
    ("poly", [(17, 22), (7, 25), (11, 28), (21, 24)]),
    ("hole_ellipse", (35, 13, 39, 17)),
)

# The Walloon "coq hardi": a rooster standing, one leg raised, tail feathers arched high.
_COQ: tuple[Shape, ...] = (
    ("ellipse", (22, 36, 72, 72)),
    ("poly", [(26, 44), (22, 30), (22, 20), (28, 14), (36, 14), (40, 22), (40, 34), (44, 46)]),
    ("ellipse", (23, 5, 31, 16)), ("ellipse", (29, 3, 37, 15)), ("ellipse", (35, 6, 42, 17)),
    ("poly", [(23, 18), (12, 22), (23, 25)]),
    ("ellipse", (22, 24, 29, 34)),
    ("poly", [(62, 46), (66, 26), (76, 12), (90, 8), (82, 18), (76, 32), (72, 50)]),
    ("poly", [(64, 52), (76, 34), (88, 26), (98, 28), (88, 34), (80, 46), (72, 58)]),
    ("poly", [(66, 58), (82, 50), (94, 48), (98, 54), (86, 56), (74, 64)]),
    ("line", [(48, 68), (48, 88)], 4), ("line", [(48, 88), (40, 94)], 3),
    ("line", [(48, 88), (57, 94)], 3), ("line", [(48, 88), (49, 96)], 3),
    ("line", [(37, 66), (32, 76), (38, 80)], 4), ("line", [(38, 80), (31, 84)], 3),
    ("line", [(38, 80), (40, 87)], 3),
    ("hole_ellipse", (28, 17, 32, 21)),
)

# The Brussels iris (Iris pseudacorus) as on the regional logo: an upright standard petal, two
# falling petals, a stem and two blade-like leaves.
_IRIS: tuple[Shape, ...] = (
    ("poly", [(50, 4), (60, 16), (62, 30), (56, 42), (50, 46), (44, 42), (38, 30), (40, 16)]),
    ("poly", [(46, 40), (34, 34), (18, 32), (6, 38), (8, 48), (18, 54), (30, 54), (44, 48)]),
    ("poly", [(54, 40), (66, 34), (82, 32), (94, 38), (92, 48), (82, 54), (70, 54), (56, 48)]),
    ("poly", [(40, 46), (50, 58), (60, 46), (56, 54), (50, 62), (44, 54)]),
    ("poly", [(48, 56), (52, 56), (52, 96), (48, 96)]),
    ("poly", [(47, 96), (30, 80), (24, 62), (34, 72), (48, 86)]),
    ("poly", [(53, 96), (70, 80), (76, 62), (66, 72), (52, 86)]),
    ("hole_poly", [(50, 14), (54, 24), (50, 38), (46, 24)]),
)
# fmt: on

_EMBLEMS: dict[str, tuple[Shape, ...]] = {"flanders": _LION, "wallonia": _COQ, "brussels": _IRIS}


def emblem_mask(region: str, size: tuple[int, int]) -> Image.Image:
    """The emblem as an antialiased ``L`` mask of ``size`` (255 = ink), kept square and centred."""
    try:
        shapes = _EMBLEMS[region]
    except KeyError:
        raise ValueError(f"unknown region {region!r}; expected one of {REGION_EMBLEMS}") from None
    return shapes_mask(shapes, size)


def draw_emblem(
    img: Image.Image,
    region: str,
    box: tuple[int, int, int, int],
    fill: str | int | tuple[int, ...] = "black",
) -> None:
    """Draw the emblem of ``region`` (flanders | wallonia | brussels) into ``box`` (x0, y0, x1, y1).

    The emblem keeps its proportions, centred in the box. On a 1-bit image the mask is
    thresholded instead of blended, so thermal stamps get crisp edges without dithering.
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:
        return
    mask = emblem_mask(region, (w, h))
    if img.mode == "1":
        mask = mask.point(lambda v: 255 if v >= 128 else 0).convert("1")
    colour = ImageColor.getcolor(fill, img.mode) if isinstance(fill, str) else fill
    img.paste(colour, (x0, y0, x1, y1), mask)
