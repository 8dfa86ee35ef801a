"""A refused corner's reading weighed by its located rank glyph.

The index model reads a fixed crop of the corner. Where a printing's rank glyph shows, in that
crop, much like another rank (a narrow queen's tail beside a 9's), it splits the card's probability
between the two and refuses. The glyph reader (:mod:`kiosk.vision.glyph_reader`) reads the rank
glyph located and normalised wherever it sits (:func:`~kiosk.vision.glyphs.find_index`). Where it
reads a refused corner's rank ``sure_rank`` surely, each card's probability is weighed by its
rank's (:func:`weighed`) and the corner decided again by the usual bars. The new answer stands
only where it is the corner's guess or runner-up and its suit passes those bars on its own (its
share of the cards' probability, its lead over the next suit): the glyph settles the rank between
the index model's own two candidates, never brings in a third, and leaves the suit to the index
model. It names no black card under ``pips.small_card_px`` wide, where a club's sign and a
spade's differ by a pixel or two, and it does not weigh a card whose outline was completed from a
part (a fanned card's strip): the index model's suit is a guess on such a crop as often as its
rank. The classes that name no card (``none``) keep their probability, so clutter the index model
calls no card stays so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from kiosk.decks import Deck
from kiosk.vision.face import FACE_SIZE, INDEX_BOX
from kiosk.vision.gallery import as_face
from kiosk.vision.glyph_reader import RANK_LABELS, GlyphReader, GlyphReading
from kiosk.vision.glyphs import CornerIndex, find_index, index_in
from kiosk.vision.model_input import as_bgr
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import Identification, decide

P = PARAMS.glyph_fallback


def weighed(probs: np.ndarray, answers: Sequence[str | None], reading: GlyphReading, deck: Deck) -> np.ndarray:
    """``probs`` (one corner's, in ``answers``' order) weighed by one corner's glyph ``reading``:
    each card's by its rank's probability among the ranks; a class naming no card, or a card
    without a rank the glyph reader knows (a joker), keeps its weight of 1. Normalised to sum 1."""
    rank_share = reading.ranks[:-1] / max(float(reading.ranks[:-1].sum()), 1e-6)
    weights = np.ones(len(answers), np.float32)
    for k, card_id in enumerate(answers):
        rank = None if card_id is None else deck[card_id].rank
        if rank in RANK_LABELS[:-1]:
            weights[k] = rank_share[RANK_LABELS.index(rank)]
    out = probs * weights
    return out / max(float(out.sum()), 1e-12)


class GlyphWeigher:
    """Weighs the refused corners of an index deck's cards by their located rank glyphs, read by
    ``glyphs`` (module docstring)."""

    def __init__(self, deck: Deck, glyphs: GlyphReader, answers: Sequence[str | None]) -> None:
        self.deck, self.glyphs, self.answers = deck, glyphs, list(answers)

    def reweigh(
        self,
        readings: list[Identification],
        probs: np.ndarray,
        index: Callable[[int], CornerIndex | None],
        small: Callable[[int], bool] | None = None,
    ) -> list[Identification]:
        """``readings`` (``probs`` their rows) with each refused one that has a guess decided
        again from its probabilities weighed by the rank glyph of its corner's located index
        (``index(j)``, looked for only for those), where the module docstring's rules allow;
        ``small(j)``: whether the reading's card is too small for a black suit sign to be read
        (asked only of those weighed; None: no card is)."""
        found = {j: i for j, r in enumerate(readings) if self._weighable(r, probs[j]) and (i := index(j)) is not None}
        if not found:
            return readings
        out = list(readings)
        for j, glyph in zip(found, self.glyphs.read(list(found.values())), strict=True):
            if glyph.sure_rank(P.sure_rank) is not None:
                out[j] = self._decided(readings[j], probs[j], glyph, small is not None and small(j))
        return out

    def _decided(self, was: Identification, probs: np.ndarray, glyph: GlyphReading, small: bool) -> Identification:
        r = PARAMS.read
        answer = decide(weighed(probs, self.answers, glyph, self.deck), self.answers, r.min_confidence, r.min_margin)
        if answer.card_id not in (was.guess, was.runner_up) or answer.card_id is None:
            return was
        if small and self.deck[answer.card_id].colour == "black":
            return was
        suits = self._suit_shares(probs)
        suit = self.deck[answer.card_id].suit
        lead = suits.get(suit, 0.0) - max((v for k, v in suits.items() if k != suit), default=0.0)
        return answer if suits.get(suit, 0.0) >= r.min_confidence and lead >= r.min_margin else was

    def _weighable(self, reading: Identification, probs: np.ndarray) -> bool:
        """Whether a corner's ``reading`` is refused with a guess, and its ``probs`` are not
        ``read.sure_none`` sure that it shows no card (clutter, most of a busy table's outlines)."""
        no_card = sum(float(p) for p, card_id in zip(probs, self.answers, strict=True) if card_id is None)
        return reading.card_id is None and reading.guess is not None and no_card < PARAMS.read.sure_none

    def _suit_shares(self, probs: np.ndarray) -> dict[str | None, float]:
        """Each suit's share of the probability ``probs`` give the deck's cards: the index model's
        own say on the suit, which weighing by rank leaves unchanged."""
        shares: dict[str | None, float] = {}
        for p, card_id in zip(probs, self.answers, strict=True):
            if card_id is not None:
                suit = self.deck[card_id].suit
                shares[suit] = shares.get(suit, 0.0) + float(p)
        total = max(sum(shares.values()), 1e-12)
        return {k: v / total for k, v in shares.items()}


def face_index(face: np.ndarray, corner: int) -> CornerIndex | None:
    """The index found in the warped ``face``'s top-left (``corner`` 0) or, turned half round,
    bottom-right corner (1)."""
    upright = as_face(as_bgr(face))
    return find_index(upright if corner == 0 else np.ascontiguousarray(upright[::-1, ::-1]))


def crop_index(crop: np.ndarray) -> CornerIndex | None:
    """The index found in a corner-index crop (:func:`~kiosk.vision.face.index_crops`), scaled to
    its box on a face: a glyph the crop cuts, like one past the corner region, is not one."""
    x0, y0, x1, y1 = INDEX_BOX
    w, h = FACE_SIZE
    box = cv2.resize(as_bgr(crop), (round((x1 - x0) * w), round((y1 - y0) * h)), interpolation=cv2.INTER_AREA)
    return index_in(box, FACE_SIZE)
