"""The card under a named card, where a strip of it shows beyond one of that card's sides.

A card laid over another leaves a strip of the one under it in view along one of its sides (a
hand of two laid down fanned, a card played half over the last), often with that card's index.
Where the detector outlined the top card alone, nothing outlines the strip: it has one side of
its own at most. Beyond each side of a card named by both corners, the frame is probed for paper
as pale as that card's own, out to a card's width or length; where such paper runs on from the
side and stops (a strip, not a neighbour or a white table), the card under is taken as the named
card moved across by the strip's width, refined onto the edges there
(:meth:`~kiosk.vision.detect.Detector.look_again`) and read. It is named as a card under a named
one is (:func:`~kiosk.vision.look_rules.under_a_named_card`: by an index that shows, as surely
as a window across a fan).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from kiosk.vision.detect import Detection, Detector
from kiosk.vision.face import darkest_channel
from kiosk.vision.geometry import order_corners, polygon_iou
from kiosk.vision.look_rules import Named, lies_on, under_a_named_card
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import face_ink
from kiosk.vision.reading import CardReader


def strip_beyond(low: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The cards of ``quad``'s size and turn lying under it that the darkest channel ``low`` shows
    a strip of beyond one of its sides (see the module's description), one per such side."""
    p = PARAMS.strips
    o = order_corners(quad)
    paper = _paper(low, o)
    if paper is None:
        return []
    steps = np.arange(1, p.steps + 1) / p.steps * p.reach
    starts, ends = o, np.roll(o, -1, axis=0)  # side k runs from corner k to corner k + 1
    away = ends - np.roll(o, -2, axis=0)  # out across side k: from the corner beyond its end (4, 2)
    along = np.linspace(p.along[0], p.along[1], p.samples)
    lines = starts[:, None] + along[None, :, None] * (ends - starts)[:, None]  # (4, samples, 2)
    pts = np.round(lines[:, None] + steps[None, :, None, None] * away[:, None, None]).astype(int)
    h, w = low.shape
    inside = ((pts >= 0) & (pts < (w, h))).all(axis=(2, 3))  # (4, steps): every point of the step
    values = low[np.clip(pts[..., 1], 0, h - 1), np.clip(pts[..., 0], 0, w - 1)]
    profiles = np.median(values, axis=2)
    out = []
    for k in range(4):
        n = int(np.argmin(inside[k])) if not inside[k].all() else len(steps)  # steps before the frame's edge
        width = _strip_width(profiles[k, :n], steps, paper)
        if width is not None:
            out.append((o + width * away[k]).astype(np.float32))
    return out


def _strip_width(profile: np.ndarray, steps: np.ndarray, paper: float) -> float | None:
    """How far out from a side the nearest strip of paper ends (shares of the card's size across
    the side): a run of steps from the side each at ``strip_floor`` of the card's ``paper`` or
    paler, then two steps darker than its darkest by ``contrast``; None where there is none
    within ``strip``."""
    p = PARAMS.strips
    for e in range(1, len(profile) - 1):
        if profile[e - 1] < p.strip_floor * paper:
            return None  # the run from the side has ended without an edge
        width = (steps[e - 1] + steps[e]) / 2
        if width > p.strip[1]:
            return None
        if width >= p.strip[0] and profile[e : e + 2].max() <= p.contrast * profile[:e].min():
            return float(width)
    return None


def _covered(frame: np.ndarray, top: np.ndarray, quad: np.ndarray) -> Detection:
    """The card ``quad`` of ``frame`` with the card ``top`` lying over it painted out: what shows
    of the top card is no part of the card under it (its corner crop there would read the top
    card's face), so the card under is read by what shows of it alone. The ink that the top
    card's edge cuts is painted out with it: half a pip is no pip (half a heart, turned upright
    below the face's middle as the pip model reads pips, is a club). Only the box round ``quad``
    is copied."""
    view, corners = Detection(quad, frame, 0.0, True).around()
    box = view.copy()
    paper = np.percentile(box.reshape(-1, box.shape[-1]), 95, axis=0)
    over = np.zeros(box.shape[:2], np.uint8)
    cv2.fillConvexPoly(over, np.round(top - (quad - corners)).astype(np.int32), 1)
    inked = (face_ink(box) > 0.5) & (over == 0)  # darker than half-way to the paper, as pips are found
    _, pieces = cv2.connectedComponents(inked.astype(np.uint8), connectivity=8)
    cut = np.unique(pieces[cv2.dilate(over, np.ones((5, 5), np.uint8)) > 0])
    box[(over > 0) | (np.isin(pieces, cut[cut > 0]))] = paper
    return Detection(corners, box, 0.0, True)


def _paper(low: np.ndarray, o: np.ndarray) -> float | None:
    """The paper level of the card ``o``: the bright percentile of its border's pixels."""
    centre = o.mean(axis=0)
    ring = np.concatenate([centre + s * (o - centre) for s in (0.9, 0.95)])
    pts = np.round(ring).astype(int)
    h, w = low.shape
    ok = (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < w) & (pts[:, 1] < h)
    if not ok.all():
        return None
    return float(np.max(low[pts[:, 1], pts[:, 0]]))


def under_strips(identifier: CardReader, detector: Detector, frame: np.ndarray, out: Sequence[Named]) -> list[Named]:
    """``out`` with the cards under its cards named by both corners, where a strip of each shows
    (:func:`strip_beyond`), named as a card under those cards and lying on none of them. A card
    named nowhere in ``out`` is one more; one named there only on an outline read by one corner
    that overlaps it takes that outline's place (such an outline may span the top card and the
    strip: a fanned pair outlined as one). Only outlines both corners read count as cards here."""
    result = list(out)
    tops = [d.corners for d, a in out if a.card_id is not None and a.corners == 2]
    if not tops:
        return result
    low = darkest_channel(frame)
    guesses = [(top, q) for top in tops for q in strip_beyond(low, top)]
    guesses = [(top, q) for top, q in guesses if not lies_on(q, tops, PARAMS.looks.one_card)]
    if not guesses:
        return result
    found = detector.look_again(frame, [q for _, q in guesses])
    if len(found) != len(guesses):
        return result
    under = [_covered(frame, top, card.corners) for (top, _), card in zip(guesses, found, strict=True)]
    for card, answer in zip(found, identifier.identify_cards(under), strict=True):  # (found: frame pixels)
        if not answer.corners or answer.confidence < PARAMS.looks.confidence:
            continue
        if not under_a_named_card(card.corners, answer, tops) or lies_on(card.corners, tops, PARAMS.looks.one_card):
            continue
        same = [k for k, (_, a) in enumerate(result) if a.card_id == answer.card_id]
        if not same:
            result.append((card, answer))
        elif len(same) == 1 and _loosely_named(result[same[0]], card.corners):
            result[same[0]] = (card, answer)
    return result


def _loosely_named(named: Named, quad: np.ndarray) -> bool:
    """Whether ``named`` is an outline read by one corner overlapping ``quad``, and not it."""
    d, a = named
    return a.corners == 1 and 0 < polygon_iou(d.corners, quad) < PARAMS.looks.one_card
