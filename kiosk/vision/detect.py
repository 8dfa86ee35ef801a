"""Find card outlines in a frame: four corners per card (TL, TR, BR, BL, long side vertical),
and the card's pixels warped when asked for.

:class:`Detector` runs the detection stages on a downscaled copy of the frame: the cues
(:mod:`kiosk.vision.cues`: whiteness, whiteness less the edge map, regions enclosed by edges, the
outline model) propose outlines (:mod:`kiosk.vision.propose`); outlines that are no quad are
completed from their visible corners (:mod:`kiosk.vision.complete`); the candidates compete
(:mod:`kiosk.vision.select`), and the winners' corners are refined to sub-pixel on the full frame
(:mod:`kiosk.vision.refine`). What a winner set aside at its place is kept as its *alternates*,
for a second look where the identifier cannot read it (:mod:`kiosk.vision.naming`).
:meth:`Detector.glance` runs the outline model's cue alone, in a third of the time, and says
whether its outlines account for what the model calls card; :meth:`Detector.closer` adds the
other cues to it where they do not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

import cv2
import numpy as np

from kiosk.vision.candidate import Candidate, Kept
from kiosk.vision.complete import agreed, partial_quads, plausible, split_pairs, trimmed, unexplained
from kiosk.vision.cues import Cue, ModelPass, hand_cues, outline_cue
from kiosk.vision.face import darkest_channel, warp_face, warp_index_corners
from kiosk.vision.geometry import card_size, order_corners, polygon_iou, shoelace, shrunk_to
from kiosk.vision.outline import OutlineModel, load_outline_model
from kiosk.vision.params import PARAMS, DetectorConfig
from kiosk.vision.propose import Outline, is_close_up, propose, soft_quad
from kiosk.vision.refine import refine_quads
from kiosk.vision.select import suppress, table_card_size, table_sized, white_bordered
from kiosk.vision.shapes import card_ends
from kiosk.vision.sources.base import checked_frame as as_bgr  # the frame check, for still images too
from kiosk.vision.symmetry import symmetric_cards
from kiosk.vision.tilt import Tilt

_RIM = np.ones((7, 7), np.uint8)  # the rim a glance leaves round the model's card pixels and outlines


@dataclass(frozen=True, eq=False)
class Detection:
    """One card outline: ``corners`` (4, 2) float32 TL, TR, BR, BL in pixels of ``frame`` (the
    BGR picture it was found in, not copied), whether the outline was completed from a partial
    view, and the other outlines of its place. The card's pixels are warped only when asked
    for: the whole :attr:`face`, or just its two :meth:`index_corners` (what an index reader
    needs, a tenth of the pixels)."""

    corners: np.ndarray
    frame: np.ndarray
    score: float
    partial: bool = False
    #: Other outlines of this place that lost to it (unrefined corners, best first): see
    #: :meth:`Detector.look_again`.
    alternates: tuple[np.ndarray, ...] = ()
    #: Its frame's view of the table (:class:`~kiosk.vision.tilt.Tilt`, frame pixels) where the
    #: frame is seen at a tilt: there a guessed outline drawn as a card seen from above may be
    #: no card's view, and naming reads it strictly
    tilt: Tilt | None = None

    @cached_property
    def face(self) -> np.ndarray:
        """The warped face (FACE_SIZE, BGR)."""
        return warp_face(*_around(self.frame, self.corners))

    def index_corners(self) -> tuple[np.ndarray, np.ndarray]:
        """:func:`kiosk.vision.face.index_crops` of :attr:`face`, without warping the rest."""
        return warp_index_corners(*_around(self.frame, self.corners))

    def around(self) -> tuple[np.ndarray, np.ndarray]:
        """The card's bounding box of the frame (a view, not a copy) and its corners in that
        box's pixels: what a reader that warps its own parts of the card needs."""
        return _around(self.frame, self.corners)


