"""A court card's suit spots: the places on an enrolled printing's face where a suit sign shows
(the index's, an emblem in the court art) that the pip model reads as the card's suit.

Enrolment keeps them per court (:func:`suit_spots`); the enrolled reader
(:mod:`kiosk.vision.enrolled`) reads the signs it finds at those places again, either way up.
"""

from __future__ import annotations

import numpy as np

from kiosk.vision.face import FACE_SIZE
from kiosk.vision.gallery import as_face
from kiosk.vision.glyphs import signs
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import PIP_LABELS, PipReader, face_ink, sign_patches

#: A court keeps up to this many suit spots (centre x, y and side, face pixels).
MAX_SPOTS = 8
RED_SUITS = ("D", "H")
BLACK_SUITS = ("C", "S")
E = PARAMS.enrolled


def suit_spots(face: np.ndarray, suit: str, pips: PipReader) -> np.ndarray:
    """Where the rectified ``face`` shows a suit sign that the pip model reads as its ``suit``
    (n x 3: centre x, y and side, face pixels; up to :data:`MAX_SPOTS`), leaving out a spot whose
    place turned half round reads as the other suit of that colour."""
    ink = face_ink(as_face(face))
    found = signs(ink)
    if not len(found):
        return found
    right, upside = (sign_probs(pips, ink, at) for at in (found, turned(found)))
    other = other_suit(suit)
    keep = (right[:, PIP_LABELS.index(suit)] >= E.min_pip_confidence) & (
        upside[:, PIP_LABELS.index(other)] < E.max_turned_other
    )
    return found[keep][:MAX_SPOTS]


def sign_probs(pips: PipReader, ink: np.ndarray, spots: np.ndarray) -> np.ndarray:
    """The pip model's mean probabilities (n x 4) for the signs at ``spots`` of ``ink``, over
    looks shifted by ``sign_shift`` each way and scaled by ``sign_scales``."""
    d = E.sign_shift
    looks = [
        spots * (1.0, 1.0, scale) + (dx, dy, 0.0)
        for dx, dy in ((0, 0), (d, 0), (-d, 0), (0, d), (0, -d))
        for scale in E.sign_scales
    ]
    probs = pips.suit_probs(sign_patches(ink, np.concatenate(looks).astype(np.float32)))
    return probs.reshape(len(looks), len(spots), -1).mean(axis=0)


def turned(spots: np.ndarray) -> np.ndarray:
    """``spots`` on the face turned half round."""
    w, h = FACE_SIZE
    return np.column_stack([w - spots[:, 0], h - spots[:, 1], spots[:, 2]]).astype(np.float32)


def spot_at(found: np.ndarray, spot: np.ndarray) -> np.ndarray | None:
    """The sign of ``found`` nearest ``spot`` and at its place (``spot_offset``, ``spot_size_ratio``), else None."""
    if not len(found):
        return None
    off = np.hypot(found[:, 0] - spot[0], found[:, 1] - spot[1])
    sides = np.maximum(found[:, 2], spot[2]), np.minimum(found[:, 2], spot[2])
    there = (off <= max(E.min_spot_offset, E.spot_offset * spot[2])) & (sides[0] <= E.spot_size_ratio * sides[1])
    return found[int(np.argmin(np.where(there, off, np.inf)))] if there.any() else None


def other_suit(suit: str) -> str:
    """The other suit of ``suit``'s colour."""
    pair = RED_SUITS if suit in RED_SUITS else BLACK_SUITS
    return pair[1 - pair.index(suit)]
