"""One landmark per L'Affiche Belge place, as filled vector shapes standing on the bottom edge.

The same drawing is the silhouette on the card's poster and the motif of the place's passport
stamp, so a visitor collects 54 different stamps. Each is a list of shapes in a 100 x 100 design
space (see ``kiosk.render.shapes``) with solid parts at least ~3 units wide and openings at least
~4 units, so they stay legible thresholded to 1 bit at 80 dots (a 58 mm stamp). Drawings are
keyed by card id: the two Manneken-Pis cards show the statue dressed up and in its niche.
"""

from __future__ import annotations

import math

from PIL import Image

from kiosk.render.shapes import Point, Shape, shapes_mask


def _rect(x0: float, y0: float, x1: float, y1: float, kind: str = "poly") -> Shape:
    return (kind, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def _arch(x0: float, x1: float, top: float, bottom: float, kind: str = "hole") -> list[Shape]:
    """A round-headed opening (door, window, gate) from ``top`` to ``bottom``."""
    r = (x1 - x0) / 2
    return [_rect(x0, top + r, x1, bottom, f"{kind}_poly"), (f"{kind}_ellipse", (x0, top, x1, top + 2 * r))]


def _ring(box: tuple[float, float, float, float], width: float) -> list[Shape]:
    """An elliptical outline ``width`` thick (it clears what lies inside it)."""
    x0, y0, x1, y1 = box
    return [("ellipse", box), ("hole_ellipse", (x0 + width, y0 + width, x1 - width, y1 - width))]


def _star(cx: float, cy: float, outer: float, inner: float, points: int, turn: float = -90) -> Shape:
    pts: list[Point] = []
    for k in range(points * 2):
        r = outer if k % 2 == 0 else inner
        a = math.radians(turn + k * 180 / points)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return ("poly", pts)


def _onion(cx: float, base: float, w: float, h: float) -> list[Shape]:
    """A baroque onion dome with its lantern spike, sitting on ``base``."""
    return [
        ("ellipse", (cx - w / 2, base - h * 0.75, cx + w / 2, base)),
        ("poly", [(cx - w * 0.3, base - h * 0.6), (cx, base - h), (cx + w * 0.3, base - h * 0.6)]),
        ("line", [(cx, base - h), (cx, base - h - 6)], 2.5),
    ]


def _turret(x0: float, x1: float, top: float, tip: float, bottom: float = 100) -> list[Shape]:
    """A square tower from ``top`` down to ``bottom`` with a pointed roof up to ``tip``."""
    return [_rect(x0, top, x1, bottom), ("poly", [(x0 - 1, top), ((x0 + x1) / 2, tip), (x1 + 1, top)])]


def _crenels(x0: float, x1: float, y: float, n: int, h: float) -> list[Shape]:
    """``n`` merlons on a wall top at ``y``, spread from ``x0`` to ``x1``."""
    w = (x1 - x0) / (2 * n - 1)
    return [_rect(x0 + 2 * k * w, y - h, x0 + (2 * k + 1) * w, y) for k in range(n)]


def _hop_cone(cx: float, top: float, half_w: float, row_h: float, rows: int) -> list[Shape]:
    """A hop cone: ``rows`` of overlapping bracts, serrated at the sides, tapering to a point."""
    left: list[Point] = [(cx - half_w * 0.35, top)]
    scales: list[Shape] = []
    for i in range(rows):
        w = half_w * math.sin(math.pi * (i + 1) / (rows + 1.2)) ** 0.6
        y = top + i * row_h
        left += [(cx - w, y + row_h * 0.85), (cx - w * 0.7, y + row_h)]
        scales.append(
            ("hole_line", [(cx - w * 0.7, y + row_h), (cx, y + row_h * 1.35), (cx + w * 0.7, y + row_h)], 2.5)
        )
    bottom = (cx, top + rows * row_h + row_h * 0.8)
    right = [(2 * cx - x, y) for x, y in reversed(left)]
    return [("poly", [*left, bottom, *right]), *scales[:-1]]


def _card(cx: float, cy: float, w: float, h: float, angle: float) -> list[Shape]:
    """A playing card turned ``angle`` degrees about its centre: ink edge, white face."""

    def quad(inset: float, kind: str) -> Shape:
        a = math.radians(angle)
        pts = [
            (-w / 2 + inset, -h / 2 + inset),
            (w / 2 - inset, -h / 2 + inset),
            (w / 2 - inset, h / 2 - inset),
            (-w / 2 + inset, h / 2 - inset),
        ]
        return (
            kind,
            [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)) for x, y in pts],
        )

    return [quad(0, "poly"), quad(3, "hole_poly")]


# fmt: off
#: The Atomium's spheres as seen from the street: a hexagon round the centre one.
_ATOMS: tuple[Point, ...] = ((50, 12), (81, 30), (81, 66), (50, 84), (19, 66), (19, 30), (50, 48))

_MANNEKEN: list[Shape] = [  # the little bronze boy on his stone pedestal, and his jet in drops
    _rect(36, 82, 64, 100), _rect(32, 78, 68, 84),
    ("ellipse", (43, 26, 57, 40)),
    ("poly", [(42, 40), (56, 40), (58, 58), (54, 62), (44, 62), (41, 56)]),
    ("line", [(45, 60), (44, 78)], 5), ("line", [(53, 60), (55, 78)], 5),
    ("line", [(42, 42), (37, 52), (44, 56)], 4.5), ("line", [(56, 43), (60, 50), (56, 54)], 4.5),
    ("ellipse", (60, 58, 65, 63)), ("ellipse", (67, 63, 72, 68)), ("ellipse", (73, 70, 78, 75)),
    ("ellipse", (77, 78, 82, 83)),
]

