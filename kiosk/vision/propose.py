"""Propose candidate cards from the cues' outlines (:mod:`kiosk.vision.cues`): an outline that
is a quad of card aspect that it fills is a candidate; one that is not is passed on to be
completed (:mod:`kiosk.vision.complete`); one filling most of the frame is a close-up, offered
apart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from kiosk.vision.candidate import Candidate
from kiosk.vision.cues import Cue
from kiosk.vision.geometry import CARD_ASPECT, on_frame_edge, order_corners, quad_aspect, spill
from kiosk.vision.params import PARAMS, DetectorConfig
from kiosk.vision.refine import fit_sides


class Outline(NamedTuple):
    """An outline that is no plain card, to be completed: the contour, the solid foreground it
    was cut from, and whether it is a soft region of the outline model."""

    contour: np.ndarray
    solid: np.ndarray
    soft: bool


class Proposals(NamedTuple):
    """What :func:`propose` found: plain cards, outlines to complete, and close-ups."""

    whole: list[Candidate]
    rest: list[Outline]
    close: list[Candidate]


def propose(cues: Sequence[Cue], shape: tuple[int, int], lo: float, hi: float, cfg: DetectorConfig) -> Proposals:
    """Each cue's outlines of a card's size (``lo`` to 1.5 ``hi`` pixels on the analysis copy of
    ``shape``), in cue order, as plain cards (:func:`plain_quad`, :func:`soft_quad`), outlines
    to complete, or close-ups. An outline with the bounding box of one taken already is the
    same card through another cue; a quad with a side along the frame's edge is the frame's
    cut, not the card's."""
    area = float(shape[0] * shape[1])
    most = cfg.close_up_area * area
    found = Proposals([], [], [])
    boxes: list[tuple[int, int, int, int]] = []
    for cue in cues:
        for cnt in cue.contours:
            a = cv2.contourArea(cnt)
            if not lo <= a <= 1.5 * hi:
                continue
            x, y, bw, bh = cv2.boundingRect(cnt)
            if _same_box((x, y, bw, bh), boxes):
                continue
            # a card-shaped quad fills at least ~45% of its bounding box at any rotation;
            # less cannot be a plain card, and skips the hull of a tangle of edges
            plain = None
            if a >= 0.4 * bw * bh:
                plain = soft_quad(cnt, a, lo, most, cfg) if cue.soft else plain_quad(cnt, a, lo, most, cfg)
            if plain is not None and on_frame_edge(plain.quad, shape):
                plain = None
            if plain is not None and is_close_up(plain.quad, shape, cfg):
                found.close.append(plain)  # offered apart; its region may still be completed
                plain = None
            if plain is not None:
                found.whole.append(plain)
                boxes.append((x, y, bw, bh))
            elif cue.solid is not None and a > lo * 1.5:
                found.rest.append(Outline(cnt, cue.solid, cue.soft))
    return found


def is_close_up(quad: np.ndarray, shape: tuple[int, ...], cfg: DetectorConfig) -> bool:
    """Whether ``quad`` fills more of a picture of ``shape`` than the cards of the usual size
    do (``max_area``): a close-up, offered apart from them."""
    return bool(cv2.contourArea(np.asarray(quad, np.float32)) > cfg.max_area * shape[0] * shape[1])


def aspect_ok(aspect: float, cfg: DetectorConfig) -> bool:
    """Whether a long side over short side ``aspect`` is a card's, within ``aspect_tolerance``."""
    return bool(abs(np.log(aspect / CARD_ASPECT)) <= cfg.aspect_tolerance)


def plain_quad(cnt: np.ndarray, area: float, lo: float, hi: float, cfg: DetectorConfig) -> Candidate | None:
    """A plain card: the contour is a convex quad of card aspect that it fills, its corners the
    crossings of lines fitted to the middle of its sides (rounded corners do not pull them)."""
    hull = cv2.convexHull(cnt)  # an index touching the outline notches it; the hull does not
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    if len(approx) != 4 or not cv2.isContourConvex(approx):
        return None
    rough = approx.reshape(4, 2).astype(np.float32)
    if area < 0.7 * cv2.contourArea(rough):
        return None
    quad = fit_sides(cnt.reshape(-1, 2).astype(np.float32), approx.reshape(4, 2))
    if quad is None:
        return None
    qa = cv2.contourArea(quad)
    if not lo <= qa <= hi:
        return None
    fill = area / max(qa, 1e-6)
    aspect = quad_aspect(order_corners(quad))
    if fill < cfg.min_fill or not aspect_ok(aspect, cfg):
        return None
    spilt = spill(quad, hull.reshape(-1, 2)) / np.sqrt(qa)
    return Candidate(quad, min(fill, 1.0) - abs(np.log(aspect / CARD_ASPECT)) - PARAMS.propose.spill * spilt)


def soft_quad(cnt: np.ndarray, area: float, lo: float, hi: float, cfg: DetectorConfig) -> Candidate | None:
    """A card from a soft outline (the outline model's: right where the card is, but its
    corners rounded and its sides a pixel or two off): the smallest rectangle round it, if
    the region (or, where it is notched, its hull) fills it and it has card aspect. The
    refinement on the full frame then puts each side on the card's edge."""
    p = PARAMS.propose
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(cnt)
    quad = cv2.boxPoints(((cx, cy), (rw, rh), angle)).astype(np.float32)
    qa = rw * rh
    if not lo <= qa <= hi or area < p.soft_notched * qa:
        return None
    # a plain card with little ink (an ace, a three) leaves the model unsure inside, so its
    # region may be notched: the hull must fill the rectangle, the region most of it
    if area < p.soft_fill * qa and cv2.contourArea(cv2.convexHull(cnt)) < p.soft_fill * qa:
        return None
    aspect = max(rw, rh) / max(min(rw, rh), 1e-6)
    if not aspect_ok(aspect, cfg):
        return None
    return Candidate(quad, p.soft_score * (min(area / qa, 1.0) - abs(np.log(aspect / CARD_ASPECT))), from_model=True)


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
