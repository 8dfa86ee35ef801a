"""Sub-pixel outlines: lines fitted to a contour's sides and to the profiles across a quad's
sides on the full-resolution frame, crossed at the corners."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from kiosk.vision.geometry import NEXT, order_corners

#: Where along its middle third :func:`refine_quads` looks for a side's edge.
_ALONG = np.linspace(0.35, 0.65, 12, dtype=np.float32)


def refine_quads(
    gray: np.ndarray, quads: Sequence[np.ndarray], reaches: Sequence[float] | None = None
) -> list[np.ndarray]:
    """Sub-pixel corners of each of ``quads`` from the full-resolution image, each side moved
    by up to its ``reaches`` entry (pixels; by default 9 % of the quad's mean side, 3 at least).

    Along the normal of each side, at a dozen points of its middle third (clear of the rounded
    corners and the indices), the outline is where the profile first rises, coming from
    outside, through half-way between the darkest value outside and the paper white. Taking
    the first such crossing skips pips and printed frame lines further in, and a shadow outside
    only deepens the dip before it. On a table brighter than the card the first dip is taken
    instead. The points are refitted as lines and intersected. A side without a consistent
    crossing (covered by another card) keeps its place. Each quad is refined on its own; their
    profiles are sampled and searched together (one quad at a time cost a glance frame 2-3 ms
    of numpy calls on a dozen samples each).
    """
    if not len(quads):
        return []
    q = np.stack([order_corners(quad) for quad in quads])  # clockwise: the normals point inwards
    vec = q[:, NEXT] - q
    length = np.linalg.norm(vec, axis=2, keepdims=True)
    rs = (
        np.array(reaches, np.float64)
        if reaches is not None
        else np.maximum(3.0, 0.09 * length[..., 0].mean(axis=1).astype(np.float64))
    )
    d = vec / np.maximum(length, 1e-6)
    nrm = np.stack([-d[..., 1], d[..., 0]], axis=-1)  # (N, 4, 2), pointing inwards
    padded = _profile_steps(rs)  # (N, S)
    width = padded.shape[1]
    base = q[:, :, None, :] + _ALONG[None, None, :, None] * vec[:, :, None, :]  # (N, 4, 12, 2)
    # the sample points (N, 4, 12, S), x and y apart: what remap takes
    xs, ys = (base[:, :, :, None, k] + padded[:, None, None, :] * nrm[:, :, None, None, k] for k in (0, 1))
    prof = cv2.remap(
        gray, xs.reshape(-1, width), ys.reshape(-1, width), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    row_steps = np.repeat(padded, 48, axis=0)
    outside, top, low = prof[:, 0], prof.max(axis=1), prof.min(axis=1)
    rise, rising = _first_crossing(prof, (outside + top) / 2, row_steps)
    rising &= top - outside > 12
    # on a table brighter than the card, the outline is where the profile first dips (the
    # card's edge and shadow draw a darker line round it)
    dip, dipping = _first_crossing(-prof, -(outside + low) / 2, row_steps)
    dipping &= outside - low > 12
    off = np.where(rising, rise, dip).reshape(-1, 4, 12)
    ok = (rising | dipping).reshape(-1, 4, 12)
    moved = base + off[..., None] * nrm[:, :, None, :]
    # a side's edge is consistent where 6 of its points or more found it within r of each other
    r = np.array(rs, np.float32)
    spread = np.where(ok, off, -np.inf).max(axis=2) - np.where(ok, off, np.inf).min(axis=2)
    found = (ok.sum(axis=2) >= 6) & (spread <= r[:, None])
    lines = np.full((*found.shape, 4), np.nan)
    lines[found] = fit_lines(moved[found], ok[found])
    # each corner where the lines of its two sides meet, where both sides found their edge
    # and it moves no more than 2 r
    corners, crossing = line_corners(lines)
    corners = corners.astype(np.float32)
    move = np.hypot(*np.moveaxis(corners - q, -1, 0))
    take = found & np.roll(found, 1, axis=1) & crossing & (move <= 2 * r[:, None])
    return list(np.where(take[..., None], corners, q))


def _profile_steps(reaches: np.ndarray) -> np.ndarray:
    """Per reach r of ``reaches``, ``np.linspace(-r, r, int(4 * r) + 1)`` as float32, each row
    padded to the longest by repeating its last value (a flat tail adds no crossing and moves
    no extreme): the same numbers, in one pass instead of a linspace and a pad per quad."""
    n = (4 * reaches).astype(np.int64) + 1
    j = np.arange(int(n.max()))[None, :]
    steps = j * (2 * reaches / (n - 1))[:, None] + -reaches[:, None]  # as linspace: i * step + start
    return np.where(j >= (n - 1)[:, None], reaches[:, None], steps).astype(np.float32)


def _first_crossing(prof: np.ndarray, level: np.ndarray, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per profile row, the sub-sample position (along its row of ``steps``) where it first
    rises through ``level``, and whether it does (negate both to find the first fall)."""
    lv = level[:, None]
    cross = (prof[:, :-1] < lv) & (prof[:, 1:] >= lv)
    first = cross.argmax(axis=1)
    rows = np.arange(len(prof))
    a, b = prof[rows, first], prof[rows, first + 1]
    frac = np.clip((level - a) / np.where(np.abs(b - a) > 1e-6, b - a, 1e-6), 0, 1)
    return steps[rows, first] + frac * (steps[:, 1] - steps[:, 0]), np.asarray(cross.any(axis=1))


def fit_sides(points: np.ndarray, approx: np.ndarray) -> np.ndarray | None:
    """Corners as intersections of lines fitted to the middle of each side of the contour."""
    approx = approx.astype(np.float32)
    # index of the contour point nearest to each approximate corner
    idx = sorted(int(i) for i in ((points[:, None, :] - approx[None]) ** 2).sum(axis=2).argmin(axis=0))
    approx = points[idx]
    cores = []
    for k in range(4):
        a, b = idx[k], idx[(k + 1) % 4]
        seg = points[a : b + 1] if a <= b else np.concatenate([points[a:], points[: b + 1]])
        m = len(seg)
        core = seg[m // 6 : m - m // 6] if m >= 12 else seg
        if len(core) < 2:
            return None
        cores.append(core)
    # the four sides fitted in one call, each padded to the longest and masked
    longest = max(len(core) for core in cores)
    padded = np.zeros((4, longest, 2))
    use = np.zeros((4, longest), bool)
    for k, core in enumerate(cores):
        padded[k, : len(core)], use[k, : len(core)] = core, True
    corners, crossing = line_corners(fit_lines(padded, use))
    if not crossing.all():
        return None
    result = corners.astype(np.float32)
    # a line fit must not move a corner far from where the polygon put it
    tol = 0.15 * np.sqrt(max(cv2.contourArea(approx), 1.0))
    if np.abs(result - approx).max() > tol:
        return None
    return result


def fit_lines(points: np.ndarray, use: np.ndarray, keep: float = 1.5) -> np.ndarray:
    """Per row of ``points`` (M, K, 2), (vx, vy, x0, y0) of the total-least-squares line
    through the points ``use`` (M, K) marks, refitted once without those farther than ``keep``
    pixels (an index or a dent in the outline) unless that leaves fewer than two; each row
    needs two points or more. The rows are fitted together: a frame's sides in one go (one at
    a time, their numpy calls cost a glance frame half a millisecond)."""
    pts = points.astype(np.float64)
    lines, across = _least_squares(pts, use)
    far = (np.abs(across) > keep) & use
    dropped = far.sum(axis=1)
    again = (dropped > 0) & (dropped <= use.sum(axis=1) - 2)
    if again.any():
        lines = np.where(again[:, None], _least_squares(pts, use & ~(far & again[:, None]))[0], lines)
    return lines


def _least_squares(pts: np.ndarray, use: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fit_lines`' one pass: the lines (M, 4) and each point's distance across its
    row's line (M, K; 0 for the points not used)."""
    weight = use.astype(np.float64)
    n = weight.sum(axis=1)
    cx, cy = (pts[..., 0] * weight).sum(axis=1) / n, (pts[..., 1] * weight).sum(axis=1) / n
    dx, dy = (pts[..., 0] - cx[:, None]) * weight, (pts[..., 1] - cy[:, None]) * weight
    theta = 0.5 * np.arctan2(2 * (dx * dy).sum(axis=1), (dx * dx - dy * dy).sum(axis=1))
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([c, s, cx, cy], axis=1), dx * s[:, None] - dy * c[:, None]


def line_corners(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each line of ``lines`` (..., 4, 4: vx, vy, x0, y0 of a quad's sides in order)
    meets the one before it, the quad's corners (..., 4, 2), and whether they cross there
    (parallel lines do not)."""
    vx1, vy1, x1, y1 = np.moveaxis(np.roll(lines, 1, axis=-2), -1, 0)
    vx2, vy2, x2, y2 = np.moveaxis(lines, -1, 0)
    det = vx1 * (-vy2) - vy1 * (-vx2)
    crossing = np.abs(det) >= 1e-6
    t = ((x2 - x1) * (-vy2) - (y2 - y1) * (-vx2)) / np.where(crossing, det, 1.0)
    return np.stack([x1 + t * vx1, y1 + t * vy1], axis=-1), crossing
