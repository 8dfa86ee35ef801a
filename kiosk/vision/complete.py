"""Complete cards from partial views: the visible corners of an outline that is no quad (cards
overlapping, a hand across a card), and the card-sized ends of an outline-model region that
merged a card with a neighbour. A completion is a guessed outline (``partial``): it must lie on
the foreground with edges along two sides, look like paper, and is named only surely."""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.vision.candidate import Candidate
from kiosk.vision.geometry import CARD_ASPECT, convex, coverage, edge_support, order_corners, shoelace
from kiosk.vision.params import PARAMS, DetectorConfig
from kiosk.vision.propose import Outline, aspect_ok
from kiosk.vision.select import table_card_size, white_bordered
from kiosk.vision.tilt import Tilt

#: How a completion scores: the mean share of its sides on edges, times this.
_COMPLETED_SCORE = 0.8


class _Corners:
    """The right-angle corners of a contour's polygon (clockwise, y down): the polygon, which of
    its vertices are card corners, the unit vectors to each vertex's previous and next ones, the
    length of the side to the next, and at each vertex the map undoing the frame's ``tilt``
    there (:meth:`~kiosk.vision.tilt.Tilt.flattening`) and a card's area at each corner
    (:meth:`~kiosk.vision.tilt.Tilt.area_at`); None where the frame is seen from above."""

    def __init__(self, cnt: np.ndarray, shape: tuple[int, int], cfg: DetectorConfig, tilt: Tilt | None) -> None:
        peri = cv2.arcLength(cnt, True)
        poly = cv2.approxPolyDP(cnt, 0.01 * peri, True).reshape(-1, 2).astype(np.float32)
        self.n = len(poly)
        if self.n < 4 or self.n > 48:
            self.at = np.zeros(0, np.int64)
            return
        if cv2.contourArea(poly, oriented=True) < 0:  # make the polygon clockwise (y down)
            poly = poly[::-1].copy()
        prev = np.roll(poly, 1, axis=0) - poly
        nxt = np.roll(poly, -1, axis=0) - poly
        norm_p = np.linalg.norm(prev, axis=1) + 1e-6
        self.side = np.linalg.norm(nxt, axis=1) + 1e-6
        cos = (prev * nxt).sum(axis=1) / (norm_p * self.side)
        angle = np.degrees(np.arccos(np.clip(cos, -1, 1)))
        cross = prev[:, 0] * nxt[:, 1] - prev[:, 1] * nxt[:, 0]
        corner = (cross < 0) & (angle >= cfg.corner_angle[0]) & (angle <= cfg.corner_angle[1])
        h, w = shape
        # where the frame cuts a region off, its corners are the frame's, not a card's
        corner &= (poly[:, 0] > 2) & (poly[:, 1] > 2) & (poly[:, 0] < w - 3) & (poly[:, 1] < h - 3)
        self.poly, self.corner, self.at = poly, corner, np.flatnonzero(corner)
        self.u_prev, self.u_next = prev / norm_p[:, None], nxt / self.side[:, None]
        self.flat = None if tilt is None or tilt.coef is None else tilt.flattening(poly)
        self.area = None if self.flat is None or tilt is None else tilt.area_at(poly[self.at])

    def reach(self, i: int, j: int) -> tuple[float, float]:
        """For neighbouring corners ``i`` and ``j``, the lengths along the sides leaving them (to
        i's previous vertex, to j's next) as long on the table as the side between them."""
        if self.flat is None:
            return float(self.side[i]), float(self.side[i])
        side = self.poly[j] - self.poly[i]
        f_i, f_j = self.flat[i], self.flat[j]
        return (
            float(np.linalg.norm(f_i @ side) / np.linalg.norm(f_i @ self.u_prev[i])),
            float(np.linalg.norm(f_j @ side) / np.linalg.norm(f_j @ self.u_next[j])),
        )

    def spans(self, dims: np.ndarray) -> np.ndarray:
        """Per corner, the lengths (corners, D, 2) along its next and previous sides that are
        ``dims`` (D, 2) on the table."""
        if self.flat is None:
            return dims[None]
        f = self.flat[self.at]
        scale = np.stack(
            [np.linalg.norm(np.einsum("nij,nj->ni", f, u[self.at]), axis=1) for u in (self.u_next, self.u_prev)], -1
        )
        return (dims[None] / scale[:, None, :]).astype(np.float32)


