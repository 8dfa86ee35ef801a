"""Card-shaped outlines fitted to the edges round a loose one.

An outline found from a card's visible parts can lie a few degrees or a tenth of a card off it:
on a striped cloth the card's sides vanish where they cross the white stripes, and the region
the outline model calls card runs on into them. Such an outline is often read by one corner
only (the other's crop misses its index). A card's shape is known, though: a rectangle of
:data:`~kiosk.vision.geometry.CARD_ASPECT`. :func:`card_shapes` searches rectangles of that
shape near the loose outline (``around``: turned up to 16 degrees, scaled and moved up to
a quarter of a card's width) for those whose four sides run along edges of the picture;
naming reads them and keeps one that both corners read as the same card
(:mod:`kiosk.vision.naming`), and searches again, ``closer``, round one that a single
corner read.

The search runs on the outline's surroundings scaled so that the card is a few dozen pixels
wide, for each angle on the edge pixels turned into the rectangle's axes, where sums along a
side are differences of running sums; the rectangles it returns are refined on the full
picture by :func:`~kiosk.vision.refine.refine_quads` when they are read. In a frame seen at a
tilt a card is a rectangle only in the table's view: the edge pixels are mapped there first."""

from __future__ import annotations

import math

import cv2
import numpy as np

from kiosk.vision.geometry import CARD_ASPECT, order_corners, polygon_iou
from kiosk.vision.params import PARAMS, Search


def card_shapes(
    gray: np.ndarray, quad: np.ndarray, search: Search | None = None, flattening: np.ndarray | None = None
) -> list[np.ndarray]:
    """Up to ``search.most`` card-shaped outlines (4, 2) float32 TL, TR, BR, BL near ``quad`` in the
    single-channel picture ``gray``, as far as ``search`` looks, best first: for each angle, the
    rectangle whose sides run along most edges, and the one that does with the least clutter
    just inside its sides; the two rankings taken in turn. The first favours the card where a
    table's lines run on past it, the second where the card's own picture frame or a
    neighbour's side is nearer. By default ``search`` is :attr:`CardFitParams.around
    <kiosk.vision.params.CardFitParams.around>`. In a frame seen at a tilt a card is no
    rectangle: ``flattening`` (2 x 2, :meth:`~kiosk.vision.tilt.Tilt.flattening` at the quad's
    centre) maps the picture round it to the table's view, where it is, and the shapes found
    there are mapped back."""
    search = PARAMS.card_fit.around if search is None else search
    flat = np.eye(2) if flattening is None else np.asarray(flattening, np.float64)
    q0 = order_corners(np.asarray(quad, np.float32))
    centre = q0.mean(axis=0)
    q = (centre + (q0 - centre) @ flat.T).astype(np.float32)
    sides = np.linalg.norm(q[[1, 2, 3, 0]] - q, axis=1)
    along = q[1] - q[0] + q[2] - q[3] if sides[0] + sides[2] >= sides[1] + sides[3] else q[2] - q[1] + q[3] - q[0]
    theta = math.atan2(float(along[1]), float(along[0]))  # the long axis
    d1, d2 = q[2] - q[0], q[3] - q[1]
    area = 0.5 * abs(float(d1[0] * d2[1] - d1[1] * d2[0]))
    width = math.sqrt(area / CARD_ASPECT)
    if width < 4:
        return []
    k = min(1.0, search.width / width)
    widths = np.arange(int(width * k * (1 - search.shrink)), int(math.ceil(width * k * (1 + search.grow))) + 1)
    shift = int(math.ceil(search.shift * width * k))
    reach = int(round(widths[-1] * CARD_ASPECT) / 2 + shift) + 3  # the search box's half side
    back = np.linalg.inv(flat)
    edges = _edge_pixels(gray, centre, reach / k * float(np.linalg.norm(back, 2)), k)
    if edges is None:
        return []
    points, direction = edges  # into the table's view: positions by the map, gradients by its inverse's transpose
    gradient = np.stack([np.cos(direction), np.sin(direction)], axis=1) @ back
    edges = points @ flat.T, np.arctan2(gradient[:, 1], gradient[:, 0])
    found: list[list[tuple[float, float, int, int, int]]] = [[], []]  # per ranking
    for turn in np.arange(-search.turn, search.turn + search.step / 2, search.step):
        angle = theta + math.radians(float(turn))
        for ranking, best in zip(found, _scores(edges, angle, widths, shift, reach), strict=True):
            ranking.append((best[0], angle, *best[1:]))
    ranked = [sorted(r, key=lambda t: -t[0]) for r in found]
    out: list[np.ndarray] = []
    for _, angle, w, a, b in (r[i] for i in range(len(ranked[0])) for r in ranked):
        shape = order_corners(
            (centre + (_rectangle(centre, angle, w, a, b, reach, k) - centre) @ back.T).astype(np.float32)
        )
        if not any(polygon_iou(shape, o) > search.same for o in out):
            out.append(shape)
            if len(out) == search.most:
                break
    return out


