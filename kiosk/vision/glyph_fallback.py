"""Name the cards of an index deck the index model refuses, by their located glyphs.

The index model reads a fixed crop of each corner: a printing whose index sits elsewhere (a big
rank printed low, a suit beside the rank) leaves it unsure, and it refuses the card. This reader
takes those cards again, whatever the printing, without an enrolment: it locates each corner's
rank and suit glyph (:func:`~kiosk.vision.glyphs.find_index`), reads them with the glyph reader
(:mod:`kiosk.vision.glyph_reader`), and names the card only where every piece of evidence says
the same (:func:`glyph_answer`):

* the rank: read sure on one corner, and the other corner, where found, reading it too or no rank;
* the suit of a number card: its pips, counting the rank, read as one suit (the pip model);
* the suit of an ace or a court: the suit glyph read sure, the same, on both corners, and no more
  pips counted than a court's emblems give;
* the colour of the index ink, where it is clearly red or black, matches that suit, and no sure
  suit glyph says another suit.

Anything else stays refused: the cost of a wrong name at the table is higher than of a card shown
again. Cards the index model names are not read again, so the index deck's own printing and its
speed are untouched where the model reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from kiosk.decks import Deck
from kiosk.decks.model import RED_SUITS
from kiosk.vision.face import face_corners
from kiosk.vision.gallery import as_face
from kiosk.vision.glyph_reader import RANK_LABELS, GlyphReader, GlyphReading
from kiosk.vision.glyphs import CornerIndex, found_indices
from kiosk.vision.index_reader import IndexReader
from kiosk.vision.model_input import as_bgr
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import PipReader, PipReading
from kiosk.vision.reading import CardView, Identification

P = PARAMS.glyph_fallback
NUMBER_RANKS = frozenset(str(n) for n in range(2, 11))


def ink_colour(indices: Sequence[CornerIndex]) -> bool | None:
    """Whether the index ink is red (True) or black (False) by its mean redness over the found
    ``indices``; None where it lies between ``black_redness`` and ``red_redness``."""
    if not indices:
        return None
    redness = float(np.mean([i.redness for i in indices]))
    if redness >= P.red_redness:
        return True
    return False if redness <= P.black_redness else None


def glyph_rank(readings: Sequence[GlyphReading]) -> str | None:
    """The rank one corner reads sure (``sure_rank``) and no corner reads otherwise: another
    corner's likeliest label is that rank or no rank. None where no corner is sure, or they differ."""
    sure = {r for g in readings if (r := g.sure_rank(P.sure_rank)) is not None}
    if len(sure) != 1:
        return None
    rank = next(iter(sure))
    return rank if all(g.rank in (rank, "none") for g in readings) else None


def glyph_answer(readings: Sequence[GlyphReading], red: bool | None, pips: PipReading | None, deck: Deck) -> str | None:
    """The card id the located glyphs, the ink's colour ``red`` (None: unsure) and the face's
    ``pips`` reading name together, or None (module docstring: the rules)."""
    rank = glyph_rank(readings)
    if rank is None:
        return None
    glyph_suits = [g.sure_suit(P.sure_suit) for g in readings]
    if rank in NUMBER_RANKS:
        if pips is None or pips.count != int(rank) or pips.confidence < P.pip_confidence:
            return None
        suit = pips.suit
    elif pips is not None and pips.count > P.court_pips:
        return None
    elif len(readings) == 2 and glyph_suits[0] is not None and glyph_suits[0] == glyph_suits[1]:
        suit = glyph_suits[0]
    else:
        return None
    if any(s not in (None, suit) for s in glyph_suits) or (red is not None and red != (suit in RED_SUITS)):
        return None
    if red is None and P.colour_needed:
        return None
    card_id = rank + suit
    return card_id if card_id in deck else None


class GlyphFallback:
    """An index deck's reader (``primary``, :class:`~kiosk.vision.index_reader.IndexReader`)
    whose refused cards are read again by their located glyphs (``glyphs``) and, for number
    cards, their ``pips``: one answer per card, the primary's where it names the card."""

    def __init__(self, primary: IndexReader, glyphs: GlyphReader, pips: PipReader | None) -> None:
        self.primary, self.glyphs, self.pips = primary, glyphs, pips

    def name(self, face: np.ndarray) -> Identification | None:
        """The answer the glyphs of the warped ``face`` (either way up) give, or None: its
        confidence and margin the sure rank's probability, read by the corners whose likeliest
        rank it is."""
        upright = as_face(as_bgr(face))  # a malformed face is a black pixel: no index found
        found = found_indices(upright)
        readings = self.glyphs.read([i for _, i in found])
        rank = glyph_rank(readings)
        if rank is None:
            return None
        pips = self.pips.read([(upright, face_corners(upright))])[0] if self.pips is not None else None
        card_id = glyph_answer(readings, ink_colour([i for _, i in found]), pips, self.primary.deck)
        if card_id is None:
            return None
        sure = float(max(g.ranks[RANK_LABELS.index(rank)] for g in readings))
        by = {k for (k, _), g in zip(found, readings, strict=True) if g.rank == rank}
        return Identification(card_id, sure, None, sure, card_id, (0 in by, 1 in by))

    def _fill(self, answers: list[Identification], face: Callable[[int], np.ndarray]) -> list[Identification]:
        """``answers`` with each refusal the glyphs of its card's ``face(k)`` name replaced."""
        return [a if a.card_id is not None else self.name(face(k)) or a for k, a in enumerate(answers)]

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]:
        return self._fill(self.primary.identify(faces), lambda k: faces[k])

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]:
        return self._fill(self.primary.identify_cards(cards), lambda k: cards[k].face)

    def identify_index(self, crops: Sequence[np.ndarray]) -> list[Identification]:
        return self.primary.identify_index(crops)