def partial_quads(
    outline: Outline,
    edges: np.ndarray,
    lo: float,
    hi: float,
    size: tuple[float, float] | None,
    hidden_most: float,
    cfg: DetectorConfig,
    tilt: Tilt | None = None,
) -> tuple[list[Candidate], list[Candidate]]:
    """Cards completed from the visible corners of a non-quad outline. Two neighbouring
    right-angle corners give one whole side, short or long; once the frame's card ``size`` is
    known (from the cards seen whole), a single visible corner is enough. Each completion comes
    both ways round (the side or corner taken as a card's width, or as its length), scored by
    how much it lies on the foreground and how well edges support its sides. Returns (the better
    of each pair, the other of each pair): the first compete for a place, the second are only
    alternates (a card whose far end lies under something is better supported completed from
    its visible end a quarter turned, its index crops on blank paper). One from a whole side may
    run under an object that is no card (``occluded_coverage``), at a lower score, if its area
    is at most ``hidden_most``. In a frame seen at a ``tilt`` the sides are as long as the
    card's on the table at the view there."""
    corners = _Corners(outline.contour, outline.solid.shape, cfg, tilt)
    if not len(corners.at):
        return [], []
    sided = _from_sides(corners)
    options = sided + _from_one_corner(corners, size)
    if not options:
        return [], []
    quads = np.concatenate(options)  # (2H, 4, 2)
    score = _completion_scores(quads, len(sided), outline.solid, edges, lo, hi, hidden_most, cfg).reshape(-1, 2)
    best = score.argmax(axis=1)
    found = [
        [Candidate(quads[2 * h + k], _COMPLETED_SCORE * float(score[h, k]), True) for h, k in enumerate(side)]
        for side in (best, 1 - best)
    ]
    return [c for c in found[0] if c.score >= 0], [c for c in found[1] if c.score >= 0]


def _from_sides(c: _Corners) -> list[np.ndarray]:
    """A pair of completions (1, 4, 2) per whole side between two corners, both ways round."""
    options = []
    for i in c.at:
        j = (i + 1) % c.n
        if c.corner[j]:
            at_i, at_j = c.reach(int(i), int(j))
            options += [
                np.array(
                    [[c.poly[i], c.poly[j], c.poly[j] + c.u_next[j] * at_j * r, c.poly[i] + c.u_prev[i] * at_i * r]],
                    dtype=np.float32,
                )
                for r in (CARD_ASPECT, 1 / CARD_ASPECT)
            ]
    return options


def _from_one_corner(c: _Corners, size: tuple[float, float] | None) -> list[np.ndarray]:
    """Completions at each corner at the known card ``size`` and the steps either side (cards
    nearer the camera look larger); both ways round, pairs side by side. At a tilt the card is
    as large on the table as a card the frame's view puts at that corner (:meth:`Tilt.area_at`,
    fitted over the cards seen whole), else as the cards seen whole (as wide as one of their area)."""
    if size is None:
        return []
    if c.flat is not None:
        width = float(np.sqrt(size[0] * size[1] / CARD_ASPECT))
        size = (width, width * CARD_ASPECT)
    steps = PARAMS.complete.size_steps
    spans = c.spans(np.array([(sa * k, sb * k) for k in steps for sa, sb in (size, size[::-1])], np.float32))
    if c.area is not None:  # at a tilt, as large as a card at that place: nearer ones look larger
        spans = spans * np.sqrt(c.area / (size[0] * size[1]))[:, None, None].astype(np.float32)
    v = c.poly[c.at][:, None, :]
    a = c.u_next[c.at][:, None, :] * spans[:, :, :1]
    b = c.u_prev[c.at][:, None, :] * spans[:, :, 1:]
    return [np.stack([v + 0 * a, v + a, v + a + b, v + b], axis=2).reshape(-1, 4, 2).astype(np.float32)]


def _completion_scores(
    quads: np.ndarray,
    sided: int,
    mask: np.ndarray,
    edges: np.ndarray,
    lo: float,
    hi: float,
    hidden_most: float,
    cfg: DetectorConfig,
) -> np.ndarray:
    """Per completion, the mean share of its sides on edges (lowered for one running under
    something), or -1 where it is no card: the wrong size, not convex, fewer than two sides on
    edges, or off the foreground. The first ``sided`` came from whole sides."""
    p = PARAMS.complete
    area = np.abs(shoelace(quads))
    ok = (area >= lo) & (area <= hi) & convex(quads)
    support = np.zeros((len(quads), 4))
    support[ok] = np.sort(edge_support(edges, quads[ok]), axis=1)
    ok &= support[:, 2] >= 0.5  # two sides at least are outlines; the others may be covered
    cover = np.zeros(len(quads))
    cover[ok] = coverage(mask, quads[ok])  # (the dearest test, on the fewest)
    whole = cover >= cfg.min_coverage
    hidden = ~whole & (np.arange(len(quads)) < sided) & (cover >= p.occluded_coverage) & (area <= hidden_most)
    ok &= whole | hidden
    return np.where(ok, support.mean(axis=1) * np.where(whole, 1.0, p.occluded_score), -1.0)


