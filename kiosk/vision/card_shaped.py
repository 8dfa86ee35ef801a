"""Outlines named again from the edges round them, and the cards beside or under a card named
from one corner.

An outline found from a card's visible parts is often askew or loose, so that one corner's crop
misses its index (on a striped cloth a card's sides vanish on the white stripes). Card-shaped
rectangles fitted to the edges round it (:mod:`kiosk.vision.card_fit`) are read where a card
is named from one corner, where a refused outline leans to a card or lies apart from the cards
named, and at the far end of a refused outline a second look named only in part (two cards
crossing at an angle make one outline); one both corners read as one card takes the place. A
card still named from one corner has the outlines it beat at its place read: one both corners
read as another card is the card beside it, spanned by its outline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from kiosk.vision.card_fit import card_shapes
from kiosk.vision.detect import Detection, Detector
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.look_rules import Named, close_up, index_within, lies_on, under_a_named_card
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import CardReader, Identification
from kiosk.vision.shapes import fan_ends
from kiosk.vision.tilt import Tilt


def beside_one_corner(identifier: CardReader, detector: Detector, frame: np.ndarray, out: list[Named]) -> list[Named]:
    """The other cards that the alternates of a card named from one corner show: an outline
    that spans two cards (fanned cards whose edges run on in one line) is read by the one
    index it holds, and the card beside it may be among the outlines it beat. An alternate is
    that card where both its corners read it as another card, as surely as a second look, and
    it lies on no card named, nor on this one as much as ``one_card``. Only the first
    ``first_alternates`` of each are read; a card named from both corners has its own outline."""
    looks = [
        (k, quad)
        for k, (d, a) in enumerate(out)
        if a.card_id is not None and a.corners == 1
        for quad in d.alternates[: PARAMS.looks.first_alternates]
    ]
    if not looks:
        return []
    named = [(k, d.corners, a.card_id) for k, (d, a) in enumerate(out) if a.card_id is not None]
    apart = detector.config.nms_iou  # from the other cards named; from its own, one_card
    found = detector.look_again(frame, [quad for _, quad in looks])
    if len(found) != len(looks):
        return []
    more: list[Named] = []
    for (k, _), alt, answer in zip(looks, found, identifier.identify_cards(found), strict=True):
        if answer.card_id is None or answer.corners != 2 or answer.confidence < PARAMS.looks.confidence:
            continue
        if any(
            card == answer.card_id or polygon_iou(alt.corners, corners) >= (PARAMS.looks.one_card if j == k else apart)
            for j, corners, card in named
        ):
            continue
        more.append((alt, answer))
        named.append((-1, alt.corners, answer.card_id))
    return more


def far_ends(detections: Sequence[Detection], named: list[Named], detector: Detector) -> list[Named]:
    """For each refused outline of ``detections`` that a second look named by a card covering
    under ``part_named`` of it, the end of it farther from that card (:func:`fan_ends`),
    refused: two cards overlapping at an angle make one card-shaped outline, and where its look
    names one, the other lies in the rest of it, askew to it. ``named`` is
    :func:`~kiosk.vision.looks.second_looks`' answer, the detections' places first."""
    out = []
    names = [d.corners for d, a in named if a.card_id is not None]
    for was, (card, answer) in zip(detections, named, strict=False):
        if card is was or answer.card_id is None or _area(card.corners) >= PARAMS.looks.part_named * _area(was.corners):
            continue
        centre = card.corners.mean(axis=0)
        end = max(fan_ends(was.corners), key=lambda q: float(np.linalg.norm(q.mean(axis=0) - centre)))
        if not lies_on(end, names, detector.config.nms_iou):
            out.append((replace(was, corners=end, alternates=()), Identification(None, 0.0, None, 0.0)))
    return out


def _area(quad: np.ndarray) -> float:
    """A quad's area in pixels, whichever way round its corners run."""
    return float(cv2.contourArea(np.asarray(quad, np.float32)))


def card_shaped(
    identifier: CardReader,
    detector: Detector,
    frame: np.ndarray,
    out: list[Named],
    ends: Sequence[int] = (),
) -> list[Named]:
    """``out`` with the card-shaped outlines round some of its cards read
    (:func:`~kiosk.vision.card_fit.card_shapes`): such a card's outline is often askew or
    loose, so that one corner's crop misses its index (on a striped cloth its sides vanish on
    the white stripes). A card named from one corner is moved to the first one that both
    corners read as that card, keeping its name; the refused outlines read at
    ``guess_confidence`` or surer (leaning to a card, or two corners naming two: an outline cut
    short reads a cut index as another card), ``max_guessed`` of them, surest first, and the
    ``max_apart`` best-scored of those read less surely that lie apart from the cards named,
    are named from the first one that both corners read as one card. Either is read at a
    second look's ``confidence``, and no shape lying on another card named is taken. Where
    none is read so, the search is run again closer round the first ``closer_again`` shapes
    that one corner read as the card wanted. The refused outlines of ``ends`` (indices:
    :func:`far_ends`) are searched round too, whatever they read. A card whose unread index lies
    under a card named by both corners (a fanned card under another) is not: no shape shows both."""
    targets = _targets(detector, out, ends)
    if not targets:
        return out
    gray = cv2.cvtColor(out[targets[0]][0].frame, cv2.COLOR_BGR2GRAY)
    tilt = next((d.tilt for d, _ in out if d.tilt is not None), None)  # the frame's view, where at a tilt
    moved: set[int] = set()
    near = _take_shapes(
        identifier,
        detector,
        frame,
        gray,
        out,
        moved,
        [(k, card_shapes(gray, out[k][0].corners, None, _flattening(tilt, out[k][0].corners))) for k in targets],
        ends,
    )
    closer: dict[int, list[np.ndarray]] = {}
    for k, quad in near:
        closer.setdefault(k, []).extend(card_shapes(gray, quad, PARAMS.card_fit.closer, _flattening(tilt, quad)))
    _take_shapes(identifier, detector, frame, gray, out, moved, list(closer.items()), ends)
    return out