@dataclass(frozen=True)
class Glance:
    """What :meth:`Detector.glance` saw of a frame: the cards the outline model alone outlines,
    and whether they account for what it calls card (``explained``: its card pixels, less a
    3-px rim, outside every outline found make no piece of ``glance_unseen`` of a card); with
    the BGR frame and the model's pass, for :meth:`Detector.closer` to reuse."""

    detections: list[Detection]
    explained: bool
    frame: np.ndarray | None
    model: ModelPass | None


class _Copy(NamedTuple):
    """The analysis copy of a frame and what every stage reads of it: its scale from the frame,
    whiteness (the darkest channel), the frame's paper white, and the card areas in its pixels."""

    small: np.ndarray
    scale: float
    white: np.ndarray
    bright: float
    lo: float
    hi: float


class _Cues(NamedTuple):
    """The cues run on a frame, their edges (where completions' sides are checked), and the
    outline model's pass and foreground (None without the model)."""

    cues: list[Cue]
    edges: np.ndarray
    model: ModelPass | None
    model_mask: np.ndarray | None


class Detector:
    """Finds card quads in BGR frames of any size; stateless between frames. One detector per
    thread: the outline model's interpreter is not shared between threads."""

    def __init__(self, config: DetectorConfig | None = None, outline: OutlineModel | None = None) -> None:
        self.config = config or DetectorConfig()
        self.outline = (
            outline
            if outline is not None
            else (load_outline_model(num_threads=self.config.model_threads) if self.config.outline_model else None)
        )
        #: The camera's view of its table where it is known (a calibrated kiosk's camera:
        #: :meth:`~kiosk.vision.calibration.Calibration.table_view`), used where it is
        #: :meth:`~kiosk.vision.tilt.Tilt.steep` on frames of its proportions; else each frame's
        #: is fitted on its cards
        self.view: Tilt | None = None

    def detect(self, frame: object) -> list[Detection]:
        """All cards found, best first. Unusable frames give an empty list, never an error."""
        bgr = as_bgr(frame)
        if bgr is None:
            return []
        return self._detections(bgr, hand=self.config.hand_cues or self.outline is None)[0]

    def glance(self, frame: object) -> Glance:
        """The cards the outline model alone outlines, in a third of :meth:`detect`'s time, and
        whether they account for what it calls card (:class:`Glance`). Where they do not, or
        where a card they outline cannot be read, the frame needs :meth:`closer`
        (:func:`kiosk.vision.naming.look`). Without the outline model it is :meth:`detect`."""
        bgr = as_bgr(frame)
        if bgr is None:
            return Glance([], True, None, None)
        found, explained, model = self._detections(bgr, hand=self.outline is None)
        return Glance(found, explained, bgr, model)

    def explains(self, glance: Glance, outlines: Sequence[np.ndarray]) -> bool:
        """Whether ``outlines`` (corners in frame pixels) account for what the outline model of
        ``glance`` calls card, as :attr:`Glance.explained` judges its own outlines: naming may
        put a card's own outline in place of one the glance drew round two cards."""
        if glance.model is None or glance.frame is None:
            return True
        card = glance.model.card  # in the analysis copy's pixels
        scale = card.shape[1] / glance.frame.shape[1]
        smallest = self.config.min_area * card.size
        return _explained(card, [np.asarray(o, np.float32) * scale for o in outlines], smallest)

    def closer(self, glance: Glance) -> list[Detection]:
        """:meth:`detect` of the frame ``glance`` was taken of, its outline model's pass reused."""
        if glance.frame is None:
            return []
        return self._detections(glance.frame, hand=True, model=glance.model)[0]

    def _detections(
        self, bgr: np.ndarray, hand: bool, model: ModelPass | None = None
    ) -> tuple[list[Detection], bool, ModelPass | None]:
        """The cards of ``bgr`` with the hand-set cues or without, whether the outline model's
        card pixels are accounted for (always, with the hand-set cues), and the outline model's
        pass (``model``, where it was run already)."""
        copy = self._copy(bgr)
        cues = self._cues(copy, hand, model)
        kept, known, tilt = self._select(copy, cues)
        quads = [k.quad for k in kept]
        explained = hand or cues.model is None or _explained(cues.model.card, quads, copy.lo)
        return self._refined(bgr, copy, kept, known, tilt.scaled(1 / copy.scale)), explained, cues.model

    def _copy(self, bgr: np.ndarray) -> _Copy:
        cfg = self.config
        small, scale = shrunk_to(bgr, cfg.work_side)
        area = float(small.shape[0] * small.shape[1])
        white = darkest_channel(small)
        bright = float(np.percentile(white[::4, ::4], 97))
        return _Copy(small, scale, white, bright, cfg.min_area * area, cfg.max_area * area)

    def _cues(self, c: _Copy, hand: bool, model: ModelPass | None) -> _Cues:
        """The outline model's cue first (its outline wins over the same card from another cue),
        then, with ``hand``, the hand-set cues."""
        cues: list[Cue] = []
        edges: np.ndarray = np.zeros(c.white.shape, np.uint8)
        model_mask = None
        if self.outline is not None:
            model = model or outline_cue(
                self.outline,
                c.small,
                c.lo,
                c.hi,
                lambda cnt: soft_quad(cnt, cv2.contourArea(cnt), c.lo, c.hi, self.config) is not None,
            )
            cues.append(model.cue)
            edges, model_mask = model.edges, model.cue.solid
        if hand:
            set_by_hand, canny = hand_cues(c.small, c.white, c.bright, c.lo, c.hi)
            cues += set_by_hand
            edges = cv2.max(edges, canny)
        return _Cues(cues, edges, model, model_mask)

    def _select(self, c: _Copy, cues: _Cues) -> tuple[list[Kept], tuple[float, float] | None, Tilt]:
        """The cards kept (close-ups last), the table's card size where it is known, and the
        frame's view of its table."""
        cfg = self.config
        found = propose(cues.cues, c.white.shape, c.lo, c.hi, cfg, self._known_view(c.white.shape))
        candidates = white_bordered(c.white, found.whole, c.bright, (0.05, 0.025), trust_model=True)
        size = card_size([x.quad for x in candidates])
        fits = table_sized(size, len(candidates))
        known = table_card_size(size, len(candidates))
        candidates, halves = split_pairs(candidates, size, cues.edges)
        completed, other_way = self._completed(c, found.rest, candidates, cues.edges, size, known, found.tilt)
        completed = halves + completed
        candidates += agreed(plausible(completed, c.white, c.bright, cues.model_mask))
        candidates = [x for x in candidates if fits(x.quad)]
        spares = [x for x in plausible(other_way, c.white, c.bright, cues.model_mask) if fits(x.quad)]
        kept = suppress(candidates, cfg.nms_iou, spares)[: cfg.max_cards]
        # a close-up comes after the cards of the usual size, so that it neither sets their size
        # nor suppresses one: a pale worktop round a card is card-shaped too
        close = white_bordered(c.white, found.close, c.bright, (0.05, 0.025))
        kept += suppress(close, cfg.nms_iou)[: PARAMS.select.close_ups]
        return kept, known, found.tilt

    def _known_view(self, shape: tuple[int, ...]) -> Tilt | None:
        """:attr:`view` where it is steep and was found for frames of ``shape``'s proportions."""
        view = self.view
        if view is None or not view.steep(self.config.aspect_tolerance):
            return None
        (h, w), (vh, vw) = shape[:2], view.shape
        return view if abs(w / h - vw / vh) <= 0.01 * vw / vh else None

    def _completed(
        self,
        c: _Copy,
        rest: list[Outline],
        found: list[Candidate],
        edges: np.ndarray,
        size: tuple[float, float] | None,
        known: tuple[float, float] | None,
        tilt: Tilt,
    ) -> tuple[list[Candidate], list[Candidate]]:
        """Cards completed from the outlines of ``rest`` that ``found`` leaves unexplained, in the
        frame's view ``tilt``, and the same completions a quarter turned (only ever alternates)."""
        p = PARAMS.complete
        hidden_most = completed_most = c.hi  # the largest half-hidden card and completed card
        if known is not None:
            hidden_most = min(c.hi, p.occluded_size * known[0] * known[1])
            completed_most = min(c.hi, p.completed_size * known[0] * known[1])
        completed: list[Candidate] = []
        other_way: list[Candidate] = []
        for outline in unexplained(rest, found, c.white.shape, c.lo):
            quads, turned = partial_quads(outline, edges, c.lo, completed_most, size, hidden_most, self.config, tilt)
            if outline.soft:
                quads += trimmed(outline.contour, edges, c.lo, c.hi, completed_most, self.config)
            factor = PARAMS.propose.soft_score if outline.soft else 1.0
            completed += [replace(q, score=q.score * factor) for q in quads]
            other_way += [replace(q, score=q.score * factor) for q in turned]
        return completed, other_way

    def _refined(
        self, bgr: np.ndarray, c: _Copy, kept: list[Kept], known: tuple[float, float] | None, tilt: Tilt
    ) -> list[Detection]:
        """The kept cards in frame pixels, refined and turned to the frame's view ``tilt`` (which
        side is a card's short side); a card seen whole also offers the two cards of which it may
        be the visible end (:func:`~kiosk.vision.shapes.card_ends`) as alternates, at the table's
        card size from the quads kept whole (else from the candidates)."""
        whole = [k.quad for k in kept if not k.partial]
        table_card = table_card_size(card_size(whole), len(whole)) or known
        outlines = [k.quad / c.scale for k in kept]
        if self.config.refine:
            outlines = refine_quads(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), outlines)
        if not outlines:
            return []
        turned = tilt.ordered(np.stack([order_corners(q) for q in outlines]))
        seen_at = tilt if tilt.coef is not None else None
        out = []
        for q, k in zip(turned, kept, strict=True):
            alternates = k.alternates if k.partial else [*k.alternates, *card_ends(k.quad, table_card)]
            scaled = tuple(a / c.scale for a in alternates)
            out.append(Detection(q, bgr, k.candidate.score, k.partial, scaled, seen_at))
        return out

    def is_close_up(self, quad: np.ndarray, shape: tuple[int, ...]) -> bool:
        """Whether ``quad`` fills more of a picture of ``shape`` than the cards of the usual size
        do (``DetectorConfig.max_area``): a close-up, offered apart from them."""
        return is_close_up(quad, shape, self.config)

    def printed(self, frame: np.ndarray, outlines: Sequence[np.ndarray]) -> list[tuple[np.ndarray, ...]]:
        """Per outline of ``outlines`` (frame pixels), the cards that the symmetry of the print
        shows over it (:mod:`kiosk.vision.symmetry`) and over no other of them more, without
        outlining it again (IoU from ``symmetric_over`` to ``same_outline``): on a white table in
        light that clips it a card's own outline may not show, and the outline found there is a
        loose one. Naming asks for them once an outline is refused (the cue costs 1-2 ms a frame
        with a white table in it). A card over no outline is not offered: on printed paper and
        text such cards are many, and name none. None where the hand-set cues are off or the
        frame is not a picture."""
        out: list[tuple[np.ndarray, ...]] = [() for _ in outlines]
        bgr = as_bgr(frame)
        if bgr is None or not outlines or not (self.config.hand_cues or self.outline is None):
            return out
        small, scale = shrunk_to(bgr, self.config.work_side)
        for quad in symmetric_cards(small):
            quad = order_corners(quad / scale)
            ious = [polygon_iou(quad, o) for o in outlines]
            best = int(np.argmax(ious))
            if PARAMS.looks.symmetric_over <= ious[best] < PARAMS.select.same_outline:
                out[best] = (quad, *out[best])
        return out

    def look_again(
        self, frame: np.ndarray, quads: Sequence[np.ndarray], gray: np.ndarray | None = None
    ) -> list[Detection]:
        """``quads`` taken from :attr:`Detection.alternates` as detections of their own (refined,
        faces warped, ``partial``, score 0), for when the winner's face could not be read: it may
        be a court card's picture, two cards taken for one or a card cut short by a hand, and a
        runner-up the card itself. ``gray`` is the frame in grey where the caller has it (naming
        looks again a few times a frame). A frame that is not a picture gives none."""
        bgr = as_bgr(frame)
        if bgr is None or not len(quads):
            return []
        if not self.config.refine:
            gray = None
        elif gray is None:
            gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        refined = refine_quads(gray, quads) if gray is not None else list(quads)
        return [Detection(order_corners(q), bgr, 0.0, True) for q in refined]

    def refit(self, frame: np.ndarray, quads: Sequence[np.ndarray]) -> list[np.ndarray | None]:
        """Each of ``quads`` (refused outlines, frame pixels) refitted to the edges within the
        refit's ``reach`` of its short side, twice (the first pass may move a side onto the
        card's edge only partly), or None where that moves no corner past ``moved`` (a second
        look would read the same crops). A frame that is not a picture gives no refit."""
        bgr = as_bgr(frame)
        if bgr is None:
            return [None] * len(quads)
        p = PARAMS.refit
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        ordered = [order_corners(quad) for quad in quads]
        reaches = [p.reach * float(np.linalg.norm(quad[1] - quad[0])) for quad in ordered]
        fitted = [order_corners(q) for q in refine_quads(gray, refine_quads(gray, ordered, reaches), reaches)]
        return [f if float(np.abs(f - quad).max()) > p.moved else None for f, quad in zip(fitted, ordered, strict=True)]


