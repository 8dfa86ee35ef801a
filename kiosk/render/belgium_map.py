"""A coarse map of Belgium: its ten provinces and the Brussels region as simplified outlines.

The outlines are drawn for the kiosk (no map data is downloaded): each is a polygon through
named border points in degrees of longitude and latitude, so neighbouring provinces share their
borders exactly. They follow the real borders to within a few kilometres, enough for a visitor
to find a province on the passport's map, not for navigation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from PIL import Image, ImageDraw

Box = tuple[float, float, float, float]

# fmt: off
#: Border points (longitude, latitude): the outer border clockwise from the French border at
#: the coast, then the points where provinces meet inside the country.
_POINTS: dict[str, tuple[float, float]] = {
    "de-panne": (2.54, 51.09), "knokke": (3.37, 51.37), "eeklo-n": (3.50, 51.25),
    "assenede": (3.85, 51.21), "zelzate": (4.05, 51.25), "doel": (4.24, 51.36),
    "ossendrecht": (4.42, 51.46), "essen": (4.65, 51.43), "baarle": (4.85, 51.48),
    "poppel": (5.10, 51.43), "lommel-n": (5.23, 51.31), "hamont": (5.50, 51.29),
    "kessenich": (5.84, 51.16), "maaseik": (5.75, 50.95), "lanaken": (5.69, 50.76),
    "gemmenich": (6.02, 50.75), "eupen-e": (6.27, 50.62), "bullange": (6.40, 50.33),
    "ouren": (6.13, 50.13), "weiswampach": (5.97, 50.02), "martelange": (5.75, 49.87),
    "arlon-e": (5.88, 49.70), "athus": (5.82, 49.55), "torgny": (5.47, 49.50),
    "florenville": (5.20, 49.70), "bouillon-s": (4.90, 49.80), "gedinne-s": (4.80, 49.95),
    "givet": (4.87, 50.15), "couvin-s": (4.68, 49.99), "chimay-e": (4.40, 49.98),
    "chimay-s": (4.20, 49.96), "momignies": (4.13, 50.15), "erquelinnes": (4.18, 50.27),
    "quievrain": (3.72, 50.33), "peruwelz": (3.62, 50.47), "tournai-s": (3.28, 50.52),
    "mouscron": (3.10, 50.78), "comines": (2.90, 50.70), "poperinge-w": (2.62, 50.82),
    # inside: where provinces meet
    "maldegem": (3.42, 51.03), "waregem": (3.50, 50.85), "ronse": (3.44, 50.76),
    "temse": (4.27, 51.20), "puurs": (4.18, 51.04), "geraardsbergen": (3.98, 50.72),
    "mechelen-s": (4.50, 50.99), "aarschot-n": (4.85, 51.02), "diest": (5.05, 51.04),
    "geel-e": (5.15, 51.15), "halen": (5.10, 50.90), "landen": (5.12, 50.74),
    "hannut": (5.00, 50.72), "eghezee": (4.98, 50.62), "tongeren-s": (5.45, 50.72),
    "tubize": (4.12, 50.70), "overijse": (4.60, 50.75), "seneffe": (4.30, 50.57),
    "fleurus": (4.55, 50.52), "gembloux": (4.80, 50.60), "chatelet": (4.58, 50.40),
    "walcourt": (4.40, 50.28), "couvin": (4.40, 50.10), "andenne-e": (5.15, 50.52),
    "durbuy-w": (5.35, 50.33), "marche-s": (5.25, 50.20), "wellin": (5.12, 50.05),
    "gedinne": (4.98, 49.90), "stavelot-s": (5.65, 50.37), "vielsalm": (5.85, 50.33),
    "gouvy": (6.02, 50.25),
}

#: Each province's outline, west to east within each region, as the deck names them.
PROVINCES: dict[str, tuple[str, ...]] = {
    "west-flanders": ("de-panne", "knokke", "eeklo-n", "maldegem", "waregem", "ronse", "mouscron",
                      "comines", "poperinge-w"),
    "east-flanders": ("eeklo-n", "assenede", "zelzate", "doel", "temse", "puurs", "geraardsbergen",
                      "ronse", "waregem", "maldegem"),
    "antwerp": ("doel", "ossendrecht", "essen", "baarle", "poppel", "lommel-n", "geel-e", "diest",
                "aarschot-n", "mechelen-s", "puurs", "temse"),
    "flemish-brabant": ("puurs", "mechelen-s", "aarschot-n", "diest", "halen", "landen", "hannut",
                        "overijse", "tubize", "geraardsbergen"),
    "limburg": ("lommel-n", "hamont", "kessenich", "maaseik", "lanaken", "tongeren-s", "landen",
                "halen", "diest", "geel-e"),
    "hainaut": ("mouscron", "ronse", "geraardsbergen", "tubize", "seneffe", "fleurus", "chatelet",
                "walcourt", "couvin", "chimay-e", "chimay-s", "momignies", "erquelinnes", "quievrain",
                "peruwelz", "tournai-s"),
    "walloon-brabant": ("tubize", "overijse", "hannut", "eghezee", "gembloux", "fleurus", "seneffe"),
    "namur": ("fleurus", "gembloux", "eghezee", "andenne-e", "durbuy-w", "marche-s", "wellin",
              "gedinne", "bouillon-s", "gedinne-s", "givet", "couvin-s", "chimay-e", "couvin",
              "walcourt", "chatelet"),
    "liege": ("hannut", "landen", "tongeren-s", "lanaken", "gemmenich", "eupen-e", "bullange",
              "ouren", "gouvy", "vielsalm", "stavelot-s", "durbuy-w", "andenne-e", "eghezee"),
    "luxembourg": ("durbuy-w", "stavelot-s", "vielsalm", "gouvy", "ouren", "weiswampach",
                   "martelange", "arlon-e", "athus", "torgny", "florenville", "bouillon-s",
                   "gedinne", "wellin", "marche-s"),
}
#: The Brussels-Capital Region, an island in Flemish Brabant.
_BRUSSELS: tuple[tuple[float, float], ...] = (
    (4.25, 50.83), (4.29, 50.89), (4.40, 50.92), (4.48, 50.87), (4.45, 50.80), (4.38, 50.77),
    (4.30, 50.78),
)
# fmt: on

#: Provinces of each region, in the order a visitor reads the map (west to east).
REGION_PROVINCES: dict[str, tuple[str, ...]] = {
    "flanders": ("west-flanders", "east-flanders", "antwerp", "flemish-brabant", "limburg"),
    "wallonia": ("hainaut", "walloon-brabant", "namur", "liege", "luxembourg"),
    "brussels": ("brussels",),
}
_LON0, _LON1, _LAT0, _LAT1 = 2.50, 6.44, 51.52, 49.46  # the map's west, east, north, south edges
_ASPECT = math.cos(math.radians(50.5))  # a degree of longitude is this many degrees of latitude


def outline(province: str) -> list[tuple[float, float]]:
    """The outline of ``province`` (a deck province id) as (longitude, latitude) points."""
    if province == "brussels":
        return list(_BRUSSELS)
    try:
        return [_POINTS[name] for name in PROVINCES[province]]
    except KeyError:
        known = ", ".join([*PROVINCES, "brussels"])
        raise ValueError(f"unknown province {province!r}; provinces: {known}") from None


def map_size(width: float) -> tuple[float, float]:
    """Width and height of the map drawn ``width`` wide (any unit)."""
    return width, width * (_LAT0 - _LAT1) / ((_LON1 - _LON0) * _ASPECT)


def project(lon: float, lat: float, box: Box) -> tuple[float, float]:
    """Where (lon, lat) falls on a map drawn in ``box`` (x0, y0, x1, y1, y down)."""
    x0, y0, x1, _ = box
    scale = (x1 - x0) / ((_LON1 - _LON0) * _ASPECT)  # box units per degree of latitude
    return x0 + (lon - _LON0) * _ASPECT * scale, y0 + (_LAT0 - lat) * scale


def centre(province: str) -> tuple[float, float]:
    """A point well inside ``province`` (its outline's area centroid), in (lon, lat)."""
    pts = outline(province)
    area = cx = cy = 0.0
    for (xa, ya), (xb, yb) in zip(pts, pts[1:] + pts[:1], strict=True):
        cross = xa * yb - xb * ya
        area += cross
        cx += (xa + xb) * cross
        cy += (ya + yb) * cross
    return cx / (3 * area), cy / (3 * area)


def draw_map(
    img: Image.Image,
    box: Box,
    fills: Mapping[str, tuple[int, int, int]],
    line: tuple[int, int, int] = (0, 0, 0),
    width: int = 2,
) -> None:
    """Draw every province (and Brussels) into ``box`` of ``img``, filled with ``fills[province]``
    (white where missing) and outlined; ``box``'s height should follow :func:`map_size`."""
    draw = ImageDraw.Draw(img)
    for province in [*PROVINCES, "brussels"]:
        pts = [project(lon, lat, box) for lon, lat in outline(province)]
        draw.polygon(pts, fill=fills.get(province, (255, 255, 255)), outline=line, width=width)