def _targets(detector: Detector, out: list[Named], ends: Sequence[int]) -> list[int]:
    """The cards of ``out`` :func:`card_shaped` searches round, in its order."""
    sure = [d.corners for d, a in out if a.card_id is not None and a.corners == 2]
    targets = [
        k for k, (d, a) in enumerate(out) if a.card_id is not None and a.corners == 1 and not _hidden(d, a, sure)
    ]
    unread = [k for k, (d, a) in enumerate(out) if a.card_id is None and k not in ends and not close_up(d, detector)]
    leaning = [k for k in unread if out[k][1].confidence >= PARAMS.pips.guess_confidence]
    targets += sorted(leaning, key=lambda k: -out[k][1].confidence)[: PARAMS.looks.max_guessed]
    named = [d.corners for d, a in out if a.card_id is not None]
    apart = [
        k
        for k in unread
        if named
        and out[k][1].confidence < PARAMS.pips.guess_confidence
        and not lies_on(out[k][0].corners, named, PARAMS.looks.apart)
    ]
    targets += sorted(apart, key=lambda k: -out[k][0].score)[: PARAMS.looks.max_apart]
    return targets + [k for k in ends if k not in targets]


def _hidden(card: Detection, answer: Identification, sure: Sequence[np.ndarray]) -> bool:
    """Whether the index ``card`` was not read by lies under a card named by both corners
    (``sure``): then no shape round it shows both, and none is sought (a fanned card under another)."""
    if answer.read_by is None or sum(answer.read_by) != 1:
        return False
    return index_within(card.corners, 2 if answer.read_by[0] else 0, sure)


def _flattening(tilt: Tilt | None, quad: np.ndarray) -> np.ndarray | None:
    """The map to the table's view at ``quad``'s centre (:meth:`Tilt.flattening`) in a frame seen
    at ``tilt``; None seen from above."""
    return None if tilt is None else tilt.flattening(quad.mean(axis=0)[None])[0]


def _take_shapes(
    identifier: CardReader,
    detector: Detector,
    frame: np.ndarray,
    gray: np.ndarray,
    out: list[Named],
    moved: set[int],
    shapes: list[tuple[int, list[np.ndarray]]],
    ends: Sequence[int] = (),
) -> list[tuple[int, np.ndarray]]:
    """Moves each card of ``out`` (by index) not ``moved`` yet to the first of its ``shapes``
    that :func:`card_shaped` takes; returns the first ``closer_again`` shapes of each card still
    not moved that one corner read as the card it wants (refined: as read). The shapes are read
    a rank at a time, every card's first, then the second of those not moved, and so on: the
    first is most often the card, and a shape a little off the card costs its corners' reading
    again, shifted, zoomed and widened."""
    near: list[tuple[int, np.ndarray]] = []
    for rank in range(max((len(each) for _, each in shapes), default=0)):
        batch = [(k, each[rank]) for k, each in shapes if k not in moved and rank < len(each)]
        found = detector.look_again(frame, [shape for _, shape in batch], gray)
        if not found or len(found) != len(batch):
            break
        for (k, _), shape, answer in zip(batch, found, identifier.identify_cards(found), strict=True):
            card, first = out[k]
            if answer.card_id is None or (first.card_id is not None and answer.card_id != first.card_id):
                continue  # a card named keeps its name
            others = [d.corners for i, (d, a) in enumerate(out) if i != k and a.card_id is not None]
            # a fan's card under another shows one index: named by it as a window across a fan is
            fanned_card = answer.corners == 1 and k in ends and under_a_named_card(shape.corners, answer, others)
            if answer.corners == 1 and not fanned_card:
                if sum(j == k for j, _ in near) < PARAMS.looks.closer_again:
                    near.append((k, shape.corners))
                continue
            if not fanned_card and (answer.corners != 2 or answer.confidence < PARAMS.looks.confidence):
                continue  # as surely as a second look
            if not lies_on(shape.corners, others, detector.config.nms_iou):
                out[k] = (replace(card, corners=shape.corners), answer)
                moved.add(k)
    return [(k, quad) for k, quad in near if k not in moved]
