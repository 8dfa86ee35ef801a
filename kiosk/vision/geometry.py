"""Quad geometry shared by the stages: corner order, areas, overlaps, and where a quad's points
fall on a mask or an edge map. Quads are (4, 2) or (N, 4, 2) float arrays of corners in order."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from kiosk.vision.face import cards_sides
from kiosk.vision.params import PARAMS

CARD_ASPECT = 88 / 63  # long side / short side of a standard (poker-size) card
NEXT = np.array([1, 2, 3, 0])  # each corner's next one, in order round the quad


def shrunk_to(bgr: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """``bgr`` scaled to ``side`` pixels on its long side (never enlarged), and that scale."""
    h, w = bgr.shape[:2]
    scale = min(1.0, side / max(h, w))
    small = bgr if scale == 1.0 else cv2.resize(bgr, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return small, scale


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Four points -> TL, TR, BR, BL of a portrait card: clockwise, first side a short side,
    starting at the upper of the two possible corners (the identifier reads both indices)."""
    p = np.asarray(pts, dtype=np.float32).reshape(4, 2).tolist()  # (7 us a call; a loop over rows, 12)
    cx, cy = sum(x for x, _ in p) / 4, sum(y for _, y in p) / 4
    p.sort(key=lambda q: math.atan2(q[1] - cy, q[0] - cx))  # clockwise on screen (y down)
    side = [math.dist(p[k], p[(k + 1) % 4]) for k in range(4)]
    first = 0 if side[0] + side[2] <= side[1] + side[3] else 1
    a, b = p[first], p[first + 2]
    start = first if (a[1], a[0]) <= (b[1], b[0]) else first + 2
    return np.array(p[start:] + p[:start], dtype=np.float32)


def quad_aspect(quad: np.ndarray) -> float:
    """Mean long side over mean short side of an ordered quad."""
    side = np.linalg.norm(quad - quad[NEXT], axis=1)
    short, long_ = (side[0] + side[2]) / 2, (side[1] + side[3]) / 2
    return float(long_ / max(short, 1e-6))


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    return overlap(a, b)[0]


def shoelace(quads: np.ndarray) -> np.ndarray:
    """Signed areas of (N, 4, 2) quads."""
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * (x * y[:, NEXT] - x[:, NEXT] * y).sum(axis=1)


def convex(quads: np.ndarray) -> np.ndarray:
    """Whether each (N, 4, 2) quad turns the same way at every corner."""
    e = quads[:, NEXT] - quads
    cross = e[..., 0] * e[:, NEXT, 1] - e[..., 1] * e[:, NEXT, 0]
    return (cross > 0).all(axis=1) | (cross < 0).all(axis=1)


def card_size(quads: list[np.ndarray]) -> tuple[float, float] | None:
    """Median (short, long) side of the cards seen whole: cards on one table look alike."""
    if not quads:
        return None
    short, long_ = np.median(cards_sides(np.stack([order_corners(q) for q in quads])), axis=0)
    return float(short), float(long_)


def edge_support(edges: np.ndarray, quads: np.ndarray, n: int = 16) -> np.ndarray:
    """Per quad and side (N, 4), the share of its points (away from the corners) inside the
    frame that lie on an edge pixel; a side wholly off the frame has none."""
    h, w = edges.shape
    t = np.linspace(0.1, 0.9, n, dtype=np.float32)[None, None, :, None]
    pts = quads[:, :, None, :] + t * (quads[:, NEXT] - quads)[:, :, None, :]  # (N, 4, n, 2)
    inside = in_frame(pts, w, h)
    xs = np.clip(pts[..., 0].astype(np.int32), 0, w - 1)
    ys = np.clip(pts[..., 1].astype(np.int32), 0, h - 1)
    return ((edges[ys, xs] > 0) & inside).sum(axis=2) / np.maximum(inside.sum(axis=2), 1)


def on_frame_edge(quad: np.ndarray, shape: tuple[int, ...], tol: float = 1.5) -> bool:
    """Whether a side of ``quad`` runs along an edge of a frame of ``shape`` (both its ends
    within ``tol`` pixels of the same edge)."""
    h, w = shape[:2]
    pts = [(float(x), float(y)) for x, y in quad]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
        if max(x0, x1) <= tol or max(y0, y1) <= tol or min(x0, x1) >= w - 1 - tol or min(y0, y1) >= h - 1 - tol:
            return True
    return False


def in_frame(pts: np.ndarray, w: int, h: int) -> np.ndarray:
    return (pts[..., 0] >= 0) & (pts[..., 0] < w) & (pts[..., 1] >= 0) & (pts[..., 1] < h)


