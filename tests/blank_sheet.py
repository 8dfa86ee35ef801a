"""A blank pale sheet laid on a rendered table (a beer mat, a blank card): outlined by the
detector like a card, with no index or print of its own."""

from __future__ import annotations

import cv2
import numpy as np


def beside_a_blank(frame: np.ndarray) -> np.ndarray:
    """``frame`` (1920 x 1080) with a blank pale card-sized sheet lying on its table at (400, 300)."""
    out = frame.copy()
    cv2.fillConvexPoly(out, cv2.boxPoints(((400, 300), (170, 240), 25)).astype(np.int32), (235, 238, 240))
    return cv2.GaussianBlur(out, (3, 3), 0)
