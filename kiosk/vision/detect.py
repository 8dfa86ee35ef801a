"""Find card outlines in a frame: four corners per card (TL, TR, BR, BL, long side vertical)
and the warped face.

Several cues (:mod:`kiosk.vision.cues`: whiteness, whiteness less the edge map, regions enclosed
by edges, the outline model) propose outlines on a downscaled copy, and their candidates
compete. The outline model also vetoes the other cues' plain quads that lie mostly off what it
calls card (a white stripe, a sheet of paper).

An outline that is a quad of card aspect becomes a candidate, its corners fitted by lines on the
middle of its sides (rounded card corners do not pull them in). Outlines that are not quads
(cards overlapping, a hand across a card) are read for *visible corners*: two neighbouring right
angles give a whole side, one is enough once the card size is known from the cards seen whole;
the completed card must lie on the foreground with edges along at least two sides. A card whose
index corner shows therefore survives a covered outline. Non-maximum suppression keeps the best
candidates, and the corners are refined to sub-pixel on the full-resolution frame. What it sets
aside at a card's place is kept as that card's *alternates*, for a second look where the
identifier cannot read the winner (:mod:`kiosk.vision.naming`); a quad seen whole also offers
the two cards of which it may be the visible end (:func:`_card_ends`: the rest under a hand).
A refused outline on a white table may also be offered the card that the symmetry of the print
under it shows (:meth:`Detector.printed`): the card's own outline may not show there at all.
:meth:`Detector.glance` runs the outline model's cue alone, in a third of the time, and says
whether its outlines account for what the model calls card; :meth:`Detector.closer` adds the
other cues to it where they do not (:func:`kiosk.vision.naming.look` decides).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from kiosk.vision.cues import Cue, ModelPass, hand_cues, outline_cue
from kiosk.vision.face import cards_sides, darkest_channel, warp_face, warp_index_corners
from kiosk.vision.outline import OutlineModel, load_outline_model
from kiosk.vision.sources.base import checked_frame as as_bgr  # the frame check, for still images too
from kiosk.vision.symmetry import symmetric_cards

CARD_ASPECT = 88 / 63  # long side / short side of a standard (poker-size) card
_NEXT = np.array([1, 2, 3, 0])
#: With the outline model, a card completed from a corner by the hand-set cues must lie this much
#: on what it calls card: the model's union of cards holds a hidden card, a completion out over a
#: pale table (whiteness is everywhere) it does not; kept low, as the model is unsure of an ace on
#: stripes, which only a completion finds. A whole quad needs no such agreement: on real photos
#: the model misses plain cards on grained wood or carpet that the cues outline cleanly, and
#: the white margin, the identifier and the tracker already turn away paper and stripes.
COMPLETED_AGREEMENT = 0.3
MAX_MERGED_ASPECT = 2.6  # a longer model region is more than a card and a neighbour's strip
SOFT_FILL = 0.8  # share of its bounding rectangle a card region of the outline model fills
SOFT_NOTCHED = 0.6  # ... or at least this share, when its convex hull fills SOFT_FILL
SIZE_STEPS = (0.94, 1.0, 1.06)  # card sizes tried when completing a card from one corner
#: Score factor of a card from the outline model's regions: its soft maps place a card less surely
#: than a threshold's sharp outline, so where both see one card the sharp outline wins.
SOFT_SCORE = 0.85
#: A plain quad's score loses this many times the distance its contour's hull spills out of it
#: (over the square root of its area): a side fitted through an index that notches the printed
#: frame cuts a corner off the card, and that quad of about card aspect once won over the card's
#: own outline (a 7H under slight perspective outlined 18 px short at one corner).
SPILL = 3.0
#: A quad overlapping a kept one by this IoU is the same outline, not an alternate worth a look.
SAME_OUTLINE = 0.85
#: Alternates kept per quad: the runners-up worth a look are few, clutter offers many. Six
#: named 2 more edje-tfod ranks than four (a refused outline over two fanned cards may hide both,
#: ``naming``), held-out scenes and empty tables the same; eight 2 more edje-tfod ranks and 1 and
#: 3 more pile cards than six, once a frame reads 24 looks. Twelve, the four after the eighth
#: read only in looks left over (``naming.FIRST_ALTERNATES``): the card under another in a fan of
#: two may be a completion ninth or tenth behind near copies of the pair's outline (2 right
#: `edje-tfod` ranks more, piles the same; read in the usual order, 40 piles lost 2 cards and
#: named 1 wrongly).
MAX_ALTERNATES = 12
#: A card seen by its print's symmetry over a found outline of at least this IoU is read first
#: when that outline is refused (:meth:`Detector.printed`; the outline is then a loose one).
SYMMETRIC_OVER = 0.2
ALTERNATE_SIZE = 2.5  # the most an alternate's area may differ from its winner's, either way
#: An outline is completed only where at least this share of the smallest card is not yet
#: inside a card found whole (a card under others shows a corner of about this size).
UNEXPLAINED = 0.25
#: A card completed past the frame's edge must have at least this share of it in the frame.
MIN_IN_FRAME = 0.5
#: Completions that agree (corners within SAME_PLACE of the short side) each add AGREEMENT_BONUS
#: to one another's score, counted up to AGREEING: the card most corners point at wins a clash.
SAME_PLACE = 0.12
AGREEMENT_BONUS = 0.2
AGREEING = 3
#: A quad, whole or completed, under this share of the median area of the cards seen whole is
#: not a card (an index box, a pip, a corner of the picture), once at least TABLE_CARDS of them
#: set the table's size: cards on one table are at about the same distance from the camera.
SMALLEST_CARD = 0.3
TABLE_CARDS = 3
#: A table round a candidate at least this share of the frame's paper white is as white as paper.
WHITE_TABLE = 0.8
#: A region of the outline model this many times the median card area is two cards side by side.
PAIR_AREA = 1.6
#: A card's margin this many times as white as the table round it is paper even when it is far
#: from the frame's brightest white: a card in the shade of a lamp that lights one side of the
#: table (on a webcam frame, 75 against 252 beside 25-40 round it).
SHADED_PAPER = 1.6
#: A quad within a completed card and under this share of its area is a piece of it (an index
#: box, a pip, a corner of the picture): on edje-tfod such pieces, kept first, cost the covered
#: cards of fans (0.5 also cost held-out piles 7 of 320 cards: a card there may be half another).
PIECE = 0.3
#: A quad seen whole within another and under this share of its area is that card's index box or
#: a pip outlined on its own (3 to 6 % of a card): no clash, both are kept and named or refused
#: (on edje-tfod's IMG_2473 an ace lost the suppression to its index box, 4 % of it, scored higher).
INNER_PIECE = 0.1
#: A card completed from a whole side seen between two of its corners may lie partly under
#: something that is no card (a book, a rug, a game box on edje-tfod's photos), off the
#: foreground: it needs only this share on the foreground, not ``min_coverage``. Its score is
#: then OCCLUDED_SCORE times a completion's, so it fills a gap but never displaces a card seen on
#: the foreground, and once TABLE_CARDS cards seen whole set the table's card size it is at most
#: OCCLUDED_SIZE times that area (a completion spanning two cards is larger; with fewer cards the
#: size may be a piece's). The identifier decides: a completed card must be named surely
#: (``naming.COMPLETED_CONFIDENCE``).
OCCLUDED_COVERAGE = 0.5
OCCLUDED_SCORE = 0.5
OCCLUDED_SIZE = 1.3
#: Once TABLE_CARDS cards seen whole set the table's card size, any card completed from a partial
#: outline, or cut from a region the outline model merged, is at most this many times its area:
#: a larger one lies across a pile, and would replace a card seen whole inside it as a piece of
#: it (pile 900004: a jack of clubs on top lost to a quad 4.5 times a card cut from the model's
#: region of the whole pile). Held-out piles +4 cards, `edje-tfod` +1; 1.3 cut real completions
#: short (seven cards outlined less closely in 80 piles).
COMPLETED_SIZE = 2.0
#: A refused outline is also looked at refitted to the edges within this share of its short side
#: (:meth:`Detector.refit`; :func:`refine_quads`' own reach is 0.09 of its mean side): on a pale
#: table an outline may lie 16-50 px off its card, one side on a pip row or on the table, and
#: its index crops then cut the wrong place (held-out +3 names, piles +4,
#: `edje-tfod` +3, none wrong; 0.2 and 0.25 named fewer, and two or three reaches at once a
#: card or two more, or fewer where the frame's looks ran out, for 8-23 % more naming time).
REFIT_REACH = 0.15
#: A refit moving no corner further than this (pixels) is the outline as it was: not looked at.
REFIT_MOVED = 2.0
#: Windows across a fan (:func:`fan_slices`) lie this share of a card's width apart.
FAN_STEP = 0.1
#: A court card's picture frame across and along, as shares of the card's short and long
#: sides (a poker-size court: the index column beside the frame, narrow margins above and
#: below it): :func:`frame_card`.
FRAME_IN_CARD = (0.72, 0.85)
#: A glance (:meth:`Detector.glance`, the outline model alone) accounts for a frame where the
#: pixels the model calls card (not those it calls outline: glare and the gaps between cards
#: are half both to it), less a 3-px rim, lie outside every outline found (grown 3 px) over
#: less than this share of a card's area in one piece: elsewhere a card may lie that only the
#: hand-set cues outline.
GLANCE_UNSEEN = 0.05
_RIM = np.ones((7, 7), np.uint8)
#: Close-ups offered a frame at most (``DetectorConfig.close_up_area``): a picture filled by
#: one card holds no other of that size.
CLOSE_UPS = 1


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
    3-px rim, outside every outline found make no piece of GLANCE_UNSEEN of a card); with the
    BGR frame and the model's pass, for :meth:`Detector.closer` to reuse."""

    detections: list[Detection]
    explained: bool
    frame: np.ndarray | None
    model: ModelPass | None


