"""The normalised card face every identifier sees: a portrait crop of fixed size.

Detection warps each card to ``FACE_SIZE`` (width, height) with its long side vertical; the
standard corner index then sits in :data:`INDEX_BOX` (and, turned 180 degrees, in the opposite
corner), whatever the brand. Renderer, detector, identifier and training all use these numbers.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import ArrayLike

FACE_SIZE: tuple[int, int] = (200, 280)  # width, height in pixels (card aspect 63 x 88 mm)
#: Fractions of the face (x0, y0, x1, y1) that contain the top-left rank + suit index.
INDEX_BOX: tuple[float, float, float, float] = (0.0, 0.0, 0.22, 0.32)


def darkest_channel(bgr: np.ndarray) -> np.ndarray:
    """Per pixel, the lowest of the three channels of ``bgr``: white paper is high in all
    three, ink and a coloured table are low in one. (Split first: ``cv2.min`` of the channel
    views copies each of them, at twice the time.)"""
    b, g, r = cv2.split(bgr)
    return cv2.min(cv2.min(b, g), r)


def _corners(w: int, h: int) -> np.ndarray:
    """TL, TR, BR, BL of a ``w`` x ``h`` image, in pixels."""
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)


def face_homography(corners: np.ndarray, size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    """The homography from the quad ``corners`` (TL, TR, BR, BL) to the upright face of ``size``."""
    return cv2.getPerspectiveTransform(np.asarray(corners, dtype=np.float32), _corners(*size))


def card_sides(corners: ArrayLike) -> tuple[float, float]:
    """(short, long) side in pixels of the card at ``corners``, four points in order round it:
    the means of its two pairs of opposite sides (perspective shrinks one side of a pair)."""
    short, long_ = cards_sides(np.asarray(corners, np.float32).reshape(1, 4, 2))[0]
    return float(short), float(long_)


def cards_sides(quads: np.ndarray) -> np.ndarray:
    """:func:`card_sides` of each of ``quads`` (N, 4, 2), as float32 (N, 2)."""
    q = np.asarray(quads, np.float32)
    side = np.linalg.norm(q - np.roll(q, -1, axis=1), axis=2)
    return np.sort(np.stack([(side[:, 0] + side[:, 2]) / 2, (side[:, 1] + side[:, 3]) / 2], axis=1), axis=1)


def face_corners(face: np.ndarray) -> np.ndarray:
    """The corners (TL, TR, BR, BL) of an image that is a whole face."""
    h, w = face.shape[:2]
    return _corners(w, h)


def warp_face(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Warp the quad ``corners`` (TL, TR, BR, BL in frame pixels) to an upright FACE_SIZE image."""
    return cv2.warpPerspective(
        frame, face_homography(corners), FACE_SIZE, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def _index_rect(w: int, h: int) -> tuple[int, int, int, int]:
    """INDEX_BOX in the pixels of a ``w`` x ``h`` face: (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = INDEX_BOX
    return int(x0 * w), int(y0 * h), int(x1 * w), int(y1 * h)


def index_crops(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The top-left index and the bottom-right one turned upright (a card may lie either way)."""
    x0, y0, x1, y1 = _index_rect(face.shape[1], face.shape[0])
    h, w = face.shape[:2]
    return face[y0:y1, x0:x1], cv2.flip(face[h - y1 : h - y0, w - x1 : w - x0], -1)  # turned half round


def warp_index_corners(frame: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`index_crops` of :func:`warp_face`, warping only those two boxes: an index reader
    needs a tenth of the face's pixels."""
    w, h = FACE_SIZE
    x0, y0, x1, y1 = _index_rect(w, h)
    to_face = face_homography(corners)
    crops = []
    for ox, oy in ((x0, y0), (w - x1, h - y1)):  # the bottom-right box, before turning it
        shift = np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]], np.float64)
        crops.append(
            cv2.warpPerspective(
                frame, shift @ to_face, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
            )
        )
    return crops[0], cv2.flip(crops[1], -1)  # turned half round (a fifteenth of np.rot90's copy)
