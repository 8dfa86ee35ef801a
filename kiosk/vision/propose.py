"""Propose candidate cards from the cues' outlines (:mod:`kiosk.vision.cues`): an outline that
is a quad of card aspect that it fills is a candidate; one that is not is passed on to be
completed (:mod:`kiosk.vision.complete`); one filling most of the frame is a close-up, offered
apart."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from kiosk.vision.candidate import Candidate
from kiosk.vision.cues import Cue
from kiosk.vision.geometry import CARD_ASPECT, on_frame_edge, order_corners, polygon_iou, quad_aspect, spill
from kiosk.vision.params import PARAMS, DetectorConfig
from kiosk.vision.refine import fit_sides
from kiosk.vision.tilt import Tilt


class Outline(NamedTuple):
    """An outline that is no plain card, to be completed: the contour, the solid foreground it
    was cut from, and whether it is a soft region of the outline model."""

    contour: np.ndarray
    solid: np.ndarray
    soft: bool


class Proposals(NamedTuple):
    """What :func:`propose` found: plain cards, outlines to complete, close-ups, and the frame's
    view of its table."""

    whole: list[Candidate]
    rest: list[Outline]
    close: list[Candidate]
    tilt: Tilt


def propose(
    cues: Sequence[Cue], shape: tuple[int, int], lo: float, hi: float, cfg: DetectorConfig, known: Tilt | None = None
) -> Proposals:
    """Each cue's outlines of a card's size (``lo`` to 1.5 ``hi`` pixels on the analysis copy of
    ``shape``), in cue order, as plain cards (:func:`_plain`, :func:`_soft`), outlines
    to complete, or close-ups. An outline with the bounding box of one taken already is the
    same card through another cue; a quad with a side along the frame's edge is the frame's
    cut, not the card's. The quads of any plausible view of a card (``max_tilt``) set the
    frame's view of its table (:class:`~kiosk.vision.tilt.Tilt`) unless it is ``known`` (a
    calibrated camera's), and a quad is a card where
    its shape lies within ``aspect_tolerance`` of a card's there (:func:`_taken`),
    scoring by how near it lies. An outline sharing its box with a quad is judged once that
    quad is."""
    most = cfg.close_up_area * float(shape[0] * shape[1])
    found = Proposals([], [], [], Tilt(shape))
    seen: list[tuple[_Quad, _Contour]] = []
    later: list[_Contour] = []
    boxes: list[tuple[int, int, int, int]] = []
    for cue in cues:
        for cnt in cue.contours:
            a = cv2.contourArea(cnt)
            if not lo <= a <= 1.5 * hi:
                continue
            rest = Outline(cnt, cue.solid, cue.soft) if cue.solid is not None and a > lo * 1.5 else None
            x, y, bw, bh = cv2.boundingRect(cnt)
            c = _Contour(cnt, a, (x, y, bw, bh), rest, cue.soft)
            if _same_box(c.box, boxes):
                later.append(c)
                boxes.append(c.box)
                continue
            plain = _quad(c, lo, most, shape, cfg)
            if plain is not None:
                seen.append((plain, c))
                if not is_close_up(plain.quad, shape, cfg):
                    boxes.append(c.box)
            elif rest is not None:
                found.rest.append(rest)
    return _judged(seen, later, found, shape, (lo, most), cfg, known)


class _Contour(NamedTuple):
    """A cue's outline of a card's size: its contour, area, bounding box, the outline to
    complete where it is no card, and whether it is a soft region of the outline model."""

    cnt: np.ndarray
    area: float
    box: tuple[int, int, int, int]
    rest: Outline | None
    soft: bool


class _Quad(NamedTuple):
    """A quad an outline makes, before it is judged card-shaped: its score but for the shape's,
    the weight of the shape's, whether it is the outline model's, and its 2-D aspect's
    ``|log(aspect / CARD_ASPECT)|``."""

    quad: np.ndarray
    unshaped: float
    weight: float
    soft: bool
    aspect: float


def _quad(
    c: _Contour, lo: float, most: float, shape: tuple[int, int], cfg: DetectorConfig, tilted: bool = False
) -> _Quad | None:
    """The quad contour ``c`` makes where it may be a card in some view (a soft outline's as in
    a frame seen at a tilt where ``tilted``): off the frame's edge, of a card's aspect or of a
    plausible view of one (``max_tilt``)."""
    # a card-shaped quad fills at least ~45% of its bounding box at any rotation;
    # less cannot be a plain card, and skips the hull of a tangle of edges
    if c.area < 0.4 * c.box[2] * c.box[3]:
        return None
    q = _soft(c.cnt, c.area, lo, most, tilted) if c.soft else _plain(c.cnt, c.area, lo, most, cfg)
    if q is None or on_frame_edge(q.quad, shape):
        return None
    if q.aspect > cfg.aspect_tolerance and not np.isfinite(Tilt.flat().errors(order_corners(q.quad)[None])[0]):
        return None
    return q


def _judged(
    seen: list[tuple[_Quad, _Contour]],
    later: list[_Contour],
    found: Proposals,
    shape: tuple[int, int],
    size: tuple[float, float],
    cfg: DetectorConfig,
    known: Tilt | None,
) -> Proposals:
    """``found`` with the quads ``seen`` judged against the frame's view (:func:`_table_view`),
    then the ``later`` outlines whose box no card taken has: the close-ups apart, the cards
    whole, the others' outlines to complete."""
    tilt, turned = _table_view(seen, shape, size, cfg, known)
    taken: list[tuple[int, int, int, int]] = []
    for k, (q, c) in enumerate([*seen, *((None, c) for c in later)]):
        if q is None and _same_box(c.box, taken):
            continue
        options = [q or _quad(c, *size, shape, cfg)]
        if tilt.coef is not None and c.soft:  # at a tilt, also the quad its sides make
            options.append(turned[k] if k < len(turned) else _quad(c, *size, shape, cfg, tilted=True))
        if _taken(found, options, c, tilt, shape, cfg):
            taken.append(c.box)
    return found._replace(tilt=tilt)


