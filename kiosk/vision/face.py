"""The normalised card face every identifier sees: a portrait crop of fixed size.

Detection warps each card to ``FACE_SIZE`` (width, height) with its long side vertical; the
standard corner index then sits in :data:`INDEX_BOX` (and, turned 180 degrees, in the opposite
corner), whatever the brand. Renderer, detector, identifier and training all use these numbers.
"""

from __future__ import annotations

import cv2
import numpy as np

FACE_SIZE: tuple[int, int] = (200, 280)  # width, height in pixels (card aspect 63 x 88 mm)
#: Fractions of the face (x0, y0, x1, y1) that contain the top-left rank + suit index.
INDEX_BOX: tuple[float, float, float, float] = (0.0, 0.0, 0.22, 0.32)


def warp_face(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Warp the quad ``corners`` (TL, TR, BR, BL in frame pixels) to an upright FACE_SIZE image."""
    w, h = FACE_SIZE
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(corners, dtype=np.float32), dst)
    return cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def index_crops(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The top-left index and the bottom-right one turned upright (a card may lie either way)."""
    h, w = face.shape[:2]
    x0, y0, x1, y1 = INDEX_BOX
    tl = face[int(y0 * h): int(y1 * h), int(x0 * w): int(x1 * w)]
    br = np.rot90(face, 2)[int(y0 * h): int(y1 * h), int(x0 * w): int(x1 * w)]
    return tl, np.ascontiguousarray(br)
