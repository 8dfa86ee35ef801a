"""Cards found by their ink where their outline does not show: a white card on a white table
in light that clips both, whose edge is a step of a grey level or less.

What still shows is the print, and a card's print turns into itself by a half turn about the
card's centre (its two indices, its pips, a court card's picture). Pairs of ink blobs alike in
size vote for their midpoint; a point that many pairs agree on, about which most of the ink
around it has a partner, is a card's centre, and that ink's extent, turned to the angle at which
it is the smallest card-shaped box, is the card less its print-free margin. Two cards alike side
by side are symmetric about the point between them too, so the smallest clusters come first.
Only ink on a table as bright as paper is looked at: elsewhere the outline shows and the other
cues find the card; the table's level is the larger of its local mean and median, so that a
court card's dark picture does not pull it under the paper's.
"""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.vision.cues import paper_and_table
from kiosk.vision.face import darkest_channel
from kiosk.vision.params import PARAMS

_ANGLES = np.radians(np.arange(0, 90, 1.0, dtype=np.float32))


def symmetric_cards(small: np.ndarray) -> list[np.ndarray]:
    """Quads (analysis-copy pixels) of the cards whose print is point-symmetric on a white
    table, smallest first: a cluster of ink is offered even where a smaller one took part of
    it, for the reader to judge (a ten's half is symmetric too: the cluster of half its ink
    must not keep the whole card from being offered)."""
    blobs = _ink_blobs(small)
    if blobs is None:
        return []
    labels, centres, areas, sizes = blobs
    h, w = labels.shape
    i, j = np.triu_indices(len(centres), 1)
    dist = np.linalg.norm(centres[i] - centres[j], axis=1)
    alike = (
        (np.maximum(areas[i], areas[j]) <= 1.6 * np.minimum(areas[i], areas[j]))
        & (np.abs(sizes[i] - sizes[j]) <= 0.3 * np.maximum(sizes[i], sizes[j]) + 1)
        & (dist >= 8)
        & (dist <= 0.55 * min(h, w))
    )
    i, j = i[alike], j[alike]
    mids = (centres[i] + centres[j]) / 2
    found: list[tuple[float, np.ndarray]] = []
    seen: list[np.ndarray] = []  # the centres looked at: a plateau of votes gives several peaks
    for peak in _vote_peaks(mids, w, h):
        near = np.linalg.norm(mids - peak, axis=1) <= 1.5 * PARAMS.symmetry.cell
        if not near.any():
            continue
        paired = np.unique(np.concatenate([i[near], j[near]]))
        share, centre, reach, members = max(
            (_around(centres, mids[k], paired) for k in np.nonzero(near)[0]), key=lambda a: a[0]
        )
        if any(np.abs(centre - c).max() < 1.0 for c in seen):
            continue
        seen.append(centre)
        if len(members) < 4 or share < PARAMS.symmetry.symmetric_share:
            continue
        quad = _card_round(_pixels(labels, members + 1, centre, reach))
        if quad is not None:
            found.append((reach, quad))
    return [quad for _, quad in sorted(found, key=lambda f: f[0])]


