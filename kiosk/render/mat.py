"""The printable table mat: four ArUco markers exactly where :mod:`kiosk.mat` says, and a game's
zones outlined and labelled, so the camera can map the table and the referee can name zones.

Labels are bilingual (French · Dutch) because a printed mat cannot follow the screen's
language; seat labels face the player sitting there.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from kiosk import mat
from kiosk.referee.zones import Layout, Zone
from kiosk.render.text import draw_fitted, fit_mask

DEFAULT_DPI = 150
INK = (236, 232, 210)  # zone outlines and labels, light on the green field
_LABELS = {
    "centre": "Centre · Midden",
    "draw": "Pioche · Trekstapel",
    "discard": "Défausse · Aflegstapel",
    "trick": "Pli · Slag",
    "stock": "Talon · Stapel",
    "waste": "Retournées · Omgedraaid",
}


#: Numbered zones (``seat0``, ``col3`` ...): prefix -> label with ``{n}`` counted from 1.
_NUMBERED = {
    "seat": "Joueur {n} · Speler {n}",
    "col": "Colonne {n} · Kolom {n}",
    "found": "Pile {n} · Stapel {n}",
    "piles": "Piles {n} · Stapels {n}",
}


def zone_label(name: str) -> str:
    """The printed label of a zone in FR and NL: numbered zones count from 1, piles are named."""
    prefix = name.rstrip("0123456789")
    if prefix in _NUMBERED and prefix != name:
        return _NUMBERED[prefix].format(n=int(name[len(prefix) :]) + 1)
    return _LABELS.get(name, name.replace("_", " ").replace("-", " ").capitalize())


def paper_pixels(paper: str, dpi: int) -> tuple[int, int]:
    if paper not in mat.PAPER_MM:
        raise ValueError(f"unknown paper {paper!r}; expected one of {sorted(mat.PAPER_MM)}")
    w_mm, h_mm = mat.PAPER_MM[paper]
    return round(w_mm / 25.4 * dpi), round(h_mm / 25.4 * dpi)


def _marker(marker_id: int, side: int) -> Image.Image:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, mat.ARUCO_DICT))
    return Image.fromarray(cv2.aruco.generateImageMarker(dictionary, marker_id, side)).convert("RGB")


def _label(img: Image.Image, text: str, rect: tuple[int, int, int, int], turn: int) -> None:
    """Draw ``text`` centred near the outer edge of ``rect``, turned by ``turn`` degrees."""
    x0, y0, x1, y1 = rect
    along = (x1 - x0) if turn in (0, 180) else (y1 - y0)
    height = max(8, round(min(x1 - x0, y1 - y0) * 0.12))
    mask = fit_mask(text, "DejaVuSans-Bold", (round(along * 0.85), height), squeeze=0.8).rotate(turn, expand=True)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    offset = {0: (0, 1), 180: (0, -1), 90: (1, 0), 270: (-1, 0)}[turn]
    px = cx + offset[0] * ((x1 - x0) // 2 - mask.width) - mask.width // 2
    py = cy + offset[1] * ((y1 - y0) // 2 - mask.height) - mask.height // 2
    img.paste(INK, (px, py, px + mask.width, py + mask.height), mask)


def _seat_turn(rect: tuple[float, float, float, float]) -> int:
    """Which way a zone's label faces: towards the nearest mat edge, where its player sits."""
    cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    dx, dy = cx - 0.5, (cy - 0.5) * mat.ASPECT
    if abs(dy) >= abs(dx):
        return 0 if dy >= 0 else 180
    return 90 if dx > 0 else 270


def label_turn(zone: Zone) -> int:
    """Which way ``zone``'s printed label is turned (degrees): a seat's faces its player, the
    others read from the kiosk's side; the label lies along the zone's edge that way."""
    return _seat_turn(zone.rect) if zone.name.startswith("seat") else 0