def _table_view(
    seen: list[tuple[_Quad, _Contour]],
    shape: tuple[int, int],
    size: tuple[float, float],
    cfg: DetectorConfig,
    known: Tilt | None,
) -> tuple[Tilt, list[_Quad | None]]:
    """The frame's view, ``known`` or fitted on the quads ``seen`` of the usual size (a soft
    outline's as at a tilt), and each soft outline's quad as at a tilt; unknown, the view from
    above, fitting nothing, where fewer than ``tilt_gain`` of those quads lack a card's aspect
    (no fit could gain)."""
    quads = np.stack([order_corners(q.quad) for q, _ in seen]) if seen else np.zeros((0, 4, 2), np.float32)
    usual = ~np.array([is_close_up(q, shape, cfg) for q in quads], bool)
    odd = sum(q.aspect > cfg.aspect_tolerance for (q, _), u in zip(seen, usual, strict=True) if u)
    if known is None and odd < PARAMS.propose.tilt_gain:
        return Tilt(shape), []
    turned = [_quad(c, *size, shape, cfg, tilted=True) if c.soft else None for _, c in seen]
    if seen:
        quads = np.stack([order_corners((t or q).quad) for t, (q, _) in zip(turned, seen, strict=True)])
    if known is not None:
        return known.placed(quads[usual], shape), turned
    return Tilt.fitted(quads[usual], shape, cfg.aspect_tolerance), turned


def _taken(
    found: Proposals, options: list[_Quad | None], c: _Contour, tilt: Tilt, shape: tuple[int, int], cfg: DetectorConfig
) -> bool:
    """Adds the best-scored of the quads ``options`` of contour ``c`` that are card-shaped in
    the view ``tilt`` to ``found``, as a card (True) or a close-up (whose region may still be
    completed); where none is, ``c``'s outline is one to complete."""
    quads = [q for q in options if q is not None]
    errors: Sequence[float] = [q.aspect for q in quads]
    if quads and tilt.coef is not None:  # a card seen at a tilt may have another aspect: its view fits
        errors = np.minimum(errors, tilt.errors(np.stack([order_corners(q.quad) for q in quads])))
    cards = [
        Candidate(q.quad, q.unshaped - q.weight * float(e), from_model=q.soft)
        for q, e in zip(quads, errors, strict=True)
        if e <= cfg.aspect_tolerance
    ]
    if not cards:
        if c.rest is not None:
            found.rest.append(c.rest)
        return False
    cand = max(cards, key=lambda x: x.score)
    if is_close_up(cand.quad, shape, cfg):
        found.close.append(cand)
        if c.rest is not None:
            found.rest.append(c.rest)
        return False
    found.whole.append(cand)
    return True


def is_close_up(quad: np.ndarray, shape: tuple[int, ...], cfg: DetectorConfig) -> bool:
    """Whether ``quad`` fills more of a picture of ``shape`` than the cards of the usual size
    do (``max_area``): a close-up, offered apart from them."""
    return bool(cv2.contourArea(np.asarray(quad, np.float32)) > cfg.max_area * shape[0] * shape[1])


