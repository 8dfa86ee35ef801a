"""Name the detected cards: the decision stage, from a frame's outlines to its named cards.

:func:`look` is what the kiosk runs on a camera frame: the cards at a glance (the outline model
alone), named, and every cue where the glance falls short. :func:`name_cards` reads each
outline and, where one is refused, runs the extra looks in turn, each a stage that can turn a
refusal into a name or add a card, never change one name into another:

1. second looks at other outlines of a refused card's place (:mod:`kiosk.vision.looks`);
2. card shapes fitted round a loose outline, and round the far end of an outline a second look
   named only in part (:mod:`kiosk.vision.card_shaped`);
3. the card beside one named from one corner, among the outlines it beat;
4. a completed card named from one corner, drawn again at a whole card's length
   (:mod:`kiosk.vision.full_length`): only its outline changes.

The kiosk's decks hold each card once, so two overlapping outlines named the same card are one
card outlined twice: the outline read by both corners, else the better-scored, keeps the name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from kiosk.vision.card_shaped import beside_one_corner, card_shaped, far_ends
from kiosk.vision.detect import Detection, Detector, Glance
from kiosk.vision.full_length import at_full_length
from kiosk.vision.geometry import order_corners, polygon_iou
from kiosk.vision.look_rules import Named
from kiosk.vision.looks import second_looks
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import CardReader, Identification
from kiosk.vision.strips import under_strips
from kiosk.vision.tilt import Tilt


class Look(NamedTuple):
    """The cards :func:`look` found and named, and whether it used every cue."""

    named: list[Named]
    closely: bool


def look(
    identifier: CardReader,
    detector: Detector,
    frame: np.ndarray,
    thorough: bool = False,
    enough: Callable[[list[Named]], bool] = lambda named: True,
) -> Look:
    """Find and name the cards of ``frame``: at a glance first (the outline model alone,
    :meth:`Detector.glance`), and with every cue (:meth:`Detector.closer`) where the glance
    leaves some of what the model calls card unaccounted for, or an outline it found not read
    by both its corners (unread, or an outline the model cut short or askew: one corner's
    reading is not enough there), or is not ``enough`` for the caller (a card the tracker holds
    not among its names), or where ``thorough``. The hand-set cues cost three quarters of the
    detection's time, and most frames need none of what they find."""
    if thorough or detector.outline is None or not detector.config.hand_cues:
        return Look(name_cards(identifier, detector, frame, detector.detect(frame)), True)
    remembered = _Remembered(identifier)  # the outlines both looks find are read once
    glance = detector.glance(frame)
    if glance.explained:
        named = name_cards(remembered, detector, frame, glance.detections, glance=True)
        if (
            all(a.card_id is not None and a.corners in (None, 2) for _, a in named)
            and enough(named)
            and _still_explained(detector, glance, named)
        ):
            return Look(named, False)
    return Look(name_cards(remembered, detector, frame, detector.closer(glance)), True)


def _still_explained(detector: Detector, glance: Glance, named: list[Named]) -> bool:
    """Whether the outlines ``named`` account for what the glance's outline model calls card:
    where naming put a card's own outline in place of one the glance drew round it and a card
    touching it, the other card is no longer accounted for."""
    drawn = {id(d) for d in glance.detections}
    return all(id(d) in drawn for d, _ in named) or detector.explains(glance, [d.corners for d, _ in named])


class _Remembered:
    """An identifier that answers an outline of one frame it has read before from memory."""

    def __init__(self, identifier: CardReader) -> None:
        self._identifier = identifier
        self._answers: dict[bytes, Identification] = {}

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        keys = [np.asarray(c.corners, np.float32).tobytes() for c in cards]
        new = {k: c for k, c in zip(keys, cards, strict=True) if k not in self._answers}
        if new:
            self._answers.update(zip(new, self._identifier.identify_cards(list(new.values())), strict=True))
        return [self._answers[k] for k in keys]


def name_cards(
    identifier: CardReader,
    detector: Detector,
    frame: np.ndarray,
    detections: Sequence[Detection],
    glance: bool = False,
) -> list[Named]:
    """One (detection, answer) per detection, in order, then the further cards the extra looks
    found. A completed card read less surely than ``completed_confidence``, and by one corner
    only, is refused (a guessed outline must be read as surely as a second look), and so is one
    read by one corner that is no card's view in a frame seen at a tilt (:func:`_in_view`); a
    card named on two overlapping outlines keeps one. The ``glance``'s outlines account for
    every pixel the outline model calls card: no strip of a card under another shows there, and
    none is sought (:func:`~kiosk.vision.strips.under_strips`)."""
    if not detections:
        return []
    answers = identifier.identify_cards(detections)
    if len(answers) != len(detections):
        raise RuntimeError(f"identifier answered {len(answers)} faces for {len(detections)}")
    bar = PARAMS.looks.completed_confidence
    answers = [
        a
        if a.card_id is None or not d.partial or a.confidence >= bar or a.corners == 2
        else Identification(None, a.confidence, a.runner_up, a.margin)
        for d, a in zip(detections, answers, strict=True)
    ]
    named = second_looks(identifier, detector, frame, list(zip(detections, answers, strict=True)))
    ends = far_ends(detections, named, detector)
    shaped = card_shaped(identifier, detector, frame, named + ends, range(len(named), len(named) + len(ends)))
    kept = shaped[: len(named)] + [pair for pair in shaped[len(named) :] if pair[1].card_id]
    kept += beside_one_corner(identifier, detector, frame, kept)
    kept = at_full_length(identifier, detector, frame, kept, detections[0].tilt)
    if not glance:
        kept = under_strips(identifier, detector, frame, kept)
    return _once_per_card(_in_view(kept, detections[0].tilt, detector.config.aspect_tolerance))


def _in_view(pairs: list[Named], tilt: Tilt | None, tolerance: float) -> list[Named]:
    """``pairs`` with the guessed outlines named by one corner refused where they are no card's
    view in a frame seen at ``tilt`` (drawn as a card seen from above, such an outline's corner
    crops may cut another card's index): their view lies further than ``tolerance`` from the
    frame's at their place."""
    guessed = [k for k, (d, a) in enumerate(pairs) if a.card_id is not None and d.partial and a.corners != 2]
    if tilt is None or not guessed:
        return pairs
    errors = tilt.errors(np.stack([order_corners(pairs[k][0].corners) for k in guessed]))
    out = list(pairs)
    for k, error in zip(guessed, errors, strict=True):
        if error > tolerance:
            d, a = out[k]
            out[k] = (d, Identification(None, a.confidence, a.card_id, 0.0))
    return out


def _once_per_card(pairs: list[Named]) -> list[Named]:
    """Of overlapping outlines named the same card, one read by both the card's corners keeps
    the name, else the best-scored (then surest); the others are refused. Outlines apart keep
    their names: one of them is misread, but which cannot be told."""
    out = list(pairs)
    kept: list[tuple[str, np.ndarray]] = []
    for k in sorted(range(len(out)), key=lambda k: (out[k][1].corners != 2, -out[k][0].score, -out[k][1].confidence)):
        d, a = out[k]
        if a.card_id is None:
            continue
        if any(card == a.card_id and polygon_iou(corners, d.corners) > 0 for card, corners in kept):
            out[k] = (d, Identification(None, a.confidence, a.card_id, 0.0))
        else:
            kept.append((a.card_id, d.corners))
    return out