LANDMARKS: dict[str, tuple[Shape, ...]] = {
    # --- Wallonia ---------------------------------------------------------------------------
    "AS": (  # Mons, the Doudou: the Lumeçon dragon, long tail raised, jaws open
        ("ellipse", (30, 50, 78, 80)),
        ("poly", [(32, 64), (22, 44), (30, 38), (44, 58)]),
        ("poly", [(20, 34), (32, 32), (34, 42), (22, 46)]),
        ("poly", [(22, 35), (2, 28), (4, 35), (22, 41)]),
        ("poly", [(22, 43), (4, 46), (7, 51), (25, 47)]),
        ("hole_ellipse", (25, 35, 29, 39)),
        *[("poly", [(x, 54 - (x - 36) * 0.05), (x + 5, 42), (x + 10, 52)]) for x in (36, 48, 60)],
        ("line", [(74, 70), (86, 64), (93, 50), (90, 34), (80, 24)], 7),
        ("poly", [(82, 28), (72, 14), (86, 18)]),
        *[("line", [(x, 76), (x - 2, 96)], 6) for x in (38, 50, 62, 72)],
    ),
    "AH": (  # Malmedy: a Haguète in plumed hat reaching out with the long wooden tongs
        ("poly", [(60, 46), (80, 46), (88, 98), (54, 98)]),
        ("ellipse", (62, 30, 78, 46)),
        ("poly", [(54, 32), (70, 20), (88, 32)]),
        ("ellipse", (56, 6, 72, 24)), ("ellipse", (66, 4, 84, 24)), ("ellipse", (62, 0, 76, 14)),
        *[("line", [(x, 46), (x - 12, 60)], 3) for x in (58, 46, 34, 22)],
        *[("line", [(x, 60), (x - 12, 46)], 3) for x in (58, 46, 34, 22)],
        ("line", [(10, 46), (3, 50)], 3), ("line", [(10, 60), (3, 56)], 3),
        ("line", [(60, 53), (66, 60)], 5),
    ),
    "AD": (  # Binche: a Gille under his towering hat of ostrich feathers, a basket of oranges
        ("ellipse", (18, 12, 50, 46)), ("ellipse", (34, 0, 66, 40)), ("ellipse", (50, 12, 82, 46)),
        ("ellipse", (28, 22, 72, 50)),
        ("hole_line", [(34, 22), (42, 44)], 2.5), ("hole_line", [(50, 8), (50, 42)], 2.5),
        ("hole_line", [(66, 22), (58, 44)], 2.5),
        _rect(40, 48, 60, 54), ("ellipse", (42, 52, 58, 66)),
        ("poly", [(34, 68), (66, 68), (70, 86), (30, 86)]), ("ellipse", (34, 62, 66, 76)),
        ("hole_line", [(32, 80), (68, 80)], 2.5),
        ("line", [(36, 70), (24, 80)], 5), ("line", [(64, 70), (76, 78)], 5),
        ("poly", [(68, 76), (90, 76), (86, 90), (72, 90)]),
        ("ellipse", (71, 70, 79, 78)), ("ellipse", (79, 70, 87, 78)),
        ("line", [(40, 86), (38, 98)], 6), ("line", [(60, 86), (62, 98)], 6),
    ),
    "AC": (  # Andenne: the bear of Charles Martel's legend, walking
        ("ellipse", (22, 46, 88, 84)),
        ("ellipse", (28, 38, 58, 64)),
        ("ellipse", (6, 42, 34, 68)),
        ("poly", [(10, 52), (0, 58), (2, 63), (12, 64)]),
        ("ellipse", (12, 36, 21, 46)), ("ellipse", (23, 36, 32, 46)),
        ("hole_ellipse", (15, 49, 19, 53)),
        _rect(26, 72, 38, 98), _rect(42, 74, 52, 98), _rect(64, 74, 74, 98), _rect(76, 70, 88, 98),
    ),
    "2C": (  # Bouillon: Godfrey's castle strung along its rock above the Semois
        ("poly", [(0, 100), (0, 76), (14, 70), (50, 66), (86, 68), (100, 74), (100, 100)]),
        _rect(12, 46, 90, 70),
        *_turret(8, 24, 34, 20, 70), *_turret(40, 52, 28, 14, 70), *_turret(76, 92, 32, 18, 70),
        *_crenels(24, 40, 46, 3, 5), *_crenels(52, 76, 46, 4, 5),
        *_arch(14, 19, 40, 48), *_arch(43, 49, 34, 42), *_arch(81, 87, 38, 46),
        ("hole_line", [(0, 88), (20, 86), (40, 89), (60, 86), (80, 89), (100, 86)], 3),
    ),
    "2D": (  # Dinant: Adolphe Sax's saxophone
        ("line", [(40, 16), (41, 44), (44, 70), (52, 84), (64, 86), (72, 76), (74, 60)], 12),
        ("poly", [(67, 64), (64, 52), (74, 48), (94, 40), (92, 54), (82, 66)]),
        ("line", [(40, 16), (34, 8), (22, 6)], 5), ("line", [(22, 6), (12, 10)], 6),
        *[("hole_ellipse", (38, y, 44, y + 6)) for y in (26, 38, 50)],
        ("hole_ellipse", (46, 68, 52, 74)),
        ("line", [(48, 28), (52, 40)], 3), ("line", [(50, 46), (54, 58)], 3),
    ),
    "2S": (  # Durbuy: the smallest town, its castle above the old bridge over the Ourthe
        _rect(30, 30, 62, 70), ("poly", [(28, 30), (46, 12), (64, 30)]),
        *_turret(20, 30, 36, 22, 70), *_turret(62, 72, 36, 22, 70),
        *_arch(42, 50, 38, 50),
        ("poly", [(0, 70), (0, 56), (10, 48), (20, 56), (20, 70)]),
        ("poly", [(72, 70), (72, 54), (86, 44), (100, 54), (100, 70)]),
        ("poly", [(0, 100), (0, 70), (30, 66), (70, 66), (100, 70), (100, 100)]),
        *[s for x in (8, 40, 72) for s in _arch(x, x + 20, 78, 100)],
        ("hole_line", [(0, 74), (100, 74)], 2),
    ),
    "3C": (  # Villers-la-Ville: the Cistercian abbey's roofless arches
        ("poly", [(6, 100), (6, 40), (20, 30), (34, 40), (34, 100)]),
        ("poly", [(40, 100), (40, 20), (60, 20), (60, 100)]),
        ("poly", [(66, 100), (66, 52), (80, 44), (94, 52), (94, 100)]),
        *[("hole_ellipse", (x - 5, 45, x + 5, 70)) for x in (20, 50, 80)],
        *[_rect(x - 5, 57, x + 5, 100, "hole_poly") for x in (20, 50, 80)],
        ("hole_ellipse", (45, 26, 55, 36)),
    ),
    "3D": (  # Nivelles: Saint Gertrude's Romanesque westwork and its two round stair turrets
        _rect(8, 52, 92, 100),
        *_turret(36, 64, 24, 6, 52),
        _rect(12, 34, 26, 100), ("poly", [(10, 34), (19, 16), (28, 34)]),
        _rect(74, 34, 88, 100), ("poly", [(72, 34), (81, 16), (90, 34)]),
        *_arch(44, 56, 30, 44),
        *_arch(42, 58, 74, 100), *_arch(30, 36, 60, 72), *_arch(64, 70, 60, 72),
    ),
    "4C": (  # Arlon: Roman Orolaunum, a temple front
        ("poly", [(6, 32), (50, 10), (94, 32)]), ("hole_poly", [(22, 28), (50, 16), (78, 28)]),
        _rect(6, 32, 94, 40),
        *[_rect(x, 42, x + 9, 86) for x in (12, 32, 59, 79)],
        *[_rect(x - 2, 40, x + 11, 44) for x in (12, 32, 59, 79)],
        _rect(4, 86, 96, 93), _rect(0, 93, 100, 100),
    ),
    "4D": (  # Bastogne: the Sherman tank of McAuliffe Square
        ("poly", [(8, 66), (92, 66), (98, 78), (90, 94), (12, 94), (2, 80)]),
        *[("hole_ellipse", (x, 78, x + 11, 89)) for x in (14, 30, 46, 62, 78)],
        ("poly", [(30, 66), (34, 48), (66, 46), (74, 56), (72, 66)]),
        ("line", [(36, 54), (0, 50)], 5),
        _rect(48, 40, 62, 47),
        ("line", [(8, 66), (92, 66)], 3),
    ),
    "5D": (  # Waterloo: the Lion's Mound, its stairs, the lion on its pedestal
        ("poly", [(0, 100), (40, 50), (60, 50), (100, 100)]),
        ("hole_line", [(48, 52), (58, 100)], 3),
        _rect(40, 42, 60, 50),
        ("ellipse", (36, 22, 72, 36)),
        *[("line", [(x, 32), (x + d, 42)], 4.5) for x, d in ((38, 0), (46, 0), (62, 0), (69, 2))],
        ("line", [(70, 28), (80, 22), (82, 12)], 3), ("ellipse", (78, 6, 86, 14)),
        _star(34, 22, 16, 11, 11),
        ("ellipse", (20, 14, 36, 30)), ("hole_ellipse", (25, 18, 29, 22)),
    ),
    "6S": (  # Tournai: Notre-Dame and its five bell towers
        _rect(0, 64, 100, 100),
        *_turret(4, 18, 36, 20, 64), *_turret(22, 36, 30, 14, 64), *_turret(41, 59, 22, 2, 64),
        *_turret(64, 78, 30, 14, 64), *_turret(82, 96, 36, 20, 64),
        *[s for x, y in ((8, 44), (26, 38), (47, 30), (68, 38), (86, 44)) for s in _arch(x, x + 6, y, y + 12)],
        *_arch(42, 58, 76, 100),
    ),
    "6D": (  # Chimay: a chalice of Trappist beer under its head of foam
        ("poly", [(18, 22), (82, 22), (80, 40), (70, 54), (56, 60), (44, 60), (30, 54), (20, 40)]),
        ("ellipse", (16, 8, 84, 30)),
        ("hole_line", [(18, 22), (82, 22)], 2.5),
        ("hole_line", [(28, 32), (34, 48)], 3),
        _rect(46, 58, 54, 86),
        ("ellipse", (28, 82, 72, 96)),
    ),
    "7H": (  # Spa: the spring's basin on its column, water falling in drops
        _rect(40, 60, 60, 94), _rect(30, 92, 70, 100),
        ("poly", [(12, 50), (88, 50), (78, 64), (22, 64)]),
        _rect(46, 30, 54, 50), ("ellipse", (40, 22, 60, 34)),
        ("line", [(44, 26), (30, 28), (20, 40)], 3.5), ("line", [(56, 26), (70, 28), (80, 40)], 3.5),
        ("ellipse", (16, 42, 22, 48)), ("ellipse", (78, 42, 84, 48)),
        ("line", [(50, 22), (50, 6)], 3.5), ("ellipse", (46, 0, 54, 8)),
    ),
    "8C": (  # Huy: a rider climbing the Mur de Huy
        ("poly", [(0, 100), (0, 96), (100, 44), (100, 100)]),
        *_ring((18, 57, 42, 81), 4), *_ring((50, 40, 74, 64), 4),
        ("line", [(30, 69), (42, 58), (62, 52)], 3.5), ("line", [(42, 58), (38, 42), (56, 34), (62, 52)], 3.5),
        ("line", [(38, 40), (52, 24)], 8),
        ("ellipse", (50, 10, 62, 22)), ("poly", [(48, 16), (56, 8), (64, 14)]),
        ("line", [(52, 26), (60, 34)], 4),
        ("line", [(40, 40), (50, 48), (44, 60)], 5),
    ),
    "8D": (  # Rochefort: a Trappist bottle before the abbey church of Saint-Remy
        ("poly", [(4, 100), (4, 64), (26, 48), (48, 64), (48, 100)]),
        *_turret(22, 30, 40, 24, 52),
        *_arch(12, 18, 70, 84), *_arch(34, 40, 70, 84), *_arch(22, 30, 80, 100),
        ("hole_poly", [(54, 100), (54, 54), (62, 42), (62, 18), (80, 18), (80, 42), (88, 54), (88, 100)]),
        ("poly", [(58, 100), (58, 56), (64, 46), (66, 24), (76, 24), (78, 46), (84, 56), (84, 100)]),
        _rect(65, 20, 77, 26),
        _rect(60, 64, 82, 86, "hole_poly"), ("line", [(71, 68), (71, 82)], 3), ("line", [(65, 73), (77, 73)], 3),
    ),
    "9S": (  # Han-sur-Lesse: the caves, stalactites and stalagmites in the hill's mouth
        ("poly", [(0, 100), (0, 40), (20, 22), (50, 14), (80, 24), (100, 44), (100, 100)]),
        ("hole_poly", [(18, 100), (18, 66), (30, 48), (50, 40), (70, 48), (82, 66), (82, 100)]),
        ("poly", [(30, 50), (34, 70), (38, 46)]), ("poly", [(45, 42), (49, 66), (53, 42)]),
        ("poly", [(60, 44), (64, 62), (68, 47)]),
        ("poly", [(28, 100), (32, 80), (36, 100)]), ("poly", [(56, 100), (61, 74), (66, 100)]),
        ("poly", [(70, 100), (73, 86), (76, 100)]),
    ),
    "9D": (  # Stavelot: a Blanc Moussi, white hood, long nose and pig's bladder on a stick
        ("poly", [(30, 100), (34, 56), (38, 32), (48, 16), (58, 12), (62, 30), (66, 56), (72, 100)]),
        ("poly", [(40, 40), (6, 52), (8, 56), (42, 48)]),
        ("hole_ellipse", (44, 32, 50, 38)),
        ("line", [(66, 60), (86, 34)], 3.5), ("ellipse", (80, 14, 98, 36)),
    ),
    "10C": (  # Namur: the citadel on its rock where the Sambre meets the Meuse, and its cable car
        ("poly", [(0, 100), (0, 70), (20, 60), (40, 46), (70, 42), (100, 48), (100, 100)]),
        ("poly", [(34, 48), (34, 32), (92, 32), (92, 44)]),
        *_crenels(34, 92, 32, 6, 5),
        _rect(58, 16, 72, 32), *_crenels(58, 72, 16, 3, 4),
        ("line", [(0, 8), (100, 28)], 2.5),
        ("line", [(20, 12), (20, 18)], 2.5), _rect(14, 18, 26, 28),
        ("hole_line", [(0, 86), (25, 82), (50, 86), (75, 82), (100, 86)], 3.5),
    ),
    "10S": (  # Louvain-la-Neuve: the university town, a graduate's cap on a stack of books
        ("poly", [(8, 32), (50, 16), (92, 32), (50, 48)]),
        ("poly", [(28, 40), (72, 40), (70, 60), (50, 64), (30, 60)]),
        ("line", [(50, 32), (84, 36), (84, 58)], 2.5), ("poly", [(80, 56), (88, 56), (90, 66), (78, 66)]),
        _rect(18, 70, 82, 82), _rect(12, 84, 88, 98),
        ("hole_line", [(24, 76), (82, 76)], 2.5), ("hole_line", [(18, 91), (88, 91)], 2.5),
    ),
    "10D": (  # Charleroi: King Charles II's crowned fortress gate between its bastions, slag heaps behind
        ("poly", [(0, 72), (12, 42), (20, 40), (38, 72)]), ("poly", [(62, 72), (80, 38), (88, 40), (100, 72)]),
        ("hole_poly", [(0, 100), (0, 64), (30, 66), (30, 40), (70, 40), (70, 66), (100, 64), (100, 100)]),
        ("poly", [(0, 100), (4, 68), (34, 70), (34, 100)]), ("poly", [(100, 100), (96, 68), (66, 70), (66, 100)]),
        _rect(34, 46, 66, 100),
        ("poly", [(36, 44), (36, 26), (44, 34), (50, 20), (56, 34), (64, 26), (64, 44)]),
        *_arch(42, 58, 64, 100),
    ),
    "KS": (  # Eupen: Saint Nicholas' church and its two onion-domed towers
        _rect(36, 54, 64, 100), ("poly", [(36, 54), (50, 40), (64, 54)]),
        _rect(16, 36, 36, 100), *_onion(26, 36, 22, 28),
        _rect(64, 36, 84, 100), *_onion(74, 36, 22, 28),
        *_arch(22, 30, 46, 60), *_arch(70, 78, 46, 60), *_arch(44, 56, 76, 100),
    ),
    "KH": (  # Liège: the Perron, column, pine cone and cross on its steps
        _rect(12, 90, 88, 100), _rect(22, 80, 78, 90), _rect(32, 72, 68, 80),
        _rect(45, 30, 55, 72), _rect(39, 26, 61, 32),
        ("ellipse", (41, 10, 59, 30)),
        ("hole_line", [(44, 16), (50, 20), (56, 16)], 2.5), ("hole_line", [(43, 22), (50, 26), (57, 22)], 2.5),
        ("line", [(50, 10), (50, 0)], 3.5), ("line", [(44, 4), (56, 4)], 3.5),
        ("hole_line", [(22, 85), (78, 85)], 2),
    ),
    # --- Flanders ---------------------------------------------------------------------------
    "2H": (  # Ghent: the Mystic Lamb of the Van Eyck altarpiece, haloed, on its altar
        *_ring((12, 22, 40, 50), 3),
        ("ellipse", (30, 40, 80, 66)),
        *[("ellipse", (x, 37, x + 18, 47)) for x in (32, 46, 60)],
        ("line", [(78, 52), (86, 60)], 4),
        ("ellipse", (16, 28, 36, 48)), ("poly", [(30, 32), (38, 36), (34, 40)]),
        ("hole_ellipse", (21, 34, 25, 38)),
        *[("line", [(x, 62), (x, 76)], 4.5) for x in (38, 46, 66, 74)],
        ("line", [(78, 48), (88, 8)], 3), ("poly", [(87, 10), (98, 16), (86, 20)]),
        _rect(14, 76, 88, 100), _rect(20, 82, 82, 94, "hole_poly"), _rect(24, 86, 78, 90),
    ),
    "3H": (  # Lier: the Zimmer Tower and its Centenary Clock
        *_turret(26, 74, 20, 2),
        ("hole_ellipse", (30, 24, 70, 64)),
        ("ellipse", (47, 41, 53, 47)),
        ("line", [(50, 44), (50, 28)], 3.5), ("line", [(50, 44), (62, 50)], 3.5),
        *[("ellipse", (x - 2, y - 2, x + 2, y + 2)) for x, y in ((50, 59), (35, 44), (65, 44))],
        *[("hole_ellipse", (x, 68, x + 7, 75)) for x in (30, 41.5, 53, 64)],
        *_arch(42, 58, 80, 100),
    ),
    "3S": (  # Ypres: the Menin Gate, its vault and the lion lying on top
        _rect(4, 42, 96, 100), _rect(16, 34, 84, 42),
        *_arch(30, 70, 50, 100),
        *_arch(9, 19, 60, 84), *_arch(81, 91, 60, 84),
        ("ellipse", (38, 20, 72, 34)), ("line", [(70, 30), (78, 28), (80, 20)], 3),
        _star(38, 21, 13, 9, 11), ("ellipse", (27, 13, 41, 27)), ("hole_ellipse", (31, 17, 35, 21)),
    ),
    "4H": (  # De Panne: a sand yacht sailing on the beach
        ("line", [(52, 6), (52, 74)], 3.5),
        ("poly", [(55, 8), (55, 70), (92, 70)]),
        ("poly", [(49, 14), (49, 66), (22, 66)]),
        ("poly", [(10, 74), (90, 74), (86, 80), (14, 80)]),
        ("ellipse", (4, 78, 18, 92)), ("ellipse", (66, 80, 82, 96)), ("ellipse", (80, 80, 96, 96)),
        ("line", [(0, 96), (100, 96)], 3),
    ),
    "4S": (  # Ostend: the lighthouse on the coast
        ("poly", [(40, 100), (44, 25), (56, 25), (60, 100)]),
        ("poly", [(41, 25), (41, 15), (50, 8), (59, 15), (59, 25)]),
        ("hole_poly", [(46, 18), (54, 18), (54, 23), (46, 23)]),
        ("hole_poly", [(43, 60), (57, 60), (57.7, 70), (42.3, 70)]),
        ("line", [(30, 12), (12, 6)], 3), ("line", [(70, 12), (88, 6)], 3),
        ("poly", [(0, 100), (0, 92), (30, 88), (70, 90), (100, 86), (100, 100)]),
    ),
    "5C": (  # Hasselt: a stoneware jenever jug and its little tulip glass
        *_ring((46, 22, 74, 56), 5),
        ("ellipse", (18, 30, 66, 98)),
        _rect(34, 14, 50, 36), _rect(32, 10, 52, 16),
        ("hole_line", [(24, 62), (60, 62)], 3),
        ("poly", [(72, 60), (94, 60), (92, 74), (83, 80), (74, 74)]),
        ("line", [(83, 80), (83, 94)], 3.5), ("ellipse", (74, 92, 92, 99)),
    ),
    "5S": (  # Tongeren: Ambiorix on his pedestal, winged helmet and axe
        _rect(32, 80, 68, 100), _rect(28, 76, 72, 82),
        ("poly", [(40, 40), (60, 40), (64, 76), (36, 76)]),
        ("ellipse", (44, 24, 56, 40)),
        ("poly", [(45, 28), (34, 12), (42, 26)]), ("poly", [(55, 28), (66, 12), (58, 26)]),
        ("poly", [(44, 36), (40, 46), (50, 38), (60, 46), (56, 36)]),
        ("line", [(60, 44), (70, 36), (72, 32)], 5),
        ("line", [(72, 34), (76, 2)], 3.5), ("line", [(66, 31), (80, 29)], 3.5),
        ("line", [(40, 44), (32, 60)], 5),
    ),
    "6H": (  # Kortrijk: the Golden Spurs, a knight's spur and its rowel
        *_ring((6, 30, 62, 70), 7),
        _rect(0, 30, 20, 70, "hole_poly"),
        _rect(16, 30, 26, 40), _rect(16, 60, 26, 70),
        ("line", [(60, 50), (76, 50)], 6),
        _star(84, 50, 15, 6, 8), ("hole_ellipse", (81, 47, 87, 53)),
    ),
    "6C": (  # Oudenaarde: a verdure tapestry hanging from its rod
        ("line", [(4, 12), (96, 12)], 4), ("ellipse", (0, 8, 8, 16)), ("ellipse", (92, 8, 100, 16)),
        _rect(14, 14, 86, 86), _rect(20, 20, 80, 80, "hole_poly"), _rect(24, 24, 76, 76),
        ("hole_ellipse", (32, 28, 68, 58)), ("hole_poly", [(46, 56), (54, 56), (56, 72), (44, 72)]),
        ("hole_poly", [(28, 72), (72, 72), (72, 76), (28, 76)]),
        *[("line", [(x, 86), (x, 96)], 2.5) for x in range(18, 84, 6)],
    ),
    "7C": (  # Turnhout, the playing-card town: a fanned hand of cards
        *_card(30, 56, 34, 48, -24), ("poly", [(26, 44), (31, 54), (26, 64), (21, 54)]),
        *_card(50, 50, 34, 48, 0),
        ("ellipse", (42, 40, 51, 49)), ("ellipse", (49, 40, 58, 49)), ("poly", [(42.5, 46), (57.5, 46), (50, 58)]),
        *_card(70, 56, 34, 48, 24),
        ("ellipse", (66, 46, 76, 56)), ("poly", [(66.5, 53), (75.5, 53), (71, 62)]),
    ),
    "7D": (  # Dendermonde: the steed Bayard carrying the four Aymon brothers
        ("ellipse", (22, 46, 86, 74)),
        ("poly", [(28, 54), (16, 28), (6, 26), (0, 34), (4, 40), (14, 40), (20, 62)]),
        ("poly", [(14, 26), (18, 18), (20, 28)]),
        ("line", [(84, 52), (92, 64), (94, 82)], 5),
        *[("line", [(x, 68), (x + d, 98)], 6) for x, d in ((30, -4), (40, 2), (70, -2), (80, 4))],
        *[("ellipse", (x - 4, 24, x + 4, 32)) for x in (34, 46, 58, 70)],
        *[("poly", [(x - 5, 34), (x + 5, 34), (x + 3, 50), (x - 3, 50)]) for x in (34, 46, 58, 70)],
    ),
    "8H": (  # Genk: the headframe of the Winterslag coal mine (C-mine)
        ("line", [(26, 100), (44, 28)], 5), ("line", [(74, 100), (56, 28)], 5),
        *[("line", [(26 + (100 - y) / 4, y), (74 - (100 - y) / 4, y)], 3) for y in (82, 62, 42)],
        ("line", [(92, 100), (58, 34)], 5),
        *_ring((34, 6, 66, 38), 4),
        ("line", [(50, 8), (50, 36)], 2.5), ("line", [(36, 22), (64, 22)], 2.5),
        ("ellipse", (46, 18, 54, 26)),
        ("poly", [(0, 100), (0, 80), (12, 72), (24, 80), (24, 100)]),
    ),
    "8S": (  # Sint-Niklaas: Saint Nicholas' mitre and crozier
        ("poly", [(24, 96), (22, 46), (30, 28), (48, 10), (48, 96)]),
        ("poly", [(52, 96), (52, 10), (70, 28), (78, 46), (76, 96)]),
        ("hole_line", [(50, 38), (50, 64)], 4), ("hole_line", [(38, 48), (62, 48)], 4),
        ("hole_line", [(26, 80), (74, 80)], 3),
        ("line", [(88, 100), (88, 22)], 4),
        *_ring((76, 4, 98, 26), 4), _rect(76, 15, 87, 26, "hole_poly"),
    ),
    "9H": (  # Tienen, the sugar town: a sugar beet and two sugar cubes
        ("poly", [(24, 42), (68, 42), (64, 64), (52, 82), (46, 98), (42, 82), (30, 64)]),
        ("ellipse", (22, 34, 70, 56)),
        ("poly", [(42, 38), (22, 22), (14, 4), (30, 10), (46, 34)]),
        ("poly", [(44, 36), (40, 12), (46, 0), (52, 12), (50, 36)]),
        ("poly", [(50, 38), (62, 14), (78, 8), (72, 26), (54, 40)]),
        ("hole_line", [(42, 34), (26, 14)], 2), ("hole_line", [(46, 34), (46, 8)], 2),
        ("hole_line", [(52, 36), (68, 16)], 2),
        _rect(70, 80, 86, 96), _rect(80, 66, 96, 82), ("hole_line", [(70, 80), (86, 80)], 2.5),
    ),
    "9C": (  # Poperinge: hop cones hanging from the bine, with a hop leaf
        ("line", [(0, 8), (100, 6)], 3), ("line", [(40, 8), (40, 24)], 3), ("line", [(74, 6), (74, 36)], 3),
        *[s for cx, top, w, h, n in ((40, 20, 17, 12, 6), (74, 32, 12, 10, 5))
          for s in _hop_cone(cx, top, w, h, n)],
        ("poly", [(20, 12), (8, 16), (10, 24), (2, 30), (12, 36), (14, 44), (22, 36), (26, 22)]),
    ),
    "10H": (  # Leuven: the Gothic town hall and its six turrets
        _rect(12, 50, 88, 100),
        ("poly", [(12, 50), (22, 26), (78, 26), (88, 50)]),
        *_turret(6, 14, 30, 8), *_turret(86, 94, 30, 8),
        *_turret(30, 36, 22, 6, 50), *_turret(64, 70, 22, 6, 50), *_turret(47, 53, 18, 2, 50),
        *[s for x in (19, 34, 49, 64, 79) for y in (56, 78) for s in _arch(x, x + 7, y, y + 14)],
    ),
    "QH": (  # Mechelen: Saint Rumbold's tower, unfinished and square-topped, its huge clock
        _rect(24, 14, 76, 100),
        *[("poly", [(x - 4, 14), (x, 2), (x + 4, 14)]) for x in (28, 42, 58, 72)],
        ("poly", [(16, 100), (18, 40), (24, 36), (24, 100)]), ("poly", [(84, 100), (82, 40), (76, 36), (76, 100)]),
        ("hole_ellipse", (36, 38, 64, 66)), ("ellipse", (40, 42, 60, 62)), ("hole_ellipse", (46, 48, 54, 56)),
        *_arch(32, 40, 20, 34), *_arch(60, 68, 20, 34), *_arch(42, 58, 74, 100),
        ("poly", [(0, 100), (0, 74), (12, 62), (16, 66), (16, 100)]),
    ),
    "QC": (  # Damme: the Schellemolen windmill by the canal
        ("poly", [(36, 100), (42, 45), (58, 45), (64, 100)]),
        ("poly", [(40, 48), (50, 38), (60, 48)]),
        ("line", [(20, 22), (80, 82)], 5), ("line", [(80, 22), (20, 82)], 5),
        ("ellipse", (45, 47, 55, 57)),
        *_arch(46, 54, 84, 100),
    ),
    "KC": (  # Antwerp: Brabo on the fountain, throwing the giant's hand
        _rect(36, 76, 64, 100), _rect(20, 92, 80, 100),
        ("line", [(46, 76), (42, 60)], 5), ("line", [(54, 76), (60, 62)], 5),
        ("poly", [(40, 62), (58, 62), (58, 40), (44, 40)]),
        ("poly", [(44, 42), (30, 60), (40, 62)]),
        ("ellipse", (45, 28, 57, 40)),
        ("line", [(56, 42), (66, 30), (70, 18)], 5),
        ("ellipse", (64, 4, 78, 18)),
        *[("line", [(x, 10), (x + d, 0)], 2.5) for x, d in ((66, -2), (70, 0), (74, 1), (77, 3))],
        ("line", [(44, 44), (34, 62)], 4),
    ),
    "KD": (  # Bruges: the Belfry over the market hall
        _rect(6, 66, 94, 100),
        ("poly", [(6, 66), (12, 58), (88, 58), (94, 66)]),
        _rect(36, 26, 64, 66),
        *[("poly", [(x - 3, 26), (x, 18), (x + 3, 26)]) for x in (37, 63)],
        _rect(40, 10, 60, 26), ("poly", [(40, 10), (50, 2), (60, 10)]),
        ("hole_ellipse", (44, 32, 56, 44)), *_arch(46, 54, 48, 62), *_arch(44, 56, 80, 100),
        *[s for x in (14, 26, 68, 80) for s in _arch(x, x + 6, 72, 84)],
    ),
    # --- Brussels ---------------------------------------------------------------------------
    "5H": (  # Cinquantenaire: the triumphal arcade and its quadriga
        _rect(14, 44, 86, 100), _rect(10, 36, 90, 44),
        *_arch(38, 62, 56, 100), *_arch(20, 32, 66, 100), *_arch(68, 80, 66, 100),
        _rect(32, 28, 68, 36),
        *[("poly", [(x, 30), (x + 2, 18), (x + 6, 14), (x + 9, 18), (x + 7, 22), (x + 7, 30)])
          for x in (30, 40, 52, 62)],
        ("ellipse", (46, 6, 54, 14)), ("line", [(50, 14), (50, 28)], 4),
        _rect(0, 64, 14, 100), _rect(86, 64, 100, 100),
    ),
    "7S": (  # Laeken: the glass dome of the Royal Greenhouses, crowned
        ("ellipse", (10, 28, 90, 108)),
        *[("hole_line", [(50, 28), (x, 90)], 2.5) for x in (22, 36, 50, 64, 78)],
        ("hole_line", [(14, 58), (86, 58)], 2.5),
        _rect(4, 84, 96, 100), *[s for x in (12, 27, 46, 65, 80) for s in _arch(x, x + 7, 86, 100)],
        _rect(44, 18, 56, 30),
        ("poly", [(42, 18), (42, 6), (46, 12), (50, 2), (54, 12), (58, 6), (58, 18)]),
    ),
    "JS": (  # Brussels sprouts, three on a pile
        *[s for cx, cy, r in ((26, 62, 20), (74, 62, 20), (50, 74, 24))
          for s in (
              ("hole_ellipse", (cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3)),
              ("ellipse", (cx - r, cy - r, cx + r, cy + r)),
              *[("hole_line", [(cx, cy + r), (cx + k * r * 0.5, cy + r * 0.4), (cx + k * r * 0.62, cy - r * 0.2),
                               (cx + k * r * 0.4, cy - r * 0.8)], 2.5) for k in (-1, 1)],
              ("hole_line", [(cx, cy + r), (cx, cy - r * 0.3)], 2.5),
          )],
    ),
    "JH": (  # A Brussels waffle: rectangular, deep squares, dusted with sugar
        ("poly", [(6, 34), (88, 20), (96, 72), (14, 86)]),
        *[("hole_poly", [(x + 15 * i + 1.6 * j, y - 2.5 * i + 12.5 * j)
                         for x, y in ((10, 33), (20, 31.3), (21.4, 39.8), (11.4, 41.5))])
          for i in range(5) for j in range(4)],
    ),
    "QS": (  # The Atomium: nine spheres of an iron crystal and their tubes
        *[("line", [(50, 48), p], 4) for p in _ATOMS[:6]],
        ("line", [*_ATOMS[:6], _ATOMS[0]], 4),
        ("line", [(42, 90), (30, 100)], 4), ("line", [(58, 90), (70, 100)], 4), ("line", [(50, 90), (50, 100)], 4),
        *[("ellipse", (x - 9, y - 9, x + 9, y + 9)) for x, y in _ATOMS],
        *[("hole_ellipse", (x - 5, y - 5, x - 1, y - 1)) for x, y in _ATOMS],
    ),
    "QD": (  # Grand-Place: the Gothic town hall and its spire
        _rect(4, 50, 96, 100), ("poly", [(4, 50), (10, 40), (90, 40), (96, 50)]),
        _rect(38, 22, 52, 50), _rect(40, 12, 50, 22), ("poly", [(40, 12), (45, 0), (50, 12)]),
        *[("poly", [(x - 2, 40), (x, 32), (x + 2, 40)]) for x in (10, 20, 30, 60, 70, 80, 90)],
        *[s for x in (8, 20, 32, 56, 68, 80) for s in _arch(x, x + 7, 84, 100)],
        *[s for x in (9, 21, 33, 57, 69, 81) for s in _arch(x, x + 5, 58, 70)],
        *_arch(41, 49, 28, 40),
    ),
    "JK1": (  # Manneken-Pis dressed in one of his thousand costumes: hat and cape
        *_MANNEKEN,
        ("poly", [(38, 28), (50, 16), (62, 28), (58, 30), (42, 30)]), ("ellipse", (46, 12, 54, 20)),
        ("poly", [(41, 40), (30, 66), (40, 64), (44, 48)]),
    ),
    "JK2": (  # Manneken-Pis in his stone niche on the street corner
        _rect(14, 14, 86, 100), *_arch(24, 76, 20, 100), ("poly", [(10, 16), (50, 0), (90, 16)]),
        *_MANNEKEN,
    ),
    # --- No region: the national specialities ----------------------------------------------
    "JD": (  # Cuberdons, Ghent's purple "noses"
        *[s for cx, base, w in ((22, 96, 30), (78, 96, 30), (50, 98, 40))
          for s in (
              ("hole_poly", [(cx - w / 2 - 3, base + 3), (cx - w / 2 - 3, base - w * 0.5),
                             (cx - 4, base - w * 1.3 - 3), (cx + 4, base - w * 1.3 - 3),
                             (cx + w / 2 + 3, base - w * 0.5), (cx + w / 2 + 3, base + 3)]),
              ("ellipse", (cx - w / 2, base - w * 0.45, cx + w / 2, base)),
              ("poly", [(cx - w / 2, base - w * 0.25), (cx - w * 0.12, base - w * 1.2), (cx + w * 0.12, base - w * 1.2),
                        (cx + w / 2, base - w * 0.25)]),
              ("ellipse", (cx - w * 0.14, base - w * 1.3, cx + w * 0.14, base - w * 1.05)),
              ("hole_line", [(cx - w * 0.12, base - w * 0.95), (cx - w * 0.26, base - w * 0.4)], 3),
          )],
    ),
    "JC": (  # Fries in their paper cone
        *[("hole_line", [(x, 54), (x + d, 12 + abs(d))], 9) for x, d in ((34, -10), (44, -4), (54, 2), (64, 8))],
        *[("line", [(x, 54), (x + d, 12 + abs(d))], 5) for x, d in ((34, -10), (44, -4), (54, 2), (64, 8))],
        ("line", [(49, 54), (49, 20)], 5), ("line", [(59, 54), (62, 22)], 5),
        ("hole_poly", [(22, 44), (78, 44), (50, 100)]),
        ("poly", [(26, 48), (74, 48), (50, 98)]),
        ("hole_line", [(32, 58), (68, 58)], 2.5),
    ),
}
# fmt: on


def _gable(x0: float, top: float) -> list[Shape]:
    """A Flemish stepped gable 22 units wide with its door."""
    steps = [(x0 + k * 3, top + (3 - k) * 3) for k in range(4)]
    left = [p for x, y in steps for p in ((x, y + 3), (x, y))]
    right = [(2 * x0 + 22 - x, y) for x, y in reversed(left)]
    return [("poly", [(x0, 100), *left, *right, (x0 + 22, 100)]), _rect(x0 + 8, 86, x0 + 14, 100, "hole_poly")]


#: For a card with no drawing of its own: a row of four stepped gables, the Flemish town front.
_GABLES: tuple[Shape, ...] = tuple(s for i, top in enumerate((45, 30, 50, 38)) for s in _gable(2 + i * 24, top))


def landmark(card_id: str) -> tuple[Shape, ...]:
    """The drawing of the place on card ``card_id``; stepped gables for a card with none."""
    return LANDMARKS.get(card_id) or _GABLES


def landmark_mask(card_id: str, size: tuple[int, int]) -> Image.Image:
    """The landmark as an antialiased ``L`` mask of ``size`` (255 = ink), square and centred."""
    return shapes_mask(landmark(card_id), size)