@dataclass(frozen=True)
class DetectorConfig:
    """Knobs in units that do not depend on one table: fractions of the frame, ratios, angles."""

    work_side: int = 640  # long side of the analysis copy
    min_area: float = 0.003  # card area as a fraction of the frame
    max_area: float = 0.6
    #: A card filling more of the frame than ``max_area``, up to this, is a close-up (a photo of
    #: one card, a camera mounted low): offered apart from the cards of the usual size
    close_up_area: float = 0.95
    aspect_tolerance: float = 0.2  # accepted |log(aspect / CARD_ASPECT)|
    min_fill: float = 0.88  # contour area / quad area for a plain quad
    min_coverage: float = 0.95  # foreground share of a completed (partial) quad
    corner_angle: tuple[float, float] = (62.0, 118.0)  # degrees, a card corner under perspective
    nms_iou: float = 0.45
    max_cards: int = 32
    refine: bool = True
    outline_model: bool = True  # use models/outline.tflite when it is there
    hand_cues: bool = True  # the whiteness and edge cues (needed without the outline model)
    model_threads: int = 1  # threads the outline model may use (the kiosk's [vision] model_threads)


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
    side = np.linalg.norm(quad - quad[_NEXT], axis=1)
    short, long_ = (side[0] + side[2]) / 2, (side[1] + side[3]) / 2
    return float(long_ / max(short, 1e-6))


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    return _overlap(a, b)[0]


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

    def detect(self, frame: object) -> list[Detection]:
        """All cards found, best first. Unusable frames give an empty list, never an error."""
        bgr = as_bgr(frame)
        if bgr is None:
            return []
        return self._detections(bgr, self.find_quads(bgr))

    @staticmethod
    def _detections(
        bgr: np.ndarray, quads: list[tuple[np.ndarray, float, bool, tuple[np.ndarray, ...]]]
    ) -> list[Detection]:
        return [Detection(q, bgr, s, p, a) for q, s, p, a in quads]

    def glance(self, frame: object) -> Glance:
        """The cards the outline model alone outlines, in a third of :meth:`detect`'s time, and
        whether they account for what it calls card (:class:`Glance`). Where they do not, or
        where a card they outline cannot be read, the frame needs :meth:`closer`
        (:func:`kiosk.vision.naming.look`). Without the outline model it is :meth:`detect`."""
        bgr = as_bgr(frame)
        if bgr is None:
            return Glance([], True, None, None)
        quads, explained, model = self._quads(bgr, hand=self.outline is None)
        return Glance(self._detections(bgr, quads), explained, bgr, model)

    def closer(self, glance: Glance) -> list[Detection]:
        """:meth:`detect` of the frame ``glance`` was taken of, its outline model's pass reused."""
        if glance.frame is None:
            return []
        return self._detections(glance.frame, self._quads(glance.frame, hand=True, model=glance.model)[0])

    def find_quads(self, bgr: np.ndarray) -> list[tuple[np.ndarray, float, bool, tuple[np.ndarray, ...]]]:
        """(corners in frame pixels, score, partial, alternates) per card, without warping the
        faces; the alternates are unrefined, in frame pixels."""
        return self._quads(bgr, hand=self.config.hand_cues or self.outline is None)[0]

    def _quads(
        self, bgr: np.ndarray, hand: bool, model: ModelPass | None = None
    ) -> tuple[list[tuple[np.ndarray, float, bool, tuple[np.ndarray, ...]]], bool, ModelPass | None]:
        """:meth:`find_quads`' answer with the hand-set cues or without, whether the outline
        model's card pixels are accounted for (always, with the hand-set cues), and the outline
        model's pass (``model``, where it was run already)."""
        cfg = self.config
        small, scale = self._analysis_copy(bgr)
        area = float(small.shape[0] * small.shape[1])
        lo, hi = cfg.min_area * area, cfg.max_area * area
        white = darkest_channel(small)
        bright = float(np.percentile(white[::4, ::4], 97))
        cues: list[Cue] = []
        edges: np.ndarray = np.zeros(white.shape, np.uint8)
        model_mask = None
        if self.outline is not None:
            model = model or outline_cue(
                self.outline, small, lo, hi, lambda c: self._soft_quad(c, cv2.contourArea(c), lo, hi) is not None
            )
            cues.append(model.cue)  # first: its outline wins over the same card from another cue
            edges, model_mask = model.edges, model.cue.solid
        if hand:
            set_by_hand, canny = hand_cues(small, white, bright, lo, hi)
            cues += set_by_hand
            edges = cv2.max(edges, canny)
        candidates: list[tuple[np.ndarray, float, bool]] = []
        rest: list[tuple[np.ndarray, np.ndarray, bool]] = []  # (outline, solid, soft)
        boxes: list[tuple[int, int, int, int]] = []
        from_model: set[int] = set()  # ids of the candidates cut from the outline model's regions
        most = cfg.close_up_area * area
        close: list[tuple[np.ndarray, float, bool]] = []  # cards filling most of the frame
        for cue in cues:
            for cnt in cue.contours:
                a = cv2.contourArea(cnt)
                if not lo <= a <= 1.5 * hi:
                    continue
                x, y, bw, bh = cv2.boundingRect(cnt)
                if _same_box((x, y, bw, bh), boxes):
                    continue  # the same card through another cue
                # a card-shaped quad fills at least ~45% of its bounding box at any rotation;
                # less cannot be a plain card, and skips the hull of a tangle of edges
                plain = None
                if a >= 0.4 * bw * bh:
                    plain = self._soft_quad(cnt, a, lo, most) if cue.soft else self._quad(cnt, a, lo, most)
                if plain is not None and _on_frame_edge(plain[0], white.shape):
                    plain = None  # a side along the frame's edge is the frame's cut, not the card's
                if plain is not None and self.is_close_up(plain[0], white.shape):
                    close.append(plain)  # offered apart (below), the region as before
                    plain = None
                if plain is not None:
                    candidates.append(plain)
                    boxes.append((x, y, bw, bh))
                    if cue.soft:
                        from_model.add(id(plain))
                elif cue.solid is not None and a > lo * 1.5:
                    rest.append((cnt, cue.solid, cue.soft))
        candidates = _white_bordered(white, candidates, bright, from_model, (0.05, 0.025))
        size = _card_size([c[0] for c in candidates])
        table_sized = _table_sized(size, len(candidates))
        known = _table_card_size(size, len(candidates))
        hidden_most = completed_most = hi  # the largest half-hidden card and completed card
        if known is not None:
            hidden_most = min(hi, OCCLUDED_SIZE * known[0] * known[1])
            completed_most = min(hi, COMPLETED_SIZE * known[0] * known[1])
        candidates, completed = _split_pairs(candidates, size, edges, from_model)
        other_way: list[tuple[np.ndarray, float, bool]] = []  # completions a quarter turned
        for cnt, solid, soft in _unexplained(rest, candidates, white.shape, lo):
            quads, turned = self._partial_quads(cnt, solid, edges, lo, completed_most, size, hidden_most)
            if soft:
                quads += self._trimmed(cnt, edges, lo, hi, completed_most)
            factor = SOFT_SCORE if soft else 1.0
            completed += [(q, s * factor, p) for q, s, p in quads]
            other_way += [(q, s * factor, p) for q, s, p in turned]
        candidates += _agreed(_plausible_completions(completed, white, bright, model_mask))
        candidates = [c for c in candidates if table_sized(c[0])]
        spares = [c for c in _plausible_completions(other_way, white, bright, model_mask) if table_sized(c[0])]
        kept = _nms(candidates, cfg.nms_iou, spares)[: cfg.max_cards]
        # a close-up comes after the cards of the usual size, so that it neither sets their size
        # nor suppresses one: a pale worktop round a card is card-shaped too (edje-tfod IMG_2508)
        kept += _nms(_white_bordered(white, close, bright, insets=(0.05, 0.025)), cfg.nms_iou)[:CLOSE_UPS]
        full_gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if cfg.refine else None
        # the table's card size from the quads kept whole (one per place), else from the candidates
        whole = [quad for quad, _, partial, _ in kept if not partial]
        table_card = _table_card_size(_card_size(whole), len(whole)) or known
        outlines = [quad / scale for quad, _, _, _ in kept]
        if full_gray is not None:
            outlines = refine_quads(full_gray, outlines)
        out = []
        for q, (quad, score, partial, alternates) in zip(outlines, kept, strict=True):
            if not partial:
                alternates = [*alternates, *_card_ends(quad, table_card)]
            out.append((order_corners(q), score, partial, tuple(a / scale for a in alternates)))
        return out, hand or model is None or _explained(model.card, [quad for quad, _, _, _ in kept], lo), model

    def is_close_up(self, quad: np.ndarray, shape: tuple[int, ...]) -> bool:
        """Whether ``quad`` fills more of a picture of ``shape`` than the cards of the usual size
        do (``DetectorConfig.max_area``): a close-up, offered apart from them."""
        return bool(cv2.contourArea(np.asarray(quad, np.float32)) > self.config.max_area * shape[0] * shape[1])

    def _analysis_copy(self, bgr: np.ndarray) -> tuple[np.ndarray, float]:
        """The frame at :attr:`DetectorConfig.work_side` on its long side (:func:`shrunk_to`)."""
        return shrunk_to(bgr, self.config.work_side)

    def printed(self, frame: np.ndarray, outlines: Sequence[np.ndarray]) -> list[tuple[np.ndarray, ...]]:
        """Per outline of ``outlines`` (frame pixels), the cards that the symmetry of the print
        shows over it (:mod:`kiosk.vision.symmetry`) and over no other of them more, without
        outlining it again (IoU from :data:`SYMMETRIC_OVER` to :data:`SAME_OUTLINE`): on a white
        table in light that clips it a card's own outline may not show, and the outline found
        there is a loose one. Naming asks for them once an outline is refused (the cue costs
        1-2 ms a frame with a white table in it). A card over no outline is not offered: on
        `edje-tfod`'s photos (printed paper, text) such cards were 309 more outlines, none named;
        on held-out scenes they named none either. None where the hand-set cues are off or the
        frame is not a picture."""
        out: list[tuple[np.ndarray, ...]] = [() for _ in outlines]
        bgr = as_bgr(frame)
        if bgr is None or not outlines or not (self.config.hand_cues or self.outline is None):
            return out
        small, scale = self._analysis_copy(bgr)
        for quad in symmetric_cards(small):
            quad = order_corners(quad / scale)
            ious = [polygon_iou(quad, o) for o in outlines]
            best = int(np.argmax(ious))
            if SYMMETRIC_OVER <= ious[best] < SAME_OUTLINE:
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
        """Each of ``quads`` (refused outlines, frame pixels) refitted to the edges within
        REFIT_REACH of its short side, twice (the first pass may move a side onto the card's
        edge only partly), or None where that moves no corner past REFIT_MOVED (a second look
        would read the same crops). A frame that is not a picture gives no refit."""
        bgr = as_bgr(frame)
        if bgr is None:
            return [None] * len(quads)
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        ordered = [order_corners(quad) for quad in quads]
        reaches = [REFIT_REACH * float(np.linalg.norm(quad[1] - quad[0])) for quad in ordered]
        fitted = [order_corners(q) for q in refine_quads(gray, refine_quads(gray, ordered, reaches), reaches)]
        return [
            f if float(np.abs(f - quad).max()) > REFIT_MOVED else None for f, quad in zip(fitted, ordered, strict=True)
        ]

    def _quad(self, cnt: np.ndarray, area: float, lo: float, hi: float) -> tuple[np.ndarray, float, bool] | None:
        """A plain card: the contour is a convex quad of card aspect that it fills."""
        hull = cv2.convexHull(cnt)  # an index touching the outline notches it; the hull does not
        approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        if len(approx) != 4 or not cv2.isContourConvex(approx):
            return None
        rough = approx.reshape(4, 2).astype(np.float32)
        if area < 0.7 * cv2.contourArea(rough):
            return None
        quad = _fit_sides(cnt.reshape(-1, 2).astype(np.float32), approx.reshape(4, 2))
        if quad is None:
            return None
        qa = cv2.contourArea(quad)
        if not lo <= qa <= hi:
            return None
        fill = area / max(qa, 1e-6)
        aspect = quad_aspect(order_corners(quad))
        if fill < self.config.min_fill or not self._aspect_ok(aspect):
            return None
        spill = _spill(quad, hull.reshape(-1, 2)) / np.sqrt(qa)
        return quad, min(fill, 1.0) - abs(np.log(aspect / CARD_ASPECT)) - SPILL * spill, False

    def _soft_quad(self, cnt: np.ndarray, area: float, lo: float, hi: float) -> tuple[np.ndarray, float, bool] | None:
        """A card from a soft outline (the outline model's: right where the card is, but its
        corners rounded and its sides a pixel or two off): the smallest rectangle round it, if
        the region (or, where it is notched, its hull) fills it and it has card aspect. The
        refinement on the full frame then puts each side on the card's edge."""
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(cnt)
        quad = cv2.boxPoints(((cx, cy), (rw, rh), angle)).astype(np.float32)
        qa = rw * rh
        if not lo <= qa <= hi or area < SOFT_NOTCHED * qa:
            return None
        # a plain card with little ink (an ace, a three) leaves the model unsure inside, so its
        # region may be notched: the hull must fill the rectangle, the region most of it
        if area < SOFT_FILL * qa and cv2.contourArea(cv2.convexHull(cnt)) < SOFT_FILL * qa:
            return None
        aspect = max(rw, rh) / max(min(rw, rh), 1e-6)
        if not self._aspect_ok(aspect):
            return None
        return quad, SOFT_SCORE * (min(area / qa, 1.0) - abs(np.log(aspect / CARD_ASPECT))), False

    def _trimmed(
        self, cnt: np.ndarray, edges: np.ndarray, lo: float, hi: float, most: float
    ) -> list[tuple[np.ndarray, float, bool]]:
        """A card the outline model merged with a pale neighbour along one side (a white stripe,
        a sheet of paper): its region is a filled rectangle too long or too square for a card. A
        card-sized rectangle at either end of it, each scored by how much of its outline is on
        edges (the cut side is the card's own edge only at the right end); none larger than
        ``most`` (a region of a whole pile gives rectangles of several cards)."""
        rect = cv2.minAreaRect(cnt)
        box = cv2.boxPoints(rect).astype(np.float32)
        rw, rh = rect[1]
        if not lo <= rw * rh <= 2 * hi or cv2.contourArea(cv2.convexHull(cnt)) < SOFT_FILL * rw * rh:
            return []
        aspect = max(rw, rh) / max(min(rw, rh), 1e-6)
        if self._aspect_ok(aspect) or aspect > MAX_MERGED_ASPECT:
            return []
        a, b = box[1] - box[0], box[2] - box[1]  # the rectangle's two axes
        la, lb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
        long_is_a = la >= lb
        too_long = aspect > CARD_ASPECT
        # too long: cut the long axis to card length; too square: cut the short axis to width
        cut_a = long_is_a == too_long
        length = min(la, lb) * CARD_ASPECT if too_long else max(la, lb) / CARD_ASPECT
        if cut_a:
            u = a / la * length
            quads = np.stack([[box[0], box[0] + u, box[3] + u, box[3]], [box[1] - u, box[1], box[2], box[2] - u]])
        else:
            u = b / lb * length
            quads = np.stack([[box[0], box[1], box[1] + u, box[0] + u], [box[3] - u, box[2] - u, box[2], box[3]]])
        quads = quads.astype(np.float32)
        support = _edge_support(edges, quads).mean(axis=1)
        return [
            (q, 0.8 * float(sup), True)
            for q, sup in zip(quads, support, strict=True)
            if lo <= abs(cv2.contourArea(q)) <= most
        ]

    def _aspect_ok(self, aspect: float) -> bool:
        return abs(np.log(aspect / CARD_ASPECT)) <= self.config.aspect_tolerance

    def _partial_quads(
        self,
        cnt: np.ndarray,
        mask: np.ndarray,
        edges: np.ndarray,
        lo: float,
        hi: float,
        size: tuple[float, float] | None,
        hidden_most: float,
    ) -> tuple[list[tuple[np.ndarray, float, bool]], list[tuple[np.ndarray, float, bool]]]:
        """Cards completed from the visible corners of a non-quad outline (cards overlapping,
        a hand across a card). Two neighbouring right-angle corners give one whole side, short
        or long; once the frame's card size is known (from the cards seen whole), a single
        visible corner is enough. Each completion comes both ways round (the side or corner
        taken as a card's width, or as its length), scored by how much it lies on the foreground
        and how well edges support its sides. Returns (the better of each pair, the other of
        each pair): the first compete for a place, the second are only alternates, read where
        the first is refused (a card whose far end lies under something is better supported
        completed from its visible end a quarter turned, its index crops on blank paper).
        One from a whole side may run under an object that is no card
        (OCCLUDED_COVERAGE), at a lower score, if its area is at most ``hidden_most``."""
        cfg = self.config
        peri = cv2.arcLength(cnt, True)
        poly = cv2.approxPolyDP(cnt, 0.01 * peri, True).reshape(-1, 2).astype(np.float32)
        n = len(poly)
        if n < 4 or n > 48:
            return [], []
        if cv2.contourArea(poly, oriented=True) < 0:  # make the polygon clockwise (y down)
            poly = poly[::-1].copy()
        prev = np.roll(poly, 1, axis=0) - poly
        nxt = np.roll(poly, -1, axis=0) - poly
        norm_p = np.linalg.norm(prev, axis=1) + 1e-6
        norm_n = np.linalg.norm(nxt, axis=1) + 1e-6
        cos = (prev * nxt).sum(axis=1) / (norm_p * norm_n)
        angle = np.degrees(np.arccos(np.clip(cos, -1, 1)))
        cross = prev[:, 0] * nxt[:, 1] - prev[:, 1] * nxt[:, 0]
        corner = (cross < 0) & (angle >= cfg.corner_angle[0]) & (angle <= cfg.corner_angle[1])
        h, w = mask.shape
        corner &= (poly[:, 0] > 2) & (poly[:, 1] > 2) & (poly[:, 0] < w - 3) & (poly[:, 1] < h - 3)
        # (where the frame cuts a region off, its corners are the frame's, not a card's)
        u_prev, u_next = prev / norm_p[:, None], nxt / norm_n[:, None]
        options: list[np.ndarray] = []  # pairs of completions, both ways round
        at = np.flatnonzero(corner)
        for i in at:
            j = (i + 1) % n
            if corner[j]:  # a whole side between two corners
                side = float(norm_n[i])
                options += [
                    np.array(
                        [[poly[i], poly[j], poly[j] + u_next[j] * side * r, poly[i] + u_prev[i] * side * r]],
                        dtype=np.float32,
                    )
                    for r in (CARD_ASPECT, 1 / CARD_ASPECT)
                ]
        sided = len(options)  # one quad each: the whole-side completions, which may run under things
        if size is not None and len(at):  # one corner and the known card size, give or take 6 %
            # (cards nearer the camera look larger); both ways round, pairs side by side
            dims = np.array([(sa * k, sb * k) for k in SIZE_STEPS for sa, sb in (size, size[::-1])], np.float32)
            v = poly[at][:, None, :]
            a = u_next[at][:, None, :] * dims[None, :, :1]
            b = u_prev[at][:, None, :] * dims[None, :, 1:]
            options.append(np.stack([v + 0 * a, v + a, v + a + b, v + b], axis=2).reshape(-1, 4, 2).astype(np.float32))
        if not options:
            return [], []
        quads = np.concatenate(options)  # (2H, 4, 2)
        area = np.abs(_shoelace(quads))
        ok = (area >= lo) & (area <= hi) & _convex(quads)
        support = np.zeros((len(quads), 4))
        support[ok] = np.sort(_edge_support(edges, quads[ok]), axis=1)
        ok &= support[:, 2] >= 0.5  # two sides at least are outlines; the others may be covered
        cover = np.zeros(len(quads))
        cover[ok] = _coverage(mask, quads[ok])  # (the dearest test, on the fewest)
        whole = cover >= cfg.min_coverage
        hidden = ~whole & (np.arange(len(quads)) < sided) & (cover >= OCCLUDED_COVERAGE) & (area <= hidden_most)
        ok &= whole | hidden
        score = np.where(ok, support.mean(axis=1) * np.where(whole, 1.0, OCCLUDED_SCORE), -1.0).reshape(-1, 2)
        best = score.argmax(axis=1)
        found = [
            [(quads[2 * h + k], 0.8 * float(score[h, k]), True) for h, k in enumerate(side) if score[h, k] >= 0]
            for side in (best, 1 - best)
        ]
        return found[0], found[1]