def _explained(card_pixels: np.ndarray, quads: list[np.ndarray], smallest: float) -> bool:
    """Whether ``card_pixels`` (the outline model's: :attr:`ModelPass.card`) lie within
    ``quads`` (the same pixels) but for under ``glance_unseen`` of a card in one piece (a card:
    the median quad, ``smallest`` where there is none)."""
    unseen = PARAMS.select.glance_unseen
    cover = np.zeros_like(card_pixels)
    for quad in quads:
        cv2.fillConvexPoly(cover, np.round(quad).astype(np.int32), 255)
    rest = cv2.bitwise_and(cv2.erode(card_pixels, _RIM), cv2.bitwise_not(cv2.dilate(cover, _RIM)))
    card = float(np.median(np.abs(shoelace(np.array(quads))))) if quads else smallest
    if cv2.countNonZero(rest) < unseen * card:
        return True  # no piece can be that large (labelling the pieces costs a glance 1-2 ms)
    stats = cv2.connectedComponentsWithStats(rest, connectivity=8)[2]
    return bool(stats[1:, cv2.CC_STAT_AREA].max() < unseen * card)


def _around(bgr: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card's bounding box of ``bgr`` and ``quad`` in its pixels: warping from it gives the
    same pixels as from the whole frame, at half the cost."""
    h, w = bgr.shape[:2]
    (x0, y0), (x1, y1) = np.floor(quad.min(axis=0)).astype(int).tolist(), np.ceil(quad.max(axis=0)).astype(int).tolist()
    x0, y0 = min(max(x0 - 2, 0), w - 1), min(max(y0 - 2, 0), h - 1)  # (Python's min and max: a
    x1, y1 = min(max(x1 + 3, 1), w), min(max(y1 + 3, 1), h)  # third of np.clip's time here)
    return bgr[y0:y1, x0:x1], quad - np.array([x0, y0], np.float32)