def _ink_blobs(small: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The ink on white table as (labels, centres, areas, sizes), blobs of print size only and
    labelled 1..n in that order; None where there is too little of it for a card."""
    white = darkest_channel(small)
    paper, table = paper_and_table(white, median=True)
    on_white = cv2.compare(table, cv2.subtract(paper, np.full_like(paper, PARAMS.symmetry.table_step)), cv2.CMP_GE)
    if not cv2.countNonZero(on_white):
        return None
    ink = cv2.compare(white, cv2.subtract(paper, np.full_like(paper, PARAMS.symmetry.ink_step)), cv2.CMP_LT)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(cv2.bitwise_and(ink, on_white), connectivity=8)
    sizes = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    keep = np.nonzero((stats[:, cv2.CC_STAT_AREA] >= 3) & (sizes <= 0.2 * white.shape[0]))[0]
    keep = keep[keep > 0]
    if len(keep) < 4:
        return None
    relabel = np.zeros(n, np.int32)
    relabel[keep] = np.arange(1, len(keep) + 1)
    return (
        relabel[labels],
        centres[keep].astype(np.float32),
        stats[keep, cv2.CC_STAT_AREA].astype(np.float32),
        sizes[keep].astype(np.float32),
    )


def _pixels(labels: np.ndarray, wanted: np.ndarray, centre: np.ndarray, reach: float) -> np.ndarray:
    """(x, y) of the pixels labelled one of ``wanted`` within ``reach`` (plus a blob) of ``centre``."""
    h, w = labels.shape
    x0, y0 = (max(0, int(c - 1.3 * reach)) for c in centre)
    x1, y1 = min(w, int(centre[0] + 1.3 * reach) + 1), min(h, int(centre[1] + 1.3 * reach) + 1)
    ys, xs = np.nonzero(np.isin(labels[y0:y1, x0:x1], wanted))
    return np.stack([xs + x0, ys + y0], axis=1)


def _vote_peaks(mids: np.ndarray, w: int, h: int) -> list[np.ndarray]:
    """Grid cells (their centres) where at least ``min_votes`` midpoints fall within a cell around,
    local maxima only."""
    gx, gy = int(w / PARAMS.symmetry.cell) + 1, int(h / PARAMS.symmetry.cell) + 1
    votes = np.zeros((gy, gx), np.float32)
    np.add.at(
        votes,
        (
            np.clip((mids[:, 1] / PARAMS.symmetry.cell).astype(int), 0, gy - 1),
            np.clip((mids[:, 0] / PARAMS.symmetry.cell).astype(int), 0, gx - 1),
        ),
        1,
    )
    summed = cv2.boxFilter(votes, -1, (3, 3), normalize=False)
    peaks = np.argwhere(
        (summed >= PARAMS.symmetry.min_votes) & (summed == cv2.dilate(summed, np.ones((5, 5), np.uint8)))
    )
    return [
        np.array([(x + 0.5) * PARAMS.symmetry.cell, (y + 0.5) * PARAMS.symmetry.cell], np.float32) for y, x in peaks
    ]


def _around(centres: np.ndarray, centre: np.ndarray, paired: np.ndarray) -> tuple[float, np.ndarray, float, np.ndarray]:
    """(symmetric share, centre, reach, members) of the ink within reach of ``centre``, the
    midpoint of one of the pairs that voted there (their blobs ``paired``): the reach is the
    farthest of those blobs from it (the indices, at the card's corners), a little more, at
    which at least four blobs are ``symmetric_share`` symmetric. Two blobs of neighbouring cards
    may pair across the centre by chance, and measured out to them a court card (two indices
    about one picture) is not symmetric enough; the farthest reach also takes a ten's whole
    print rather than the five pips of one half. None symmetric enough: the farthest."""
    dist = np.linalg.norm(centres - centre, axis=1)
    farthest = (0.0, centre, 0.0, np.zeros(0, np.int64))
    for k, far in enumerate(sorted(set(np.round(dist[paired], 1).tolist()), reverse=True)):
        reach = 1.08 * far
        members = np.nonzero(dist <= reach)[0]
        if len(members) < 4:
            break
        share = _symmetric_share(centres[members], centre, reach)
        if share >= PARAMS.symmetry.symmetric_share:
            return share, centre, reach, members
        if k == 0:
            farthest = (share, centre, reach, members)
    return farthest


def _symmetric_share(points: np.ndarray, centre: np.ndarray, reach: float) -> float:
    """The share of ``points`` whose mirror through ``centre`` lies on another of them."""
    mirrored = 2 * centre - points
    gaps = np.linalg.norm(mirrored[:, None, :] - points[None, :, :], axis=2)
    return float((gaps <= max(3.0, 0.1 * reach)).any(axis=1).mean())


def _card_round(pixels: np.ndarray) -> np.ndarray | None:
    """The card whose print ``pixels`` (x, y) are: their box at the angle where it is smallest
    among card-shaped boxes (the smallest box of all leans along a 5's diagonal of pips), grown
    by the card's margin; None if no angle gives a card shape."""
    pts = pixels.astype(np.float32)
    cos, sin = np.cos(_ANGLES), np.sin(_ANGLES)
    u = pts[:, :1] * cos + pts[:, 1:] * sin
    v = pts[:, 1:] * cos - pts[:, :1] * sin
    du, dv = u.max(axis=0) - u.min(axis=0), v.max(axis=0) - v.min(axis=0)
    ratio = np.maximum(du, dv) / np.maximum(np.minimum(du, dv), 1)
    area = np.where(
        (ratio >= PARAMS.symmetry.print_aspect[0]) & (ratio <= PARAMS.symmetry.print_aspect[1]), du * dv, np.inf
    )
    k = int(np.argmin(area))
    if not np.isfinite(area[k]) or min(du[k], dv[k]) < 10:
        return None
    centre_u, centre_v = (u[:, k].max() + u[:, k].min()) / 2, (v[:, k].max() + v[:, k].min()) / 2
    centre = (float(centre_u * cos[k] - centre_v * sin[k]), float(centre_u * sin[k] + centre_v * cos[k]))
    margin_u, margin_v = PARAMS.symmetry.margin if du[k] < dv[k] else PARAMS.symmetry.margin[::-1]
    size = (float(du[k]) / (1 - 2 * margin_u), float(dv[k]) / (1 - 2 * margin_v))
    return cv2.boxPoints((centre, size, float(np.degrees(_ANGLES[k])))).astype(np.float32)