def rings(quads: np.ndarray, inset: float, n: int = 10) -> np.ndarray:
    """``4 * n`` points per (N, 4, 2) quad on the quad shrunk (inset > 0) or grown (inset < 0)
    about its centre: (N, 4 * n, 2)."""
    c = quads.mean(axis=1, keepdims=True)
    q = c + (quads - c) * (1 - inset)
    t = np.linspace(0.15, 0.85, n, dtype=np.float32)[None, None, :, None]
    return (q[:, :, None, :] + t * (q[:, NEXT] - q)[:, :, None, :]).reshape(len(quads), -1, 2)


_GRID = np.linspace(0.04, 0.96, 11, dtype=np.float32)
_GU, _GV = (g.ravel() for g in np.meshgrid(_GRID, _GRID))


def coverage(mask: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Per (N, 4, 2) quad, the share of an 11x11 grid of points inside it that lie on the
    foreground ``mask``, counting only the points inside the frame (a card may run off it) but
    0 for a quad that is mostly off the frame."""
    p0, p1, p2, p3 = (quads[:, k, None, :] for k in range(4))
    top = p0 + _GU[None, :, None] * (p1 - p0)
    bottom = p3 + _GU[None, :, None] * (p2 - p3)
    pts = top + _GV[None, :, None] * (bottom - top)  # (N, 121, 2)
    h, w = mask.shape
    inside = in_frame(pts, w, h)
    xs = np.clip(pts[..., 0].astype(np.int32), 0, w - 1)
    ys = np.clip(pts[..., 1].astype(np.int32), 0, h - 1)
    seen = inside.sum(axis=1)
    share = ((mask[ys, xs] > 0) & inside).sum(axis=1) / np.maximum(seen, 1)
    return np.where(seen >= PARAMS.complete.min_in_frame * inside.shape[1], share, 0.0)


def spill(quad: np.ndarray, points: np.ndarray) -> float:
    """How far (pixels) the farthest of ``points`` lies outside the convex ``quad``."""
    q = quad.astype(np.float64)
    edge = q[NEXT] - q
    rel = points.astype(np.float64)[:, None, :] - q[None]
    cross = (edge[None, :, 0] * rel[..., 1] - edge[None, :, 1] * rel[..., 0]) / np.linalg.norm(edge, axis=1)
    inward = np.sign(shoelace(q[None])[0])  # the sign of a point inside, by the quad's turn
    return float(max(0.0, (-inward * cross).max()))


def boxes_meet(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def overlap(a: np.ndarray, b: np.ndarray) -> tuple[float, bool, bool]:
    """IoU of two convex polygons (quads, mostly), whether ``a`` lies mostly (80%) within ``b``
    and whether ``b`` within ``a`` (a picture frame within its card): one intersection for the
    three."""
    pa, pb = a.reshape(-1, 2).tolist(), b.reshape(-1, 2).tolist()
    area_a, area_b = _twice_area(pa) / 2, _twice_area(pb) / 2
    if area_a < 0:
        pa, area_a = pa[::-1], -area_a
    if area_b < 0:
        pb, area_b = pb[::-1], -area_b
    inter = _clipped_twice_area(pa, pb) / 2
    iou = inter / max(area_a + area_b - inter, 1e-6) if inter > 0 else 0.0
    return iou, inter > 0.8 * area_a, inter > 0.8 * area_b


def _twice_area(p: Sequence[Sequence[float]]) -> float:
    """Twice the signed area of polygon ``p`` (positive turning clockwise on screen)."""
    if len(p) == 4:  # a quad's, by its diagonals
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = p
        return (x0 - x2) * (y1 - y3) - (x1 - x3) * (y0 - y2)
    s, (px, py) = 0.0, p[-1]
    for qx, qy in p:
        s += px * qy - qx * py
        px, py = qx, qy
    return s


def _clipped_twice_area(poly: Sequence[Sequence[float]], clip: Sequence[Sequence[float]]) -> float:
    """Twice the area of the intersection of clockwise convex polygons ``poly`` and ``clip``:
    ``poly`` cut by each side of ``clip`` in turn (Sutherland-Hodgman), in double precision.
    cv2.intersectConvexConvex misses much of the overlap of two quads whose sides nearly
    coincide (a card outlined twice a pixel apart), opencv/opencv#22812."""
    for k in range(len(clip)):
        (ex, ey), (fx, fy) = clip[k - 1], clip[k]
        dx, dy = fx - ex, fy - ey
        out: list[Sequence[float]] = []
        px, py = poly[-1]
        ps = dx * (py - ey) - dy * (px - ex)  # >= 0: on the inner side of this side
        for q in poly:
            qx, qy = q
            qs = dx * (qy - ey) - dy * (qx - ex)
            if qs >= 0:
                if ps < 0:
                    t = ps / (ps - qs)
                    out.append((px + t * (qx - px), py + t * (qy - py)))
                out.append(q)
            elif ps >= 0:
                t = ps / (ps - qs)
                out.append((px + t * (qx - px), py + t * (qy - py)))
            px, py, ps = qx, qy, qs
        if len(out) < 3:
            return 0.0
        poly = out
    return _twice_area(poly)
