"""A warped face matched against the kiosk's own rendering of a deck's cards.

The L'Affiche Belge deck is printed from the kiosk's art, so each card's look is known. The middle
of each card's rendered face, in grey, blurred and shrunk, is searched for in the middle of a
warped face: normalised correlation, the face either way up, at a few scales and every shift
within the searched box, since an outline found a little off the card's edges (its white border
lost in a white table, a side cut by another card) shifts and scales the art.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from kiosk.decks import Card
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.model_input import as_bgr
from kiosk.vision.params import PARAMS


def _grey(face: np.ndarray) -> np.ndarray:
    """``face`` (FACE_SIZE, BGR or grey) in grey, blurred so that print and camera detail do not
    count, and shrunk by :attr:`~kiosk.vision.params.ArtParams.scale_down`."""
    p = PARAMS.art
    grey = face if face.ndim == 2 else cv2.cvtColor(as_bgr(face), cv2.COLOR_BGR2GRAY)
    blurred = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), p.blur * grey.shape[1])
    size = (round(grey.shape[1] / p.scale_down), round(grey.shape[0] / p.scale_down))
    return cv2.resize(blurred, size, interpolation=cv2.INTER_AREA)


def _cut(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    h, w = image.shape[:2]
    x0, y0, x1, y1 = box
    return image[round(y0 * h) : round(y1 * h), round(x0 * w) : round(x1 * w)]


def _zoomed(face: np.ndarray, zoom: float) -> np.ndarray:
    """``face`` scaled by ``zoom`` about its centre, at its own size."""
    h, w = face.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 0.0, zoom)
    return cv2.warpAffine(face, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


class ArtMatcher:
    """The art of ``cards`` as the renderer draws them, at each of
    :attr:`~kiosk.vision.params.ArtParams.zooms`."""

    def __init__(self, cards: Sequence[Card]) -> None:
        from kiosk.render.faces import render_face  # the renderer is needed only for such decks

        p = PARAMS.art
        self.templates: dict[str, list[np.ndarray]] = {}
        for card in cards:  # rendered FACE_SIZE: a face is 7/5 as tall as it is wide
            face = cv2.cvtColor(np.asarray(render_face(card, width=FACE_SIZE[0])), cv2.COLOR_RGB2GRAY)
            self.templates[card.id] = [_cut(_grey(_zoomed(face, z)), p.art) for z in p.zooms]

    def scores(self, face: np.ndarray, ids: Sequence[str]) -> np.ndarray:
        """Per card of ``ids``, the best normalised correlation of its art with ``face``'s middle,
        over the face either way up, the art's scales and its shifts within the searched box."""
        grey = _grey(face)
        areas = [_cut(g, PARAMS.art.search) for g in (grey, cv2.rotate(grey, cv2.ROTATE_180))]

        def score(templates: list[np.ndarray]) -> float:
            return max(float(cv2.matchTemplate(a, t, cv2.TM_CCOEFF_NORMED).max()) for a in areas for t in templates)

        return np.array([score(self.templates[i]) for i in ids])

    def best(self, face: np.ndarray, ids: Sequence[str]) -> tuple[str, float, float]:
        """The card of ``ids`` (two or more) whose art ``face`` shows best: (its id, its
        correlation, its lead over the next)."""
        s = self.scores(face, ids)
        order = np.argsort(s)[::-1]
        return ids[order[0]], float(s[order[0]]), float(s[order[0]] - s[order[1]])
