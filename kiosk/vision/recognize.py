"""Recognise the cards in one still image (``kiosk recognize``, tests, benchmarks).

No tracking: a still has no history, so every detected quad the identifier names is reported,
with its confidence; quads it refuses (not a card of the deck, unsure) are left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from kiosk.table import Point
from kiosk.vision.detect import Detector, as_bgr
from kiosk.vision.naming import IdentifierLike, name_cards


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
    """The named cards of ``image``, top to bottom then left to right."""
    bgr = as_bgr(image)
    if bgr is None:
        return []
    detector = detector or Detector()
    out = []
    for det, ident in name_cards(identifier, detector, bgr, detector.detect(bgr)):
        if ident.card_id is None:
            continue
        corners = tuple((float(x), float(y)) for x, y in det.corners)
        out.append(RecognizedCard(ident.card_id, float(ident.confidence), corners))  # type: ignore[arg-type]
    return sorted(out, key=lambda c: (round(np.mean([p[1] for p in c.corners]) / 20),
                                      np.mean([p[0] for p in c.corners])))
