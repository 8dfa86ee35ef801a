"""Math cards named by their printed text, matched against the kiosk's own rendering of each card.

The math-pairs deck is printed from the kiosk's sheets (``kiosk render sheet``), so the exact
look of every card is known: a calculation or a result, big, in the middle of the card. Reading
it back needs no trained model. The middle band of the warped face is cut to the tight box of its
ink, so the detector's slack in position and scale cancels out; that box, resized to a fixed
grid, is compared by normalised correlation with the same cut of every rendered card, the face
either way up. "7 × 8" and "7 × 9" differ in one digit, so an answer also needs a clear lead over
the best other card, and the ink box must have the template's proportions: a standard card,
a hand or a phone matches nothing well enough and is refused.
"""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.decks import Deck
from kiosk.vision.face import FACE_SIZE, darkest_channel
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import Identification

#: Fractions of the face (x0, y0, x1, y1) searched for the big text; symmetric about the centre,
#: so the face turned 180 degrees is cut the same way.
BAND: tuple[float, float, float, float] = (0.03, 0.25, 0.97, 0.75)
GRID: tuple[int, int] = (120, 40)  # w, h of the compared ink box
#: An answer needs this correlation, this lead over the best other card, and ink-box proportions
#: within this factor of the template's.
MIN_SCORE = 0.65
MIN_LEAD = 0.03
MAX_ASPECT_RATIO = 1.35


def _band(face: np.ndarray) -> np.ndarray:
    """The darkest channel of the band: blue and red ink alike turn dark, paper stays light."""
    h, w = face.shape[:2]
    x0, y0, x1, y1 = BAND
    crop = face[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w)]
    if crop.ndim == 2:
        return crop
    return darkest_channel(crop)


def ink_vector(face: np.ndarray) -> tuple[np.ndarray, float] | None:
    """(unit vector of the ink box on :data:`GRID`, log aspect of the box), or None when the band
    holds no text.

    The paper level is taken locally (a closing wider than a stroke), so light gradients and
    shadows flatten out; specks and lines entering from the band's sides (the printed frame,
    the table) are not text."""
    band = _band(face).astype(np.float32)
    h, w = band.shape
    k = max(3, round(w / 6)) | 1
    paper = cv2.morphologyEx(band, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    paper = cv2.GaussianBlur(paper, (k, k), 0)
    flat = band / np.maximum(paper, 1.0)
    if paper.mean() - band.min() < 30:
        return None
    # ink: darker than half-way from the paper to the darkest strokes (faded print, haze)
    ink = (flat < min(0.85, (1.0 + float(np.percentile(flat, 1))) / 2)).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    x, y, bw, bh, area = (stats[1:, i] for i in range(5))
    side = (x == 0) | (x + bw == w)
    # the printed frame crosses the whole band; the text is little more than half its height
    ok = (area >= 0.002 * h * w) & (bh < 0.8 * h) & ~(side & ((bh > 0.6 * h) | (bw < 0.04 * w)))
    if not ok.any():
        return None
    # the text's row: the tallest glyph's height, with some room for an underline below it;
    # what lies above or below (the edge of a shadow, a speck) is not part of it
    main = int(np.argmax(np.where(ok, bh, 0)))
    reach = 0.3 * bh[main]
    centre = y + bh / 2
    ok &= (centre >= y[main] - reach) & (centre <= y[main] + bh[main] + reach)
    x0, y0 = int(x[ok].min()), int(y[ok].min())
    x1, y1 = int((x + bw)[ok].max()), int((y + bh)[ok].max())
    if x1 - x0 < 4 or y1 - y0 < 4 or abs(x0 + x1 - w) > 0.3 * w or abs(y0 + y1 - h) > 0.3 * h:
        return None  # the big text is printed in the middle: this is part of it, or not text
    box = flat[max(0, y0 - 1) : y1 + 1, max(0, x0 - 1) : x1 + 1]
    v = cv2.resize(box, GRID, interpolation=cv2.INTER_AREA).ravel()
    v = v - v.mean()
    norm = float(np.linalg.norm(v))
    if norm < 1e-3:
        return None
    return -v / norm, float(np.log((x1 - x0) / (y1 - y0)))


class TextMatcher:
    """The cards of one printed-text deck and their ink vectors, built once per game (about a
    second for 128 cards), then a matrix product per frame."""

    def __init__(self, deck: Deck) -> None:
        from kiosk.render.faces import render_face  # the renderer is only needed to build

        ids: list[str] = []
        vectors: list[np.ndarray] = []
        aspects: list[float] = []
        for card in deck:
            face = np.asarray(render_face(card, None, FACE_SIZE[0]))[:, :, ::-1]
            found = ink_vector(face)
            if found is None:
                continue
            ids.append(card.id)
            vectors.append(found[0])
            aspects.append(found[1])
        self.ids = tuple(ids)
        self._vectors = np.stack(vectors)
        self._aspects = np.array(aspects, np.float32)

    def identify(self, face: np.ndarray) -> Identification:
        """The answer for one warped BGR face, either way up.

        The lead is over the best other card in either orientation, so a card that reads as
        another one upside down is only answered when its underline settles which. The lead is
        reported as ``margin`` rescaled so that :data:`MIN_LEAD` sits at the identifiers' shared
        bar (``min_margin`` of :class:`~kiosk.vision.params.ReadParams`), which the tracker applies to every deck.
        """
        if face.shape[:2] != (FACE_SIZE[1], FACE_SIZE[0]):
            face = cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)
        found = ink_vector(face)
        if found is None:
            return Identification(None, 0.0, None, 0.0)
        vec, aspect = found
        # the band is symmetric about the face's centre: the face turned 180 degrees gives the
        # same box turned, which on the grid is the vector reversed. (einsum, not a BLAS matrix-
        # vector product: OpenBLAS threads make that 30 times slower on a busy machine.)
        scores = np.einsum("ij,kj->ki", self._vectors, np.stack([vec, vec[::-1]])).max(axis=0)
        scores[np.abs(self._aspects - aspect) > np.log(MAX_ASPECT_RATIO)] = -1.0
        order = np.argsort(-scores)
        top, runner = int(order[0]), int(order[1])
        score, lead = max(float(scores[top]), 0.0), float(scores[top] - scores[runner])
        margin = min(1.0, lead * PARAMS.read.min_margin / MIN_LEAD)
        ok = score >= MIN_SCORE and lead >= MIN_LEAD
        return Identification(self.ids[top] if ok else None, score, self.ids[runner], margin)
