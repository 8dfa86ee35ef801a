"""Recognise the cards in one still image (``kiosk recognize``, tests, benchmarks).

No tracking: a still has no history, so every detected quad the identifier names is reported,
with its confidence; quads it refuses (not a card of the deck, unsure) are left out. A picture
in which no card is named is looked at again in other views until one names a card: zoomed out
(``zoom_out``: a phone photo of one card shows it far larger than the camera frames the
detector was made for), turned a quarter if portrait (the outline model's input is landscape),
zoomed in (a small card on a busy floor).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.table import Point
from kiosk.vision.detect import Detector, as_bgr
from kiosk.vision.geometry import order_corners, polygon_iou, shrunk_to
from kiosk.vision.identify import Identification
from kiosk.vision.naming import name_cards
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import CardReader

#: A view of a still: a frame to look at, and the map of its corners back to the still's pixels.
View = tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]


@dataclass(frozen=True)
class RecognizedCard:
    """A named card in an image: id, confidence and corners (TL, TR, BR, BL) in pixels."""

    card_id: str
    confidence: float
    corners: tuple[Point, Point, Point, Point]

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.card_id,
            "confidence": round(self.confidence, 4),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
        }


def recognize(image: np.ndarray, identifier: CardReader, detector: Detector | None = None) -> list[RecognizedCard]:
    """The named cards of ``image`` (:func:`read_still`), top to bottom then left to right."""
    bgr = as_bgr(image)
    if bgr is None:
        return []
    out = [
        RecognizedCard(
            ident.card_id,
            float(ident.confidence),
            tuple((float(x), float(y)) for x, y in corners),  # type: ignore[arg-type]
        )
        for corners, ident in read_still(bgr, identifier, detector or Detector())
        if ident.card_id is not None
    ]
    return sorted(
        out, key=lambda c: (round(np.mean([p[1] for p in c.corners]) / 20), np.mean([p[0] for p in c.corners]))
    )


def read_still(bgr: np.ndarray, identifier: CardReader, detector: Detector) -> list[tuple[np.ndarray, Identification]]:
    """(corners, answer) of every outline read in the BGR still ``bgr``, named or refused: every
    cue; where that names no card, the cards named in other views of the picture, zoomed out,
    turned, zoomed in (:func:`_zoomed_out`, :func:`_turned`, :func:`_zoomed_in`), until one does."""
    read = _read(bgr, identifier, detector)
    for views, times in ((_zoomed_out, 1), (_turned, 1), (_zoomed_in, PARAMS.still.tiles_agreeing)):
        if any(ident.card_id is not None for _, ident in read):
            break
        read += _agreed(
            [
                (back(corners), ident)
                for frame, back in views(bgr)
                for corners, ident in _read(frame, identifier, detector)
                if ident.card_id is not None
            ],
            times,
        )
    return read


def _read(bgr: np.ndarray, identifier: CardReader, detector: Detector) -> list[tuple[np.ndarray, Identification]]:
    """(corners, answer) of each outline every cue finds in ``bgr``, second looks included."""
    return [(det.corners, ident) for det, ident in name_cards(identifier, detector, bgr, detector.detect(bgr))]


def _agreed(found: list[tuple[np.ndarray, Identification]], times: int) -> list[tuple[np.ndarray, Identification]]:
    """One (corners, answer) per card of ``found`` (named in one or several views), the surest,
    where it was named at least ``times``; none where views name different cards at one place
    (outlines at ``same_place`` or more)."""
    places: list[list[tuple[np.ndarray, Identification]]] = []
    for item in sorted(found, key=lambda f: -f[1].confidence):
        place = next((p for p in places if polygon_iou(p[0][0], item[0]) >= PARAMS.still.same_place), None)
        if place is None:
            places.append([item])
        else:
            place.append(item)
    return [place[0] for place in places if len(place) >= times and len({ident.card_id for _, ident in place}) == 1]


def _zoomed_out(bgr: np.ndarray) -> list[View]:
    """The picture in the middle of a frame ``zoom_out`` times as large, its edge repeated round it.
    A card the picture cuts keeps its corners beyond the picture's edge."""
    small, scale = shrunk_to(bgr, PARAMS.still.view_side)
    sh, sw = small.shape[:2]
    dx, dy = (PARAMS.still.zoom_out - 1) * sw // 2, (PARAMS.still.zoom_out - 1) * sh // 2
    return [
        (
            cv2.copyMakeBorder(small, dy, dy, dx, dx, cv2.BORDER_REPLICATE),
            _moved_back(np.array([-dx, -dy], np.float32), 1 / scale),
        )
    ]


def _turned(bgr: np.ndarray) -> list[View]:
    """A portrait picture turned a quarter clockwise; none under ``turn_aspect`` as tall as wide."""
    h, w = bgr.shape[:2]
    if h < PARAMS.still.turn_aspect * w:
        return []
    # the turned picture's (x, y) is this one's (h - 1 - y, x)
    return [
        (
            cv2.rotate(bgr, cv2.ROTATE_90_CLOCKWISE),
            lambda c: order_corners(np.stack([c[:, 1], h - 1 - c[:, 0]], axis=1)),
        )
    ]


def _zoomed_in(bgr: np.ndarray) -> list[View]:
    """The picture scaled ``zoom_in`` times, cut into 3 x 3 overlapping tiles of its own size."""
    small, scale = shrunk_to(bgr, PARAMS.still.view_side)
    sh, sw = small.shape[:2]
    big = cv2.resize(
        small, (round(sw * PARAMS.still.zoom_in), round(sh * PARAMS.still.zoom_in)), interpolation=cv2.INTER_CUBIC
    )
    bh, bw = big.shape[:2]
    return [
        (big[y : y + sh, x : x + sw], _moved_back(np.array([x, y], np.float32), 1 / (scale * PARAMS.still.zoom_in)))
        for y in (0, (bh - sh) // 2, bh - sh)
        for x in (0, (bw - sw) // 2, bw - sw)
    ]


def _moved_back(offset: np.ndarray, scale: float) -> Callable[[np.ndarray], np.ndarray]:
    """The map of a view's corners back to the still's pixels: moved by ``offset`` (the view's
    origin in a copy of the still), then scaled by ``scale`` (the still's size over the copy's)."""
    return lambda c: (c + offset) * scale