def _explained(card_pixels: np.ndarray, quads: list[np.ndarray], smallest: float) -> bool:
    """Whether ``card_pixels`` (the outline model's: :attr:`ModelPass.card`) lie within
    ``quads`` (the same pixels) but for under GLANCE_UNSEEN of a card in one piece (a card: the
    median quad, ``smallest`` where there is none)."""
    cover = np.zeros_like(card_pixels)
    for quad in quads:
        cv2.fillConvexPoly(cover, np.round(quad).astype(np.int32), 255)
    rest = cv2.bitwise_and(cv2.erode(card_pixels, _RIM), cv2.bitwise_not(cv2.dilate(cover, _RIM)))
    card = float(np.median(np.abs(_shoelace(np.array(quads))))) if quads else smallest
    if cv2.countNonZero(rest) < GLANCE_UNSEEN * card:
        return True  # no piece can be that large (labelling the pieces costs a glance 1-2 ms)
    stats = cv2.connectedComponentsWithStats(rest, connectivity=8)[2]
    return bool(stats[1:, cv2.CC_STAT_AREA].max() < GLANCE_UNSEEN * card)


def _unexplained(
    rest: list[tuple[np.ndarray, np.ndarray, bool]],
    found: list[tuple[np.ndarray, float, bool]],
    shape: tuple[int, int],
    lo: float,
) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """The (outline, solid, soft) entries of ``rest`` whose outline has at least a card corner's
    worth outside the cards already found whole.

    Completing a partial outline is the detector's dearest step; an outline lying (nearly) all
    inside cards already found (the same card seen by another cue, a card's picture, a pile whose
    cards were all found) cannot hold another card, so it is skipped."""
    if not rest or not found:
        return rest
    covered = np.zeros(shape, np.uint8)
    cv2.fillPoly(covered, [np.round(q).astype(np.int32) for q, _, _ in found], 255)
    out = []
    for item in rest:
        cnt = item[0]
        x, y, w, h = cv2.boundingRect(cnt)
        own = np.zeros((h, w), np.uint8)
        cv2.drawContours(own, [cnt], -1, 255, cv2.FILLED, offset=(-x, -y))
        left = cv2.countNonZero(cv2.bitwise_and(own, cv2.bitwise_not(covered[y : y + h, x : x + w])))
        if left >= UNEXPLAINED * lo:
            out.append(item)
    return out


