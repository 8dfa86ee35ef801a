"""Recognise the cards in one still image (``kiosk recognize``, tests, benchmarks).

No tracking: a still has no history, so every detected quad the identifier names is reported,
with its confidence; quads it refuses (not a card of the deck, unsure) are left out. A picture
in which no card is named is looked at again zoomed out (:data:`ZOOM_OUT`: a phone photo of one
card shows it far larger than the camera frames the detector was made for), then, if portrait,
turned a quarter (the outline model's input is landscape).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from kiosk.table import Point
from kiosk.vision.detect import Detector, as_bgr, order_corners
from kiosk.vision.identify import Identification
from kiosk.vision.naming import IdentifierLike, name_cards

#: A photo of one card shows it larger than the camera frames the detector was made for: filling
#: half the picture or more, on a pale table its faint border is lost and the pips' boxes are
#: taken for cards. A picture that names no card is looked at again in the middle of a frame
#: ZOOM_OUT times its size, the rest its own edge repeated: the card then lies at a table's
#: scale (bench_close_up, 300 close-ups: the card at 54 % of the picture named 92.0 -> 99.3 %).
ZOOM_OUT = 3
#: The picture's long side at most in that frame (larger ones are scaled down first): a card
#: filling half of it is still read from some 600 pixels, and a phone's 12-megapixel photo does
#: not become a frame of a hundred.
ZOOM_OUT_SIDE = 1280
#: The outline model's input is landscape (5:3): a 3:4 phone photo fitted into it uses 144 of its
#: 320 columns, and its cards fall below the smallest the model learnt. Turned a quarter, a
#: picture h/w times as tall as wide is seen min(h/w, 5/3) times as large; from 1.25 on that is
#: worth another look (edje-tfod: 6 single cards of 3:4 photos named), under it the look is one
#: more chance to misread (a near-square close-up of a washed-out jack read 10D at 0.99).
TURN_ASPECT = 1.25


@dataclass(frozen=True)
class RecognizedCard:
    """A named card in an image: id, confidence and corners (TL, TR, BR, BL) in pixels."""

    card_id: str
    confidence: float
    corners: tuple[Point, Point, Point, Point]

    def to_json(self) -> dict[str, object]:
        return {"id": self.card_id, "confidence": round(self.confidence, 4),
                "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners]}


def read_image(path: str | Path) -> np.ndarray | None:
    """The image at ``path`` as BGR, or None when it is missing or not a readable image."""
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError:
        return None
    if data.size == 0:
        return None
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def recognize(image: np.ndarray, identifier: IdentifierLike,
              detector: Detector | None = None) -> list[RecognizedCard]:
    """The named cards of ``image`` (:func:`read_still`), top to bottom then left to right."""
    bgr = as_bgr(image)
    if bgr is None:
        return []
    out = [RecognizedCard(ident.card_id, float(ident.confidence),  # type: ignore[arg-type]
                          tuple((float(x), float(y)) for x, y in corners))  # type: ignore[arg-type]
           for corners, ident in read_still(bgr, identifier, detector or Detector()) if ident.card_id is not None]
    return sorted(out, key=lambda c: (round(np.mean([p[1] for p in c.corners]) / 20),
                                      np.mean([p[0] for p in c.corners])))


def read_still(bgr: np.ndarray, identifier: IdentifierLike, detector: Detector
               ) -> list[tuple[np.ndarray, Identification]]:
    """(corners, answer) of every outline read in the BGR still ``bgr``, named or refused: every
    cue; where that names no card, also the cards the picture names zoomed out, and where that
    names none either, turned a quarter (:func:`_zoomed_out`, :func:`_turned`)."""
    read = _read(bgr, identifier, detector)
    for look_again in (_zoomed_out, _turned):
        if any(ident.card_id is not None for _, ident in read):
            break
        read += [(corners, ident) for corners, ident in look_again(bgr, identifier, detector)
                 if ident.card_id is not None]
    return read


def _read(bgr: np.ndarray, identifier: IdentifierLike, detector: Detector
          ) -> list[tuple[np.ndarray, Identification]]:
    return [(det.corners, ident) for det, ident in name_cards(identifier, detector, bgr, detector.detect(bgr))]


def _zoomed_out(bgr: np.ndarray, identifier: IdentifierLike, detector: Detector
                ) -> list[tuple[np.ndarray, Identification]]:
    """:func:`_read` of ``bgr`` (scaled to ZOOM_OUT_SIDE at most) in the middle of a frame
    ZOOM_OUT times as large, its edge repeated round it; corners in ``bgr``'s pixels. A card the
    picture cuts keeps its corners beyond the picture's edge."""
    h, w = bgr.shape[:2]
    scale = min(1.0, ZOOM_OUT_SIDE / max(h, w))
    small = bgr if scale == 1.0 else cv2.resize(bgr, (max(1, round(w * scale)), max(1, round(h * scale))),
                                                 interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    dx, dy = (ZOOM_OUT - 1) * sw // 2, (ZOOM_OUT - 1) * sh // 2
    frame = cv2.copyMakeBorder(small, dy, dy, dx, dx, cv2.BORDER_REPLICATE)
    offset, back = np.array([dx, dy], np.float32), np.array([w / sw, h / sh], np.float32)
    return [((corners - offset) * back, ident) for corners, ident in _read(frame, identifier, detector)]


def _turned(bgr: np.ndarray, identifier: IdentifierLike, detector: Detector
            ) -> list[tuple[np.ndarray, Identification]]:
    """:func:`_read` of a portrait ``bgr`` turned a quarter clockwise, corners in ``bgr``'s
    pixels; none for a picture under TURN_ASPECT as tall as wide."""
    h, w = bgr.shape[:2]
    if h < TURN_ASPECT * w:
        return []
    # the turned picture's (x, y) is this one's (h - 1 - y, x)
    return [(order_corners(np.stack([corners[:, 1], h - 1 - corners[:, 0]], axis=1)), ident)
            for corners, ident in _read(cv2.rotate(bgr, cv2.ROTATE_90_CLOCKWISE), identifier, detector)]
