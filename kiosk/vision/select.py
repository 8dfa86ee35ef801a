"""Choosing among candidate outlines: a paper margin, a size that fits the table's cards, and
non-maximum suppression that keeps what it sets aside at a card's place as its alternates."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from kiosk.vision.candidate import Candidate, Kept
from kiosk.vision.geometry import boxes_meet, overlap, rings, shoelace
from kiosk.vision.params import PARAMS

#: An overlap of two quads: IoU, whether the first lies mostly within the second, and the reverse.
Overlap = tuple[float, bool, bool]


def white_bordered(
    white: np.ndarray,
    cands: list[Candidate],
    bright: float,
    insets: tuple[float, ...] = (0.05,),
    trust_model: bool = False,
) -> list[Candidate]:
    """The candidates whose margin looks like white paper: not darker than what surrounds it,
    and among the brightest things in the frame (this drops dark or coloured regions that
    happen to be quads) or, in the shade, ``shaded_paper`` times as white as round it. The
    margin is looked at each of ``insets`` inside the outline, the whitest counting: a card seen
    whole is also looked at 2.5 % in, for a poster printed to within a twentieth of the card's
    width leaves a thin white border (a completion is not: over a card's pips, a guessed
    outline's rim then finds that card's paper). On a table as white as paper the test tells
    nothing, and the outline model outlines such a card by its print, the border lost in the
    table: with ``trust_model``, a candidate of the model's is kept there."""
    if not cands:
        return []
    p = PARAMS.select
    h, w = white.shape
    quads = np.stack([c.quad for c in cands])

    def medians(pts: np.ndarray) -> np.ndarray:
        xs = np.clip(pts[..., 0].astype(np.int32), 0, w - 1)
        ys = np.clip(pts[..., 1].astype(np.int32), 0, h - 1)
        return np.median(white[ys, xs], axis=1)

    inner = np.max([medians(rings(quads, inset)) for inset in insets], axis=0)
    outer = medians(rings(quads, -0.06))
    paper = (inner >= outer - 35) & ((inner >= 0.35 * bright) | (inner >= p.shaded_paper * outer))
    model = np.array([trust_model and c.from_model for c in cands], bool)
    keep = paper | (model & (outer >= p.white_table * bright))
    return [c for c, k in zip(cands, keep, strict=True) if k]


def table_card_size(size: tuple[float, float] | None, whole: int) -> tuple[float, float] | None:
    """``size``, the median of the ``whole`` cards seen whole, once there are ``table_cards`` of
    them; else None: one or two quads seen whole may be pieces of a card (an index box), not cards."""
    return size if size is not None and whole >= PARAMS.select.table_cards else None


def table_sized(size: tuple[float, float] | None, whole: int) -> Callable[[np.ndarray], bool]:
    """A test that a quad is big enough to be a card beside the ``whole`` cards seen, of median
    ``size`` (``smallest_card``); with fewer than ``table_cards`` of them every quad passes."""
    known = table_card_size(size, whole)
    if known is None:
        return lambda quad: True
    smallest = PARAMS.select.smallest_card * known[0] * known[1]
    return lambda quad: cv2.contourArea(quad) >= smallest


def suppress(cands: list[Candidate], iou: float, spares: Sequence[Candidate] = ()) -> list[Kept]:
    """Non-maximum suppression, best score first. A quad that encloses a kept one, centred on
    it, replaces it (the picture frame of a court card is card-shaped too, and lies in the middle
    of the card), and so does a completed card that encloses only a :func:`piece` of it (its
    index box or a corner of its picture, outlined on their own, where no card is seen whole to
    set the table's card size). A card seen whole is kept beside a whole quad within it of under
    ``inner_piece`` of its area (its index box). Each kept quad comes with its alternates, best
    first: the quads it replaced, and those it set aside that are distinct (IoU below
    ``same_outline``) and alike in size (:func:`_alike_in_size`), at most ``max_alternates``.
    ``spares`` are only ever such alternates, after the others: never kept, nor replacing a
    kept quad."""
    kept: list[Kept] = []
    for cand in sorted(cands, key=lambda c: -c.score):
        quad, partial = cand.quad, cand.partial
        box = np.concatenate([quad.min(axis=0), quad.max(axis=0)])
        clash = [
            (k, o)
            for k, o in _overlaps(quad, box, kept)
            if (o[0] >= iou or o[1] or o[2])
            and not (o[2] and not partial and not k.partial and piece(k.quad, quad, PARAMS.select.inner_piece))
        ]
        if not clash:
            kept.append(Kept(cand, box))
        elif (not partial and all(o[2] and not k.partial and _concentric(k.quad, quad) for k, o in clash)) or (
            partial and all(o[2] and piece(k.quad, quad) for k, o in clash)
        ):
            kept = [k for k in kept if not any(k is c for c, _ in clash)]
            kept.append(Kept(cand, box, [q for c, _ in clash for q in (c.quad, *c.alternates)]))
        else:
            _set_aside(quad, clash)
    for spare in sorted(spares, key=lambda c: -c.score):
        quad = spare.quad
        box = np.concatenate([quad.min(axis=0), quad.max(axis=0)])
        _set_aside(quad, [(k, o) for k, o in _overlaps(quad, box, kept) if o[0] >= iou])
    for k in kept:
        del k.alternates[PARAMS.select.max_alternates :]
    return kept


def _overlaps(quad: np.ndarray, box: np.ndarray, kept: list[Kept]) -> list[tuple[Kept, Overlap]]:
    """:func:`~kiosk.vision.geometry.overlap` of ``quad`` (bounding ``box``) with each kept quad
    whose box it meets."""
    return [(k, overlap(quad, k.quad)) for k in kept if boxes_meet(box, k.box)]


def _set_aside(quad: np.ndarray, clash: list[tuple[Kept, Overlap]]) -> None:
    """``quad`` among the alternates of the kept quad of ``clash`` it overlaps most, if it is
    distinct from it and alike in size (none where ``clash`` is empty)."""
    if not clash:
        return
    winner, (iou, _, _) = max(clash, key=lambda ko: ko[1][0])
    if iou < PARAMS.select.same_outline and _alike_in_size(quad, winner.quad):
        winner.alternates.append(quad)


def piece(inner: np.ndarray, outer: np.ndarray, share: float | None = None) -> bool:
    """Under ``share`` (by default ``piece``) of the area of ``outer``: a part of a card, not a
    card beside it."""
    share = PARAMS.select.piece if share is None else share
    return abs(shoelace(inner[None])[0]) < share * abs(shoelace(outer[None])[0])


def _alike_in_size(a: np.ndarray, b: np.ndarray) -> bool:
    """Within ``alternate_size`` of each other in area: a card's picture frame, the card cut
    short by a hand, or one of two cards taken for one, not a stretch of table round them."""
    most = PARAMS.select.alternate_size
    ratio = abs(shoelace(a[None])[0]) / max(abs(shoelace(b[None])[0]), 1e-6)
    return 1 / most <= ratio <= most


def _concentric(inner: np.ndarray, outer: np.ndarray) -> bool:
    """Centred on each other and well inside, as a picture frame in its card (not a card in a
    pair of cards, nor the same card outlined a little wider by a softer cue)."""
    gap = float(np.linalg.norm(inner.mean(axis=0) - outer.mean(axis=0)))
    smaller = cv2.contourArea(inner.astype(np.float32)) < 0.8 * cv2.contourArea(outer.astype(np.float32))
    return gap < 0.08 * float(np.linalg.norm(outer[0] - outer[2])) and smaller