def _agreed(cands: list[tuple[np.ndarray, float, bool]]) -> list[tuple[np.ndarray, float, bool]]:
    """Completed cards, each score raised for every other completion that puts the same card in
    the same place (up to :data:`AGREEING`): a real card is completed alike from several of its
    corners, a wrong completion (a stripe or a neighbour's edge taken for a side) from one."""
    if len(cands) < 2:
        return cands
    q = np.stack([c[0] for c in cands])
    short = np.minimum(np.linalg.norm(q[:, 1] - q[:, 0], axis=1), np.linalg.norm(q[:, 2] - q[:, 1], axis=1))
    reach = SAME_PLACE * short
    # only pairs whose bounding boxes agree within the reach can (hundreds of completions, few pairs)
    low, high = q.min(axis=1), q.max(axis=1)
    near = (
        (low[:, None] >= low[None] - reach[:, None, None]) & (high[:, None] <= high[None] + reach[:, None, None])
    ).all(axis=2)
    np.fill_diagonal(near, False)
    i, j = np.nonzero(near)
    # for each corner of one quad the nearest corner of the other; the farthest of those four
    gap = np.linalg.norm(q[i][:, :, None] - q[j][:, None, :], axis=-1).min(axis=2).max(axis=1)
    same = np.bincount(i[gap < reach[i]], minlength=len(q))
    return [
        (quad, score * (1 + AGREEMENT_BONUS * min(int(k), AGREEING)), partial)
        for (quad, score, partial), k in zip(cands, same, strict=True)
    ]