def trimmed(
    cnt: np.ndarray, edges: np.ndarray, lo: float, hi: float, most: float, cfg: DetectorConfig
) -> list[Candidate]:
    """A card the outline model merged with a pale neighbour along one side (a white stripe,
    a sheet of paper): its region is a filled rectangle too long or too square for a card. A
    card-sized rectangle at either end of it, each scored by how much of its outline is on
    edges (the cut side is the card's own edge only at the right end); none larger than
    ``most`` (a region of a whole pile gives rectangles of several cards)."""
    rect = cv2.minAreaRect(cnt)
    box = cv2.boxPoints(rect).astype(np.float32)
    rw, rh = rect[1]
    if not lo <= rw * rh <= 2 * hi or cv2.contourArea(cv2.convexHull(cnt)) < PARAMS.propose.soft_fill * rw * rh:
        return []
    aspect = max(rw, rh) / max(min(rw, rh), 1e-6)
    if aspect_ok(aspect, cfg) or aspect > PARAMS.propose.max_merged_aspect:
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
    support = edge_support(edges, quads).mean(axis=1)
    return [
        Candidate(q, _COMPLETED_SCORE * float(sup), True)
        for q, sup in zip(quads, support, strict=True)
        if lo <= abs(cv2.contourArea(q)) <= most
    ]


def split_pairs(
    cands: list[Candidate], size: tuple[float, float] | None, edges: np.ndarray
) -> tuple[list[Candidate], list[Candidate]]:
    """(whole, completed): a candidate from the outline model's regions of at least
    ``pair_area`` times the table's card area is two cards side by side that the model merged
    (on a white cloth it does: two poker cards side by side are 1.43 times as long as wide, a
    card 1.40). When both card-sized ends have an outline on their inner side too (the gap
    between the cards), they replace it, scored by the edges along their outlines as
    completions are. The hand-set cues' quads are not cut: they part touching cards along their
    edges already, and where the quads seen whole are a textured table's, one twice their size
    may be a single card."""
    known = table_card_size(size, len(cands))
    if known is None:
        return cands, []
    whole, halves = [], []
    for cand in cands:
        quad = cand.quad
        if not cand.from_model or abs(cv2.contourArea(quad)) < PARAMS.propose.pair_area * known[0] * known[1]:
            whole.append(cand)
            continue
        o = order_corners(quad)  # o[0] -> o[1] the short side of the pair: the cards' long side
        across = o[3] - o[0]
        span = across / max(float(np.linalg.norm(across)), 1e-6) * float(np.linalg.norm(o[1] - o[0])) / CARD_ASPECT
        quads = np.stack([[o[0], o[1], o[1] + span, o[0] + span], [o[3] - span, o[2] - span, o[2], o[3]]]).astype(
            np.float32
        )
        support = edge_support(edges, quads)
        if min(support[0, 2], support[1, 0]) < 0.5:  # no gap between two cards: one big card
            whole.append(cand)
            continue
        halves += [
            Candidate(q, _COMPLETED_SCORE * float(sup), True)
            for q, sup in zip(quads, support.mean(axis=1), strict=True)
        ]
    return whole, halves


def unexplained(rest: list[Outline], found: list[Candidate], shape: tuple[int, int], lo: float) -> list[Outline]:
    """The outlines of ``rest`` with at least ``unexplained`` of the smallest card outside the
    cards already found whole. Completing a partial outline is the detector's dearest step; an
    outline lying (nearly) all inside cards already found (the same card seen by another cue, a
    card's picture, a pile whose cards were all found) cannot hold another card."""
    if not rest or not found:
        return rest
    covered = np.zeros(shape, np.uint8)
    cv2.fillPoly(covered, [np.round(c.quad).astype(np.int32) for c in found], 255)
    out = []
    for item in rest:
        cnt = item.contour
        x, y, w, h = cv2.boundingRect(cnt)
        own = np.zeros((h, w), np.uint8)
        cv2.drawContours(own, [cnt], -1, 255, cv2.FILLED, offset=(-x, -y))
        left = cv2.countNonZero(cv2.bitwise_and(own, cv2.bitwise_not(covered[y : y + h, x : x + w])))
        if left >= PARAMS.complete.unexplained * lo:
            out.append(item)
    return out


def agreed(cands: list[Candidate]) -> list[Candidate]:
    """Completed cards, each score raised for every other completion that puts the same card in
    the same place (up to ``agreeing``): a real card is completed alike from several of its
    corners, a wrong completion (a stripe or a neighbour's edge taken for a side) from one."""
    if len(cands) < 2:
        return cands
    p = PARAMS.complete
    q = np.stack([c.quad for c in cands])
    short = np.minimum(np.linalg.norm(q[:, 1] - q[:, 0], axis=1), np.linalg.norm(q[:, 2] - q[:, 1], axis=1))
    reach = p.same_place * short
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
        Candidate(c.quad, c.score * (1 + p.agreement_bonus * min(int(k), p.agreeing)), c.partial, c.from_model)
        for c, k in zip(cands, same, strict=True)
    ]


def plausible(
    cands: list[Candidate], white: np.ndarray, bright: float, model_mask: np.ndarray | None
) -> list[Candidate]:
    """The completed cards that look like a card: a white paper margin and, given the model's
    ``model_mask``, at least ``completed_agreement`` of it on what the model calls card or
    outline."""
    cands = white_bordered(white, cands, bright)
    if model_mask is not None and cands:
        on = coverage(model_mask, np.stack([c.quad for c in cands]))
        cands = [c for c, share in zip(cands, on, strict=True) if share >= PARAMS.complete.completed_agreement]
    return cands