def _edge_pixels(gray: np.ndarray, centre: np.ndarray, half: float, k: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The edge pixels of ``gray`` within ``half`` of ``centre``, scaled by ``k``: (x, y)
    relative to the centre in scaled pixels, and their gradient direction; None where there
    are too few to fit anything."""
    h, w = gray.shape[:2]
    x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
    x1, y1 = min(w, int(centre[0] + half) + 1), min(h, int(centre[1] + half) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    roi = cv2.resize(gray[y0:y1, x0:x1], None, fx=k, fy=k, interpolation=cv2.INTER_AREA).astype(np.float32)
    gx, gy = cv2.Sobel(roi, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(roi, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    ys, xs = np.nonzero(mag > max(PARAMS.card_fit.min_edge, float(np.percentile(mag, 75))))
    if len(xs) < 20:
        return None
    return (
        np.stack([xs + (x0 - centre[0]) * k, ys + (y0 - centre[1]) * k], axis=1),
        np.arctan2(gy[ys, xs], gx[ys, xs]),
    )


def _scores(
    edges: tuple[np.ndarray, np.ndarray], angle: float, widths: np.ndarray, shift: int, reach: int
) -> list[tuple[float, int, int, int]]:
    """For rectangles whose long axis lies at ``angle``, of ``widths``, centred within ``shift``
    of the search box's middle: (score, width, left, top) of the best by each ranking, sides
    at ``left`` and ``top`` in the box's turned pixels (``reach`` is its half side).

    A side's support is the share of its middle (clear of the rounded corners) that edge
    pixels across it cover; the four shares add up (4 at most). The second ranking takes off
    ``rim_weight`` times the share of a rim just inside the sides (a twenty-fifth to an eighth of
    the width in, along their middles) that edge pixels of any direction cover: a card's
    margin is blank there, a table running on inside a rectangle is not."""
    points, direction = edges
    n = 2 * reach + 1
    v = np.array([math.cos(angle), math.sin(angle)])  # along the long sides
    u = np.array([-v[1], v[0]])  # across them
    pu = np.clip(np.round(points @ u).astype(int) + reach, 0, n - 1)
    pv = np.clip(np.round(points @ v).astype(int) + reach, 0, n - 1)
    across = np.abs(np.cos(direction - angle - math.pi / 2))  # 1: an edge of a long side
    long_sides, short_sides, anything = (np.zeros((n, n), np.uint8) for _ in range(3))
    long_sides[pu[across > 0.9], pv[across > 0.9]] = 1
    short_sides[pv[across < 0.44], pu[across < 0.44]] = 1
    anything[pu, pv] = 1
    run_long = _row_sums(cv2.dilate(long_sides, np.ones((3, 1), np.uint8)))
    run_short = _row_sums(cv2.dilate(short_sides, np.ones((3, 1), np.uint8)))
    total = cv2.integral(anything)
    d = np.arange(-shift, shift + 1)
    heights = np.round(widths * CARD_ASPECT).astype(int)
    w, h = widths[:, None, None], heights[:, None, None]
    a = (reach - widths // 2)[:, None, None] + d[None, :, None]  # (W, D, 1): the left side
    b = (reach - heights // 2)[:, None, None] + d[None, None, :]  # (W, 1, D): the top side
    v0, v1 = b + (0.1 * h).astype(int), b + (0.9 * h).astype(int)
    u0, u1 = a + (0.15 * w).astype(int), a + (0.85 * w).astype(int)
    support = (_at(run_long, a, v1) - _at(run_long, a, v0) + _at(run_long, a + w, v1) - _at(run_long, a + w, v0)) / (
        0.8 * h
    ) + (_at(run_short, b, u1) - _at(run_short, b, u0) + _at(run_short, b + h, u1) - _at(run_short, b + h, u0)) / (
        0.7 * w
    )
    r0 = np.maximum(1, np.round(0.04 * w).astype(int))
    r1 = r0 + np.maximum(1, np.round(0.08 * w).astype(int))
    m0, m1 = b + (0.3 * h).astype(int), b + (0.7 * h).astype(int)  # the middles of the long sides
    n0, n1 = a + (0.3 * w).astype(int), a + (0.7 * w).astype(int)  # and of the short ones

    def box(top: np.ndarray, bottom: np.ndarray, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        return _at(total, bottom, right) - _at(total, top, right) - _at(total, bottom, left) + _at(total, top, left)

    rim = (
        box(a + r0, a + r1, m0, m1)
        + box(a + w - r1, a + w - r0, m0, m1)
        + box(n0, n1, b + r0, b + r1)
        + box(n0, n1, b + h - r1, b + h - r0)
    ) / ((r1 - r0) * (m1 - m0 + n1 - n0))
    out = []
    for score in (support, support - PARAMS.card_fit.rim_weight * rim):
        i, j, m = np.unravel_index(int(score.argmax()), score.shape)
        out.append((float(score[i, j, m]), int(widths[i]), int(a[i, j, 0]), int(b[i, 0, m])))
    return out


def _at(table: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``table[rows, cols]`` for broadcasting index arrays, through the flat table: half the time
    of NumPy's two-array indexing on the few thousand rectangles a turn of :func:`_scores` rates."""
    return table.ravel()[rows * table.shape[1] + cols]


def _row_sums(img: np.ndarray) -> np.ndarray:
    """Running sums along each row: ``out[i, j]`` is the sum of ``img[i, :j]``."""
    return np.concatenate([np.zeros((img.shape[0], 1), np.int32), np.cumsum(img, axis=1, dtype=np.int32)], axis=1)


def _rectangle(centre: np.ndarray, angle: float, width: int, left: int, top: int, reach: int, k: float) -> np.ndarray:
    """The card-shaped rectangle of :func:`_scores`' turned box coordinates, in picture pixels."""
    v = np.array([math.cos(angle), math.sin(angle)])
    u = np.array([-v[1], v[0]])
    w, h = width, round(width * CARD_ASPECT)
    mid = centre + ((left - reach + w / 2) * u + (top - reach + h / 2) * v) / k
    return order_corners(
        np.array(
            [mid + (sx * w / 2 * u + sy * h / 2 * v) / k for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.float32
        )
    )