def _shoelace(quads: np.ndarray) -> np.ndarray:
    """Signed areas of (N, 4, 2) quads."""
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * (x * y[:, _NEXT] - x[:, _NEXT] * y).sum(axis=1)


def _convex(quads: np.ndarray) -> np.ndarray:
    """Whether each (N, 4, 2) quad turns the same way at every corner."""
    e = quads[:, _NEXT] - quads
    cross = e[..., 0] * e[:, _NEXT, 1] - e[..., 1] * e[:, _NEXT, 0]
    return (cross > 0).all(axis=1) | (cross < 0).all(axis=1)


def _table_card_size(size: tuple[float, float] | None, whole: int) -> tuple[float, float] | None:
    """``size``, the median of the ``whole`` cards seen whole, once there are TABLE_CARDS of them;
    else None: one or two quads seen whole may be pieces of a card (an index box), not cards."""
    return size if size is not None and whole >= TABLE_CARDS else None


def _table_sized(size: tuple[float, float] | None, whole: int) -> Callable[[np.ndarray], bool]:
    """A test that a quad is big enough to be a card beside the ``whole`` cards seen, of median
    ``size`` (SMALLEST_CARD); with fewer than TABLE_CARDS of them every quad passes."""
    known = _table_card_size(size, whole)
    if known is None:
        return lambda quad: True
    smallest = SMALLEST_CARD * known[0] * known[1]
    return lambda quad: cv2.contourArea(quad) >= smallest


