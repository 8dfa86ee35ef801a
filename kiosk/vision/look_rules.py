"""Tests a second look's reading must pass where other cards are named: whether an outline is
another card's, whether the index it was read by lies on a named card, and whether a card
under a named one is named by what shows of it."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from kiosk.vision.detect import Detection, Detector
from kiosk.vision.face import INDEX_BOX
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import Identification

#: A card and what it was read as, in the order naming keeps them.
Named = tuple[Detection, Identification]


def lies_on(quad: np.ndarray, cards: Sequence[np.ndarray], iou: float) -> bool:
    """Whether ``quad`` overlaps one of ``cards`` by ``iou`` or more: it is that card's outline."""
    return any(polygon_iou(quad, card) >= iou for card in cards)


def close_up(card: Detection, detector: Detector) -> bool:
    """Whether ``card`` is a close-up (:meth:`Detector.is_close_up`): refused, it gets no second
    look. A picture filled by one card shows its corners whole, and what else is that large and
    card-shaped (the kiosk's own mat, a worktop) holds cards: searched round for card shapes and
    fans, the mat costs the referee's frames a tenth more time."""
    return detector.is_close_up(card.corners, card.frame.shape)


def read_under_another(quad: np.ndarray, answer: Identification, named: Sequence[np.ndarray]) -> bool:
    """Whether ``answer`` was read by one corner of ``quad`` only, the middle of whose index box
    lies within a card of ``named``: that crop shows the other card's face (and where the look's
    card lies under that card, its own index is hidden there)."""
    if answer.read_by is None or sum(answer.read_by) != 1:
        return False
    return index_within(quad, 0 if answer.read_by[0] else 2, named)


def index_within(quad: np.ndarray, k: int, named: Sequence[np.ndarray]) -> bool:
    """Whether the middle of the index box at corner ``k`` of ``quad`` (0: top-left, 2:
    bottom-right, the top-left one turned) lies within a card of ``named``."""
    corner, across, along = quad[k], quad[(k + 1) % 4] - quad[k], quad[(k + 3) % 4] - quad[k]
    box = corner + (INDEX_BOX[0] + INDEX_BOX[2]) / 2 * across + (INDEX_BOX[1] + INDEX_BOX[3]) / 2 * along
    return any(
        cv2.pointPolygonTest(card.astype(np.float32), (float(box[0]), float(box[1])), False) > 0 for card in named
    )


def at_a_named_corner(quad: np.ndarray, named: Sequence[np.ndarray], width: float | None = None) -> bool:
    """Whether a corner of ``quad`` (or of some of its corners, given the card's ``width``) lies
    within ``fan_step`` of its width of a corner of a card of ``named``: its index crop there
    shows that card's index, cut."""
    reach = PARAMS.looks.fan_step * (float(np.linalg.norm(quad[1] - quad[0])) if width is None else width)
    return any(float(np.linalg.norm(quad[:, None] - card[None], axis=2).min()) < reach for card in named)


def under_a_named_card(quad: np.ndarray, answer: Identification, named: Sequence[np.ndarray]) -> bool:
    """Whether a card lying under a named one (a card shape at a fan's far end, a completion from
    a refused outline's corner) is named by what it was read as: as surely as a window across a
    fan (``slice_confidence``), with the index box it was read by on no named card, as any other
    look's, and the corners it was read by away from a named card's (there a crop shows that
    card's index, cut; its other corners lie under that card, where they may meet its corners)."""
    if (
        answer.read_by is None
        or answer.confidence < PARAMS.looks.slice_confidence
        or read_under_another(quad, answer, named)
    ):
        return False
    reading = [k for k, read in zip((0, 2), answer.read_by, strict=True) if read]
    return not at_a_named_corner(quad[reading], named, float(np.linalg.norm(quad[1] - quad[0])))
