"""Read an index deck's cards from their two corner indices, rank and suit, with the members of
``models/index.tflite`` (trained on many made-up brands: any standard deck works), each number
card checked by its pips (:mod:`kiosk.vision.pip_check`).

A corner read under ``sure`` is read again from four shifted cuts and answered from the mean of
the five readings: most misreadings hang on where the crop's edges cut a glyph, and do not
survive the other cuts. One still refused is read zoomed (the outline a little off the card's
size), and one refused still, widened (an index printed narrower than the model learnt). A
corner surely showing no card, or whose card's other corner is sure of it, is not read again.
A card shows two indices: the surer answers, and two naming different cards contradict. A corner
whose crop shows its rank alone (:func:`~kiosk.vision.glyphs.rank_alone`: a printing with no suit
in its index) names no card: the model's suit there is a guess, and the card's pips
(:func:`~kiosk.vision.pip_check.dispute`) or its located glyphs name it, or nothing does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from kiosk.decks import Deck
from kiosk.vision.face import face_corners, index_crops
from kiosk.vision.glyph_weight import GlyphWeigher, crop_index, face_index
from kiosk.vision.glyphs import CornerIndex, rank_alone
from kiosk.vision.members import Members
from kiosk.vision.model_input import as_bgr, prepare
from kiosk.vision.params import PARAMS
from kiosk.vision.pip_check import SAME_COLOUR, checked_by_pips, too_small
from kiosk.vision.pips import PipReader
from kiosk.vision.reading import CardView, Identification, decide

#: A card's readings of its (top-left, bottom-right) corner indices.
Pair = tuple[Identification, Identification]


class IndexReader:
    """Reads the cards of an index ``deck`` with the index model's ``members``, their number
    cards checked by ``pips`` (None: the deck's pips are not read)."""

    def __init__(
        self, deck: Deck, members: Members, pips: PipReader | None, weigher: GlyphWeigher | None = None
    ) -> None:
        self.deck, self.members, self.pips, self.weigher = deck, members, pips, weigher

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]:
        """One answer per warped face (FACE_SIZE BGR, either way up), from its corner crops."""
        bgr = [as_bgr(f) for f in faces]
        readings = self._read_corners([index_crops(f) for f in bgr], lambda j: face_index(bgr[j // 2], j % 2))
        return self._named(readings, lambda i: (bgr[i], face_corners(bgr[i])))

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]:
        """One answer per found card, reading only its two corners (warping the whole face
        would cost more than the reading); a completed outline's corners are not weighed by
        their glyphs."""
        if not cards:
            return []
        readings = self._read_corners(
            [c.index_corners() for c in cards],
            lambda j: card_index(cards[j // 2], j % 2),
            lambda j: too_small([cards[j // 2].around()[1]])[0],
        )
        return self._named(readings, lambda i: cards[i].around())

    def identify_index(self, crops: Sequence[np.ndarray]) -> list[Identification]:
        """One answer per upright corner-index crop (from :func:`kiosk.vision.face.index_crops`)."""
        if not crops:
            return []
        probs, _ = self.members.scores(crops)
        answers = [self._decide(p) for p in probs]
        answers, final = self._read_again(crops, probs, answers, self._unsure(probs, answers))
        return answers if self.weigher is None else self.weigher.reweigh(answers, final, lambda j: crop_index(crops[j]))

    def _named(
        self, readings: list[Pair], card: Callable[[int], tuple[np.ndarray, np.ndarray]]
    ) -> list[Identification]:
        """Each card's answer from its two corners' ``readings``, checked by its pips where the
        deck's are read (``card(i)``: the i-th card's image and corners), saying which of its
        corners read it."""
        answers = [both_corners(a, b) for a, b in readings]
        if self.pips is not None:
            answers = checked_by_pips(self.deck, self.pips, readings, answers, card)
        return [_with_corners(a, pair) for a, pair in zip(answers, readings, strict=True)]

    def _decide(self, probs: np.ndarray) -> Identification:
        return decide(probs, self.members.answers, PARAMS.read.min_confidence, PARAMS.read.min_margin)

    def _read_corners(
        self,
        pairs: Sequence[tuple[np.ndarray, np.ndarray]],
        index: Callable[[int], CornerIndex | None],
        small: Callable[[int], bool] | None = None,
    ) -> list[Pair]:
        """Each card's readings of its (top-left, bottom-right) index crops, a corner still
        refused weighed by its located rank glyph where the deck's are read (``index(j)``: the
        j-th crop's located index, None where it is not to be weighed; ``small(j)``: whether its
        card is under ``pips.small_card_px`` wide, :mod:`kiosk.vision.glyph_weight`)."""
        crops = [crop for pair in pairs for crop in pair]
        probs = self._pair_scores(crops)
        answers = [self._decide(p) for p in probs]
        unsure = [i for i in self._unsure(probs, answers) if not _vouched_for(answers[i], answers[i ^ 1])]
        both, final = self._read_again(crops, probs, answers, unsure)
        if self.weigher is not None:
            both = self.weigher.reweigh(both, final, index, small)
        return [self._suit_shown((both[2 * i], both[2 * i + 1]), pair) for i, pair in enumerate(pairs)]

    def _suit_shown(self, pair: Pair, crops: tuple[np.ndarray, np.ndarray]) -> Pair:
        """A card's corner readings ``pair`` with those naming a suited card from a crop of
        ``crops`` that shows its rank alone refused, the card kept as their guess. The surer
        naming corner is looked at first: one that shows more than its rank vouches for the
        other (one printing). Corners naming two cards are left to contradict each other."""
        a, b = pair
        if a.card_id is not None and b.card_id is not None and a.card_id != b.card_id:
            return pair
        out = list(pair)
        for k in sorted((k for k in (0, 1) if self._suited(pair[k])), key=lambda k: -pair[k].confidence):
            if not rank_alone(as_bgr(crops[k])):
                break
            out[k] = replace(pair[k], card_id=None, guess=pair[k].card_id)
        return out[0], out[1]

    def _suited(self, reading: Identification) -> bool:
        return reading.card_id is not None and self.deck[reading.card_id].suit is not None

    def _pair_scores(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """The members' scores of cards' corner crops in pairs (top-left, bottom-right), but a
        card whose two corners the first member reads as one card, each at ``first_alone`` or surer,
        keeps that member's reading: the others are run on the rest only (each row of a batch
        is read apart, so the rest read as they would in the whole batch)."""
        batch = prepare(crops, self.members.input_size)
        first = self.members.class_probs(self.members.models[0].run(batch))
        top = first.argmax(axis=1).reshape(-1, 2)
        alone = (
            (top[:, 0] == top[:, 1])
            & (top[:, 0] != self.members.none)
            & (first.max(axis=1).reshape(-1, 2).min(axis=1) >= PARAMS.read.first_alone)
        )
        rest = np.flatnonzero(~np.repeat(alone, 2))
        if len(rest) and len(self.members.models) > 1:
            others = [self.members.class_probs(model.run(batch[rest])) for model in self.members.models[1:]]
            first[rest] = np.mean([first[rest], *others], axis=0)
        return first

    def _unsure(self, probs: np.ndarray, answers: Sequence[Identification]) -> list[int]:
        """The readings under ``sure``, apart from those ``sure_none`` that they show no card."""
        r = PARAMS.read
        return [
            i
            for i, a in enumerate(answers)
            if (a.card_id is None or a.confidence < r.sure) and probs[i][self.members.none] < r.sure_none
        ]

    def _read_again(
        self, crops: Sequence[np.ndarray], probs: np.ndarray, answers: list[Identification], unsure: Sequence[int]
    ) -> tuple[list[Identification], np.ndarray]:
        """``answers`` with those of ``unsure`` crops from the mean of their first reading and
        their :func:`shifted_crops`' readings, of those still refused from the mean with their
        :func:`zoomed_crops`' readings too, and of those still refused with their
        :func:`widened_crops`' too, where that names it. Each stage reads only what the one
        before refused: mixed into every second reading, the zoomed readings also unsettle
        cards the shifts name, and so do the widened ones those the zooms name. A refusal the
        widened readings do not turn into a name stays as the zooms left it: its guess and
        runner-up are what the other corner (:func:`both_corners`) and the pips
        (:func:`~kiosk.vision.pip_check.dispute`) weigh, and a wide copy of a normal index
        guesses worse. With the answers, the probabilities each was decided from."""
        final = probs.copy()
        if not unsure:
            return answers, final
        sums = probs[list(unsure)] + self._readings(crops, unsure, shifted_crops)
        readings = 1 + len(PARAMS.read.shifts)
        for k, i in enumerate(unsure):
            final[i] = sums[k] / readings
            answers[i] = self._decide(final[i])
        which = list(unsure)
        # (the variants, how many, whether a refusal from them replaces the one before)
        for variants, count, refusal_too in (
            (zoomed_crops, len(PARAMS.read.zooms), True),
            (widened_crops, len(PARAMS.read.widenings), False),
        ):
            refused = [k for k, i in enumerate(which) if answers[i].card_id is None]
            if not refused:
                break
            which = [which[k] for k in refused]
            sums = sums[refused] + self._readings(crops, which, variants)
            readings += count
            for i, total in zip(which, sums, strict=True):
                answer = self._decide(total / readings)
                if refusal_too or answer.card_id is not None:
                    answers[i], final[i] = answer, total / readings
        return answers, final

    def _readings(
        self, crops: Sequence[np.ndarray], which: Sequence[int], variants: Callable[[np.ndarray], list[np.ndarray]]
    ) -> np.ndarray:
        """Per crop of ``which``, the summed probabilities of its ``variants`` (as many for each)."""
        probs, _ = self.members.scores([v for i in which for v in variants(as_bgr(crops[i]))])
        return probs.reshape(len(which), -1, probs.shape[-1]).sum(axis=1)


def card_index(card: CardView, corner: int) -> CornerIndex | None:
    """The index located in ``card``'s top-left (``corner`` 0) or bottom-right corner (1), for its
    weighing; None for an outline completed from a part (its face is not even warped)."""
    return None if card.partial else face_index(card.face, corner)


def shifted_crops(crop: np.ndarray) -> list[np.ndarray]:
    """``crop`` as if cut with its window moved by each of ``shifts`` (so its content moves the
    other way), its edge repeated where nothing was cut.

    Averaging the readings of a crop and its shifted copies is what makes an unsure reading
    sure or refused: a misreading that depends on where the crop cuts a glyph rarely survives
    four cuts.
    """
    h, w = crop.shape[:2]
    return [_moved(crop, [[1, 0, -dx * w], [0, 1, -dy * h]]) for dx, dy in PARAMS.read.shifts]


def zoomed_crops(crop: np.ndarray) -> list[np.ndarray]:
    """``crop`` scaled by each of ``zooms`` about its top-left corner, the card's: what the
    crop would show were the card's outline 1/zoom times as large; its edge repeated where
    nothing was cut."""
    return [_moved(crop, [[z, 0, 0], [0, z, 0]]) for z in PARAMS.read.zooms]


def widened_crops(crop: np.ndarray) -> list[np.ndarray]:
    """``crop`` stretched across by each of ``widenings`` from its left edge, the card's:
    an index printed narrower than the model learnt them, shown as wide as it did."""
    return [_moved(crop, [[w, 0, 0], [0, 1, 0]]) for w in PARAMS.read.widenings]


def _moved(crop: np.ndarray, matrix: list[list[float]]) -> np.ndarray:
    h, w = crop.shape[:2]
    return cv2.warpAffine(crop, np.array(matrix, np.float32), (w, h), borderMode=cv2.BORDER_REPLICATE)


def _vouched_for(reading: Identification, other: Identification) -> bool:
    """Whether ``reading``, one corner of a card, need not be read again as its other corner is
    ``sure`` and it names that card or nothing: :func:`both_corners` answers with the surer
    corner, so a second reading could only turn the card into a contradiction, and a glyph read ``sure``
    from one whole index is rarely the one wrong."""
    return (
        other.card_id is not None and other.confidence >= PARAMS.read.sure and reading.card_id in (None, other.card_id)
    )


def _with_corners(answer: Identification, pair: tuple[Identification, Identification]) -> Identification:
    """``answer`` saying which of its card's two corner ``pair`` readings read it."""
    a, b = (r.card_id is not None and r.card_id == answer.card_id for r in pair)
    return replace(answer, read_by=(a, b))


def both_corners(a: Identification, b: Identification) -> Identification:
    """A card shows two indices: one may be covered or glared, so the surer one answers; two
    corners naming different cards is a contradiction, answered None with no margin, and so is
    one corner leaning to another suit of the other's rank (``other_suit_lean``)."""
    if a.card_id is not None and b.card_id is not None and a.card_id != b.card_id:
        top, other = (a, b) if a.confidence >= b.confidence else (b, a)
        return Identification(None, top.confidence, other.card_id, 0.0)
    for named, other in ((a, b), (b, a)):
        if named.card_id is not None and _leans_to_other_suit(other, named.card_id):
            return Identification(None, named.confidence, other.guess, 0.0)
    return max(a, b, key=lambda r: (r.card_id is not None, r.confidence))


def _leans_to_other_suit(reading: Identification, card_id: str) -> bool:
    """Whether ``reading``, refused, leans at ``other_suit_lean`` to ``card_id``'s rank in
    another suit."""
    guess = reading.guess
    return (
        reading.card_id is None
        and guess is not None
        and reading.confidence >= PARAMS.pips.other_suit_lean
        and guess[:-1] == card_id[:-1]
        and guess[-1] != card_id[-1]
        and guess[-1] in SAME_COLOUR
        and card_id[-1] in SAME_COLOUR
    )