def _card_ends(quad: np.ndarray, known: tuple[float, float] | None) -> list[np.ndarray]:
    """The two cards of which ``quad`` may be the visible end: a card whose other end lies under a
    hand shows a strip as wide as the card and about half as long, itself of card aspect turned
    a quarter (its long side is the card's width), so it is outlined as a card of its own and
    read crosswise. Each long side of ``quad`` taken as the card's far edge, the card runs its
    full length across the other; the one lying under the hand reads the index at its visible
    end. Only once the table's card size is ``known``, and for a quad whose long side is that
    width: a quad over two overlapping cards, run on, read a card's index a card away."""
    o = order_corners(quad)
    width = float(np.linalg.norm(o[2] - o[1]))
    if known is None or not 0.85 * known[0] <= width <= 1.15 * known[0]:
        return []
    out = []
    for edge, other in ((o[[1, 2]], o[[0, 3]]), (o[[3, 0]], o[[2, 1]])):
        across = (other - edge).mean(axis=0)
        step = across / max(float(np.linalg.norm(across)), 1e-6) * width * CARD_ASPECT
        out.append(np.array([edge[0], edge[1], edge[1] + step, edge[0] + step], np.float32))
    return out


def fan_ends(quad: np.ndarray) -> list[np.ndarray]:
    """The two cards at the ends of ``quad`` taken as a fan: cards held or laid fanned side by
    side, their top and bottom edges running on in one line, make one quad as long as the cards
    and wider than one, often of card aspect crosswise. Each short side of ``quad`` taken as a
    card's long side, the card runs that length over CARD_ASPECT into it: the top card of the fan,
    seen whole at one end, and the card under it at the other, its index in view. (A quad of one
    card gives two halves of it crosswise, which read as nothing.) Each corner steps along its own
    side of the quad, keeping its perspective; :func:`_card_ends`' one direction for both corners
    named 3 fewer `edje-tfod` cards, and its cards running past the quad lose a covered card
    with this geometry, so the two keep their own steps."""
    o = order_corners(quad)
    near, far = o[[0, 1]], o[[3, 2]]  # its two short sides, corner facing corner
    card = float(np.linalg.norm(near[1] - near[0]) + np.linalg.norm(far[1] - far[0])) / 2 / CARD_ASPECT
    step = card / max(float(np.linalg.norm(far - near, axis=1).mean()), 1e-6) * (far - near)
    return [
        np.array([near[0], near[1], near[1] + step[1], near[0] + step[0]], np.float32),
        np.array([far[0] - step[0], far[1] - step[1], far[1], far[0]], np.float32),
    ]


def fan_slices(quad: np.ndarray) -> list[np.ndarray]:
    """The cards between :func:`fan_ends` of ``quad`` taken as a fan of three or more: the
    middle cards show only a strip, their own long sides inside the fan's outline, where no
    outline or completion follows them. Windows of a card's size every FAN_STEP of its width
    from one end to the other, for :meth:`Detector.look_again` to refine onto the edge
    nearest each side (its reach is about that step): the card under the top one of
    `edje-tfod`'s IMG_2655 shows its index at its own edge, and a window there reads it."""
    near, far = fan_ends(quad)
    width = float(np.linalg.norm(near[3] - near[0]))
    travel = float(np.linalg.norm((far - near).mean(axis=0)))
    n = int(travel / max(FAN_STEP * width, 1e-6))
    return [(near + t * (far - near)).astype(np.float32) for t in np.linspace(0, 1, n + 2)[1:-1]]


def frame_card(quad: np.ndarray) -> np.ndarray:
    """The card round ``quad`` taken as a court card's picture frame: card-shaped, centred in its
    card and :data:`FRAME_IN_CARD` of its size, so on a table as pale as the card it may be the
    only outline found, and its corners hold pictures, not indices (`edje-tfod`
    IMG_2477's queen of spades on a cream cloth). Grown about its centre along its own sides,
    for :meth:`Detector.look_again` to refine onto the card's edges."""
    o = order_corners(quad)
    centre = o.mean(axis=0)
    across = (o[1] - o[0] + o[2] - o[3]) / 2  # along its short sides (TL->TR is the short side)
    along = (o[3] - o[0] + o[2] - o[1]) / 2
    grown = np.tile(centre, (4, 1))
    for axis, share in ((across, FRAME_IN_CARD[0]), (along, FRAME_IN_CARD[1])):
        unit = axis / max(float(np.linalg.norm(axis)), 1e-6)
        grown += ((o - centre) @ unit)[:, None] * unit / share
    return grown.astype(np.float32)


def _split_pairs(
    cands: list[tuple[np.ndarray, float, bool]],
    size: tuple[float, float] | None,
    edges: np.ndarray,
    from_model: set[int],
) -> tuple[list[tuple[np.ndarray, float, bool]], list[tuple[np.ndarray, float, bool]]]:
    """(whole, completed): a quad from the outline model's regions (``from_model``: ids of
    candidates) of at least PAIR_AREA times the table's card area, once TABLE_CARDS cards set
    it, is two cards side by side that the model merged (on a white cloth it does: two poker
    cards side by side are 1.43 times as long as wide, a card 1.40). When both card-sized ends
    have an outline on their inner side too (the gap between the cards), they replace it,
    scored by the edges along their outlines as completions are. The hand-set cues' quads are
    not cut: they part touching cards along their edges already, and on a real photo of one
    card on carpet, where the quads seen whole are carpet, a carpet quad twice their size was
    cut in two across a king."""
    known = _table_card_size(size, len(cands))
    if known is None:
        return cands, []
    whole, halves = [], []
    for cand in cands:
        quad = cand[0]
        if id(cand) not in from_model or abs(cv2.contourArea(quad)) < PAIR_AREA * known[0] * known[1]:
            whole.append(cand)
            continue
        o = order_corners(quad)  # o[0] -> o[1] the short side of the pair: the cards' long side
        across = o[3] - o[0]
        span = across / max(float(np.linalg.norm(across)), 1e-6) * float(np.linalg.norm(o[1] - o[0])) / CARD_ASPECT
        quads = np.stack([[o[0], o[1], o[1] + span, o[0] + span], [o[3] - span, o[2] - span, o[2], o[3]]]).astype(
            np.float32
        )
        support = _edge_support(edges, quads)
        if min(support[0, 2], support[1, 0]) < 0.5:  # no gap between two cards: one big card
            whole.append(cand)
            continue
        halves += [(q, 0.8 * float(sup), True) for q, sup in zip(quads, support.mean(axis=1), strict=True)]
    return whole, halves


def _card_size(quads: list[np.ndarray]) -> tuple[float, float] | None:
    """Median (short, long) side of the cards seen whole: cards on one table look alike."""
    if not quads:
        return None
    short, long_ = np.median(cards_sides(np.stack([order_corners(q) for q in quads])), axis=0)
    return float(short), float(long_)


def _edge_support(edges: np.ndarray, quads: np.ndarray, n: int = 16) -> np.ndarray:
    """Per quad and side (N, 4), the share of its points (away from the corners) inside the
    frame that lie on an edge pixel; a side wholly off the frame has none."""
    h, w = edges.shape
    t = np.linspace(0.1, 0.9, n, dtype=np.float32)[None, None, :, None]
    pts = quads[:, :, None, :] + t * (quads[:, _NEXT] - quads)[:, :, None, :]  # (N, 4, n, 2)
    inside = _in_frame(pts, w, h)
    xs = np.clip(pts[..., 0].astype(np.int32), 0, w - 1)
    ys = np.clip(pts[..., 1].astype(np.int32), 0, h - 1)
    return ((edges[ys, xs] > 0) & inside).sum(axis=2) / np.maximum(inside.sum(axis=2), 1)