def footer_box(w: int, h: int, layout: Layout | None) -> tuple[int, int, int, int]:
    """Where the mat's small print goes: the widest stretch no zone crosses of the bottom strip
    (between the bottom markers' white squares), else of the first free row found from the
    middle outwards; at most 40 % of the width."""
    band = 0.02
    zones = [z.rect for z in (layout.zones if layout else ())]
    left = mat.marker_corners(mat.MARKER_IDS[3])[1][0] + MARKER_QUIET / mat.ASPECT
    right = mat.marker_corners(mat.MARKER_IDS[2])[0][0] - MARKER_QUIET / mat.ASPECT
    rows = [(0.965, left, right)] + [
        (0.49 + k * sign * band, 0.02, 0.98) for k in range(24) for sign in ((1, -1) if k else (1,))
    ]
    for y0, lo, hi in rows:
        a, b = _widest_gap(lo, hi, [(r[0], r[2]) for r in zones if r[1] < y0 + band and r[3] > y0])
        if b - a >= 0.2:
            break
    a, b = a + 0.01, b - 0.01
    centre, half = (a + b) / 2, min(b - a, 0.4) / 2
    return round((centre - half) * w), round(y0 * h), round((centre + half) * w), round((y0 + band) * h)


def _widest_gap(lo: float, hi: float, taken: list[tuple[float, float]]) -> tuple[float, float]:
    """The widest stretch of [lo, hi] outside every interval of ``taken``."""
    gaps, x = [], lo
    for a, b in sorted(taken):
        gaps.append((x, min(a, hi)))
        x = max(x, b)
    gaps.append((x, hi))
    return max(gaps, key=lambda g: g[1] - g[0])


#: The white quiet zone around each marker, as a fraction of the mat's height (half a marker side).
MARKER_QUIET = mat.MARKER_SIDE / 2

FIELD = (46, 110, 78)  # printed felt green; ink on it is drawn in light colours


def render_mat(paper: str = "A3", layout: Layout | None = None, dpi: int = DEFAULT_DPI) -> Image.Image:
    """The mat as an RGB image of ``paper`` (landscape) at ``dpi``."""
    w, h = paper_pixels(paper, dpi)
    # A felt-green playing field: white-bordered cards stand out on it as on a card table.
    img = Image.new("RGB", (w, h), FIELD)
    draw = ImageDraw.Draw(img)
    for marker_id in mat.MARKER_IDS:
        corners = np.array(mat.marker_corners(marker_id)) * [w, h]
        x0, y0 = np.round(corners[0]).astype(int)
        x1, y1 = np.round(corners[2]).astype(int)
        quiet = round(MARKER_QUIET * h)  # ArUco needs a white quiet zone around each marker
        draw.rectangle([x0 - quiet, y0 - quiet, x1 + quiet, y1 + quiet], fill=(255, 255, 255))
        img.paste(_marker(marker_id, min(x1 - x0, y1 - y0)), (int(x0), int(y0)))
    if layout is not None:
        line = max(2, dpi // 50)
        for zone in layout.zones:
            rect = (
                round(zone.rect[0] * w),
                round(zone.rect[1] * h),
                round(zone.rect[2] * w),
                round(zone.rect[3] * h),
            )
            draw.rounded_rectangle(rect, radius=dpi // 6, outline=INK, width=line)
            _label(img, zone_label(zone.name), rect, label_turn(zone))
    footer = footer_box(w, h, layout)
    draw_fitted(
        img,
        f"Kiosk · {paper} · ArUco {mat.ARUCO_DICT} 0-3",
        footer,
        "DejaVuSans-Bold",
        (150, 150, 150),
    )
    return img


def save_mat_pdf(path: Path | str, paper: str = "A3", layout: Layout | None = None, dpi: int = DEFAULT_DPI) -> None:
    """Write the mat as a one-page PDF at its true paper size (print at 100 %, no scaling)."""
    render_mat(paper, layout, dpi).save(str(path), "PDF", resolution=float(dpi))