def aspect_ok(aspect: float, cfg: DetectorConfig) -> bool:
    """Whether a long side over short side ``aspect`` is a card's, within ``aspect_tolerance``."""
    return bool(abs(np.log(aspect / CARD_ASPECT)) <= cfg.aspect_tolerance)


def soft_quad(cnt: np.ndarray, area: float, lo: float, hi: float, cfg: DetectorConfig) -> Candidate | None:
    """A card from a soft outline seen from above: :func:`_soft`, of card shape within
    ``aspect_tolerance`` (whether an outline model's region is one card, or cards merged)."""
    found = _soft(cnt, area, lo, hi)
    if found is None or found.aspect > cfg.aspect_tolerance:
        return None
    return Candidate(found.quad, found.unshaped - found.weight * found.aspect, from_model=True)


def _aspect_error(quad: np.ndarray) -> float:
    """``|log(aspect / CARD_ASPECT)|`` of ``quad``'s mean long side over its mean short side."""
    return abs(math.log(max(quad_aspect(order_corners(quad)), 1e-6) / CARD_ASPECT))


def _plain(cnt: np.ndarray, area: float, lo: float, hi: float, cfg: DetectorConfig) -> _Quad | None:
    """A plain card: the contour is a convex quad that it fills, its corners the crossings of
    lines fitted to the middle of its sides (rounded corners do not pull them). It scores by
    how much it fills the quad, less ``spill`` times how far its hull spills out of it."""
    hull = cv2.convexHull(cnt)  # an index touching the outline notches it; the hull does not
    quad = _fitted(cnt, hull)
    if quad is None:
        return None
    qa = cv2.contourArea(quad)
    if not lo <= qa <= hi:
        return None
    fill = area / max(qa, 1e-6)
    if fill < cfg.min_fill:
        return None
    spilt = spill(quad, hull.reshape(-1, 2)) / np.sqrt(qa)
    return _Quad(quad, min(fill, 1.0) - PARAMS.propose.spill * spilt, 1.0, False, _aspect_error(quad))


def _fitted(cnt: np.ndarray, hull: np.ndarray) -> np.ndarray | None:
    """The convex quad the contour's ``hull`` makes, its corners where lines fitted to the
    middle of the contour's sides cross; None where the hull is no quad or the contour does
    not fill 70 % of it."""
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    if len(approx) != 4 or not cv2.isContourConvex(approx):
        return None
    if cv2.contourArea(cnt) < 0.7 * cv2.contourArea(approx):
        return None
    return fit_sides(cnt.reshape(-1, 2).astype(np.float32), approx.reshape(4, 2))


def _soft(cnt: np.ndarray, area: float, lo: float, hi: float, tilted: bool = False) -> _Quad | None:
    """A card from a soft outline (the outline model's: right where the card is, but its
    corners rounded and its sides a pixel or two off): the smallest rectangle round it, or in a
    frame seen at a tilt (``tilted``: a card there is no rectangle) the quad its sides make where
    that lies nearer its hull, if the region (or, where it is notched, its hull) fills it. The
    refinement on the full frame then puts each side on the card's edge."""
    p = PARAMS.propose
    hull = cv2.convexHull(cnt)
    quad = cv2.boxPoints(cv2.minAreaRect(cnt)).astype(np.float32)
    fitted = _fitted(cnt, hull) if tilted else None
    outline = hull.reshape(-1, 2).astype(np.float32)
    if fitted is not None and polygon_iou(fitted, outline) > polygon_iou(quad, outline):
        quad = fitted
    qa = abs(cv2.contourArea(quad))
    if not lo <= qa <= hi or area < p.soft_notched * qa:
        return None
    # a plain card with little ink (an ace, a three) leaves the model unsure inside, so its
    # region may be notched: the hull must fill the quad, the region most of it
    if area < p.soft_fill * qa and cv2.contourArea(hull) < p.soft_fill * qa:
        return None
    return _Quad(quad, p.soft_score * min(area / qa, 1.0), p.soft_score, True, _aspect_error(quad))


def _same_box(a: tuple[int, int, int, int], boxes: list[tuple[int, int, int, int]]) -> bool:
    """Whether bounding rectangle ``a`` is within a few percent of one of ``boxes`` (plain
    Python: the list is short and the test runs for every contour)."""
    ax, ay, aw, ah = a
    side = max(aw, ah)
    for bx, by, bw, bh in boxes:
        tol = 0.04 * max(side, bw, bh)
        if abs(ax - bx) <= tol and abs(ay - by) <= tol and abs(aw - bw) <= tol and abs(ah - bh) <= tol:
            return True
    return False
