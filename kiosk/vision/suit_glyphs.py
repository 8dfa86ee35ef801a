"""The suit glyph of an enrolled printing's index, read by comparing it with that printing's own.

:func:`kiosk.vision.glyphs.find_index` marks the glyph of each corner index that may be its suit
(printed beside or under the rank). Enrolment keeps it normalised (:func:`glyph_patch`: centred,
scaled to its box) for every card and corner, 4 suits x 13 cards x 2 corners. A printing whose
marked glyphs do not tell its suits apart among themselves (no suit in the index, or a glyph
too small to read) is not read this way at all: :class:`SuitGlyphs` checks that once, on the
enrolled glyphs, each against the other cards'. The printing's pips, read the same way, are the
templates its courts' suit signs are read by (:mod:`kiosk.vision.suit_spots`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kiosk.vision.glyphs import CornerIndex, glyph_patch
from kiosk.vision.params import PARAMS

#: Side of the square patch a suit glyph is normalised into (face pixels at the common size).
SUIT_PATCH = 16
SUIT_DIM = SUIT_PATCH * SUIT_PATCH
E = PARAMS.enrolled


def suit_patch(index: CornerIndex) -> np.ndarray:
    """The normalised suit glyph of ``index`` (SUIT_DIM float32), zeros where it marks none or a
    glyph longer than ``sign_aspect`` times its width (no suit sign: a sliver that blur left of
    one, scaled up to a shape of its own)."""
    if index.suit is None:
        return np.zeros(SUIT_DIM, np.float32)
    _, _, w, h = index.suit
    if max(w, h) > PARAMS.glyphs.sign_aspect * min(w, h):
        return np.zeros(SUIT_DIM, np.float32)
    return glyph_patch(index.ink, index.suit, SUIT_PATCH).ravel()


def _unit(rows: np.ndarray) -> np.ndarray:
    rows = rows - rows.mean(axis=1, keepdims=True)
    return rows / (np.linalg.norm(rows, axis=1, keepdims=True) + 1e-6)


class SuitGlyphs:
    """The enrolled suit glyphs of one printing and the reading of a found one against them."""

    def __init__(self, patches: np.ndarray, suits: list[str], cards: Sequence[int] | None = None) -> None:
        """``patches`` (n x SUIT_DIM, a zero row where a corner marked none), the suit of each
        and the card each is of (by default, each card's two corners in turn)."""
        inked = patches.any(axis=1)
        of_card = np.arange(len(patches)) // 2 if cards is None else np.asarray(cards)
        glyphs = _unit(patches[inked])
        #: the printing's mean glyph: what all its suits share, taken off before comparing
        self.mean = glyphs.mean(axis=0) if len(glyphs) else np.zeros(SUIT_DIM, np.float32)
        self.templates = _unit(glyphs - self.mean)
        self.suits = np.array(suits)[inked]
        self.cards = of_card[inked]
        self.labels = sorted(set(self.suits.tolist()))
        self.usable = len(self.labels) > 1 and self._agreement() >= E.min_suit_agreement

    def _agreement(self) -> float:
        """The share of enrolled glyphs that the other cards' glyphs read as their own suit."""
        sims = self.templates @ self.templates.T
        sims[self.cards[:, None] == self.cards[None, :]] = -1.0  # a card's glyphs do not vouch for it
        right = [self._decide(row) == suit for row, suit in zip(sims, self.suits, strict=True)]
        return float(np.mean(right)) if right else 0.0

    def _lean(self, sims: np.ndarray, among: Sequence[str] | None = None) -> tuple[str | None, float]:
        """The suit (of ``among``, else of all) whose best glyph correlation ``sims`` is highest, at
        ``min_suit_score`` or more, and its lead over the other suits' best; (None, 0.0) below."""
        best = {s: float(sims[self.suits == s].max(initial=-1.0)) for s in among or self.labels}
        order = sorted(best, key=lambda s: -best[s])
        score, other = best[order[0]], best[order[1]]
        return (order[0], score - other) if score >= E.min_suit_score else (None, 0.0)

    def _decide(self, sims: np.ndarray) -> str | None:
        """The suit :meth:`_lean` gives where it leads by ``min_suit_margin``, else None."""
        suit, lead = self._lean(sims)
        return suit if lead >= E.min_suit_margin else None

    def read(self, index: CornerIndex) -> str | None:
        """The suit the suit glyph of ``index`` clearly shows, else None (also where the printing's
        glyphs do not tell its suits apart)."""
        patch = suit_patch(index)
        return self.suit_of(patch) if patch.any() else None

    def lean_of(self, patch: np.ndarray, among: Sequence[str] | None = None) -> tuple[str | None, float]:
        """The suit (of ``among``, else of all) the normalised glyph ``patch`` (SUIT_DIM) looks most
        like and its lead over the others (:meth:`_lean`); (None, 0.0) where the printing's glyphs
        do not tell its suits apart."""
        if not self.usable:
            return None, 0.0
        return self._lean(self.templates @ _unit(_unit(patch[None]) - self.mean)[0], among)

    def suit_of(self, patch: np.ndarray, among: Sequence[str] | None = None) -> str | None:
        """The suit (of ``among``, else of all) the normalised glyph ``patch`` clearly shows: its
        :meth:`lean_of` by ``min_suit_margin`` or more; else None."""
        suit, lead = self.lean_of(patch, among)
        return suit if lead >= E.min_suit_margin else None