def _on_frame_edge(quad: np.ndarray, shape: tuple[int, ...], tol: float = 1.5) -> bool:
    """Whether a side of ``quad`` runs along an edge of a frame of ``shape`` (both its ends
    within ``tol`` pixels of the same edge)."""
    h, w = shape[:2]
    pts = [(float(x), float(y)) for x, y in quad]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
        if max(x0, x1) <= tol or max(y0, y1) <= tol or min(x0, x1) >= w - 1 - tol or min(y0, y1) >= h - 1 - tol:
            return True
    return False


def _in_frame(pts: np.ndarray, w: int, h: int) -> np.ndarray:
    return (pts[..., 0] >= 0) & (pts[..., 0] < w) & (pts[..., 1] >= 0) & (pts[..., 1] < h)


def _around(bgr: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card's bounding box of ``bgr`` and ``quad`` in its pixels: warping from it gives the
    same pixels as from the whole frame, at half the cost."""
    h, w = bgr.shape[:2]
    (x0, y0), (x1, y1) = np.floor(quad.min(axis=0)).astype(int).tolist(), np.ceil(quad.max(axis=0)).astype(int).tolist()
    x0, y0 = min(max(x0 - 2, 0), w - 1), min(max(y0 - 2, 0), h - 1)  # (Python's min and max: a
    x1, y1 = min(max(x1 + 3, 1), w), min(max(y1 + 3, 1), h)  # third of np.clip's time here)
    return bgr[y0:y1, x0:x1], quad - np.array([x0, y0], np.float32)


def _fit_sides(points: np.ndarray, approx: np.ndarray) -> np.ndarray | None:
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
    corners, crossing = _line_corners(_fit_lines(padded, use))
    if not crossing.all():
        return None
    result = corners.astype(np.float32)
    # a line fit must not move a corner far from where the polygon put it
    tol = 0.15 * np.sqrt(max(cv2.contourArea(approx), 1.0))
    if np.abs(result - approx).max() > tol:
        return None
    return result


def _spill(quad: np.ndarray, points: np.ndarray) -> float:
    """How far (pixels) the farthest of ``points`` lies outside the convex ``quad``."""
    q = quad.astype(np.float64)
    edge = q[_NEXT] - q
    rel = points.astype(np.float64)[:, None, :] - q[None]
    cross = (edge[None, :, 0] * rel[..., 1] - edge[None, :, 1] * rel[..., 0]) / np.linalg.norm(edge, axis=1)
    inward = np.sign(_shoelace(q[None])[0])  # the sign of a point inside, by the quad's turn
    return float(max(0.0, (-inward * cross).max()))


def _fit_lines(points: np.ndarray, use: np.ndarray, keep: float = 1.5) -> np.ndarray:
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
    """:func:`_fit_lines`' one pass: the lines (M, 4) and each point's distance across its
    row's line (M, K; 0 for the points not used)."""
    weight = use.astype(np.float64)
    n = weight.sum(axis=1)
    cx, cy = (pts[..., 0] * weight).sum(axis=1) / n, (pts[..., 1] * weight).sum(axis=1) / n
    dx, dy = (pts[..., 0] - cx[:, None]) * weight, (pts[..., 1] - cy[:, None]) * weight
    theta = 0.5 * np.arctan2(2 * (dx * dy).sum(axis=1), (dx * dx - dy * dy).sum(axis=1))
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([c, s, cx, cy], axis=1), dx * s[:, None] - dy * c[:, None]


def _line_corners(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each line of ``lines`` (..., 4, 4: vx, vy, x0, y0 of a quad's sides in order)
    meets the one before it, the quad's corners (..., 4, 2), and whether they cross there
    (parallel lines do not)."""
    vx1, vy1, x1, y1 = np.moveaxis(np.roll(lines, 1, axis=-2), -1, 0)
    vx2, vy2, x2, y2 = np.moveaxis(lines, -1, 0)
    det = vx1 * (-vy2) - vy1 * (-vx2)
    crossing = np.abs(det) >= 1e-6
    t = ((x2 - x1) * (-vy2) - (y2 - y1) * (-vx2)) / np.where(crossing, det, 1.0)
    return np.stack([x1 + t * vx1, y1 + t * vy1], axis=-1), crossing


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
    vec = q[:, _NEXT] - q
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
    lines[found] = _fit_lines(moved[found], ok[found])
    # each corner where the lines of its two sides meet, where both sides found their edge
    # and it moves no more than 2 r
    corners, crossing = _line_corners(lines)
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


def _rings(quads: np.ndarray, inset: float, n: int = 10) -> np.ndarray:
    """``4 * n`` points per (N, 4, 2) quad on the quad shrunk (inset > 0) or grown (inset < 0)
    about its centre: (N, 4 * n, 2)."""
    c = quads.mean(axis=1, keepdims=True)
    q = c + (quads - c) * (1 - inset)
    t = np.linspace(0.15, 0.85, n, dtype=np.float32)[None, None, :, None]
    return (q[:, :, None, :] + t * (q[:, _NEXT] - q)[:, :, None, :]).reshape(len(quads), -1, 2)


def _plausible_completions(
    cands: list[tuple[np.ndarray, float, bool]], white: np.ndarray, bright: float, model_mask: np.ndarray | None
) -> list[tuple[np.ndarray, float, bool]]:
    """The completed cards that look like a card: a white paper margin and, given the model's
    ``model_mask``, at least :data:`COMPLETED_AGREEMENT` of it on what the model calls card or
    outline."""
    cands = _white_bordered(white, cands, bright)
    if model_mask is not None and cands:
        on = _coverage(model_mask, np.stack([c[0] for c in cands]))
        cands = [c for c, share in zip(cands, on, strict=True) if share >= COMPLETED_AGREEMENT]
    return cands


def _white_bordered(
    white: np.ndarray,
    cands: list[tuple[np.ndarray, float, bool]],
    bright: float,
    from_model: set[int] | None = None,
    insets: tuple[float, ...] = (0.05,),
) -> list[tuple[np.ndarray, float, bool]]:
    """The candidates whose margin looks like white paper: not darker than what surrounds it,
    and among the brightest things in the frame (this drops dark or coloured regions that
    happen to be quads) or, in the shade, :data:`SHADED_PAPER` times as white as round it. The
    margin is looked at each of ``insets`` inside the outline, the whitest counting: a card seen
    whole is also looked at 2.5 % in, for a L'Affiche Belge poster leaves a white border of a
    twentieth of the card's width (a completion is not: over a card's pips, a guessed outline's
    rim then finds that card's paper). On a table as white as paper the test tells nothing, and
    the outline model outlines such a card by its poster, the border lost in the table: a
    candidate of the model's (ids in ``from_model``) is kept there."""
    if not cands:
        return []
    h, w = white.shape
    quads = np.stack([c[0] for c in cands])

    def medians(pts: np.ndarray) -> np.ndarray:
        xs = np.clip(pts[..., 0].astype(np.int32), 0, w - 1)
        ys = np.clip(pts[..., 1].astype(np.int32), 0, h - 1)
        return np.median(white[ys, xs], axis=1)

    inner = np.max([medians(_rings(quads, inset)) for inset in insets], axis=0)
    outer = medians(_rings(quads, -0.06))
    paper = (inner >= outer - 35) & ((inner >= 0.35 * bright) | (inner >= SHADED_PAPER * outer))
    model = np.array([id(c) in (from_model or ()) for c in cands], bool)
    keep = paper | (model & (outer >= WHITE_TABLE * bright))
    return [c for c, k in zip(cands, keep, strict=True) if k]


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


_GRID = np.linspace(0.04, 0.96, 11, dtype=np.float32)
_GU, _GV = (g.ravel() for g in np.meshgrid(_GRID, _GRID))


def _coverage(mask: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Per (N, 4, 2) quad, the share of an 11x11 grid of points inside it that lie on the
    foreground ``mask``, counting only the points inside the frame (a card may run off it) but
    0 for a quad that is mostly off the frame."""
    p0, p1, p2, p3 = (quads[:, k, None, :] for k in range(4))
    top = p0 + _GU[None, :, None] * (p1 - p0)
    bottom = p3 + _GU[None, :, None] * (p2 - p3)
    pts = top + _GV[None, :, None] * (bottom - top)  # (N, 121, 2)
    h, w = mask.shape
    inside = _in_frame(pts, w, h)
    xs = np.clip(pts[..., 0].astype(np.int32), 0, w - 1)
    ys = np.clip(pts[..., 1].astype(np.int32), 0, h - 1)
    seen = inside.sum(axis=1)
    share = ((mask[ys, xs] > 0) & inside).sum(axis=1) / np.maximum(seen, 1)
    return np.where(seen >= MIN_IN_FRAME * inside.shape[1], share, 0.0)


#: A quad kept by :func:`_nms`: corners, score, partial, bounding box, alternates.
_Kept = tuple[np.ndarray, float, bool, np.ndarray, list[np.ndarray]]


def _nms(
    cands: list[tuple[np.ndarray, float, bool]], iou: float, spares: Sequence[tuple[np.ndarray, float, bool]] = ()
) -> list[tuple[np.ndarray, float, bool, list[np.ndarray]]]:
    """Best score first; a quad that encloses a kept one, centred on it, replaces it (the picture
    frame of a court card is card-shaped too, and lies in the middle of the card), and so does a
    completed card that encloses only :func:`_piece` of it (its index box or a corner of its
    picture, outlined on their own, where no card is seen whole to set the table's card size).
    A card seen whole is kept beside a whole quad within it of under :data:`INNER_PIECE` of its
    area (its index box). Each kept quad comes with its *alternates*, best first, for a second
    look when its own face cannot be read: the quads it replaced, and those it set aside that
    are distinct (IoU below :data:`SAME_OUTLINE`) and alike in size (:func:`_alike_in_size`), at
    most :data:`MAX_ALTERNATES`. ``spares`` are only ever such alternates, after the others:
    never kept, nor replacing a kept quad."""
    kept: list[_Kept] = []
    for quad, score, partial in sorted(cands, key=lambda c: -c[1]):
        box = np.concatenate([quad.min(axis=0), quad.max(axis=0)])
        overlaps = _overlaps(quad, box, kept)
        clash = [
            (k, o)
            for k, o in overlaps
            if (o[0] >= iou or o[1] or o[2])
            and not (o[2] and not partial and not k[2] and _piece(k[0], quad, INNER_PIECE))
        ]
        if not clash:
            kept.append((quad, score, partial, box, []))
        elif (not partial and all(o[2] and not k[2] and _concentric(k[0], quad) for k, o in clash)) or (
            partial and all(o[2] and _piece(k[0], quad) for k, o in clash)
        ):
            kept = [k for k in kept if not any(k is c for c, _ in clash)]
            kept.append((quad, score, partial, box, [q for c, _ in clash for q in (c[0], *c[4])]))
        else:
            _set_aside(quad, clash)
    for quad, _, _ in sorted(spares, key=lambda c: -c[1]):
        box = np.concatenate([quad.min(axis=0), quad.max(axis=0)])
        _set_aside(quad, [(k, o) for k, o in _overlaps(quad, box, kept) if o[0] >= iou])
    return [(q, s, p, alts[:MAX_ALTERNATES]) for q, s, p, _, alts in kept]


def _overlaps(quad: np.ndarray, box: np.ndarray, kept: list[_Kept]) -> list[tuple[_Kept, tuple[float, bool, bool]]]:
    """:func:`_overlap` of ``quad`` (bounding ``box``) with each kept quad whose box it meets."""
    return [(k, _overlap(quad, k[0])) for k in kept if _boxes_meet(box, k[3])]


def _set_aside(quad: np.ndarray, clash: list[tuple[_Kept, tuple[float, bool, bool]]]) -> None:
    """``quad`` among the alternates of the kept quad of ``clash`` it overlaps most, if it is
    distinct from it and alike in size (none where ``clash`` is empty)."""
    if not clash:
        return
    winner, (overlap, _, _) = max(clash, key=lambda ko: ko[1][0])
    if overlap < SAME_OUTLINE and _alike_in_size(quad, winner[0]):
        winner[4].append(quad)


def _piece(inner: np.ndarray, outer: np.ndarray, share: float = PIECE) -> bool:
    """Under ``share`` of the area of ``outer``: a part of a card, not a card beside it."""
    return abs(_shoelace(inner[None])[0]) < share * abs(_shoelace(outer[None])[0])


def _alike_in_size(a: np.ndarray, b: np.ndarray) -> bool:
    """Within :data:`ALTERNATE_SIZE` of each other in area: a card's picture frame, the card cut
    short by a hand, or one of two cards taken for one, not a stretch of table round them."""
    ratio = abs(_shoelace(a[None])[0]) / max(abs(_shoelace(b[None])[0]), 1e-6)
    return 1 / ALTERNATE_SIZE <= ratio <= ALTERNATE_SIZE


def _concentric(inner: np.ndarray, outer: np.ndarray) -> bool:
    """Centred on each other and well inside, as a picture frame in its card (not a card in a
    pair of cards, nor the same card outlined a little wider by a softer cue)."""
    gap = float(np.linalg.norm(inner.mean(axis=0) - outer.mean(axis=0)))
    smaller = cv2.contourArea(inner.astype(np.float32)) < 0.8 * cv2.contourArea(outer.astype(np.float32))
    return gap < 0.08 * float(np.linalg.norm(outer[0] - outer[2])) and smaller


def _boxes_meet(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def _overlap(a: np.ndarray, b: np.ndarray) -> tuple[float, bool, bool]:
    """IoU of two convex quads, whether ``a`` lies mostly (80%) within ``b`` and whether ``b``
    within ``a`` (a picture frame within its card): one intersection for the three."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(a32, b32)
    area_a, area_b = cv2.contourArea(a32), cv2.contourArea(b32)
    iou = float(inter / max(area_a + area_b - inter, 1e-6)) if inter > 0 else 0.0
    return iou, inter > 0.8 * area_a, inter > 0.8 * area_b
