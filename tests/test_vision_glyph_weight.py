"""Weighing a refused corner by its located rank glyph (kiosk/vision/glyph_weight.py): a printing
whose rank the index model's crop takes for another (a narrow queen for a 9) is named by what the
glyph reader reads of the rank glyph, only between the index model's own two candidates, and
clutter the index model calls no card stays no card (issue 53: "a deck whose corner index is laid
out unlike ours goes unnamed"; pp2021-corners at 99 %)."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from kiosk.decks import load_deck
from kiosk.render.faces import render_face
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.glyph_reader import RANK_LABELS, SUIT_LABELS, GlyphReading
from kiosk.vision.glyph_weight import GlyphWeigher, weighed
from kiosk.vision.glyphs import CornerIndex
from kiosk.vision.identify import Identifier
from kiosk.vision.index_reader import card_index
from kiosk.vision.members import NONE_LABEL
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import Identification, decide

DECK = load_deck("standard-52")


@cache
def _answers() -> list[str | None]:
    reader = Identifier(DECK.id)._members
    assert reader is not None
    return list(reader.answers)


def _probs(**cards: float) -> np.ndarray:
    """A corner's probabilities: each named card's (``none`` for no card), the rest spread evenly."""
    labels = Identifier(DECK.id).labels
    row = np.full(len(labels), (1 - sum(cards.values())) / (len(labels) - len(cards)), np.float32)
    for name, p in cards.items():
        row[labels.index(NONE_LABEL if name == "none" else name.removeprefix("c"))] = p
    return row


def _glyph(rank: str, p: float = 0.99) -> GlyphReading:
    ranks = np.full(len(RANK_LABELS), (1 - p) / (len(RANK_LABELS) - 1), np.float32)
    ranks[RANK_LABELS.index(rank)] = p
    return GlyphReading(ranks, np.eye(len(SUIT_LABELS), dtype=np.float32)[-1])


def _refused(probs: np.ndarray) -> Identification:
    r = PARAMS.read
    answer = decide(probs, _answers(), r.min_confidence, r.min_margin)
    assert answer.card_id is None
    return answer


def _reweighed(probs: np.ndarray, glyph: GlyphReading, small: bool = False) -> Identification:
    weigher = GlyphWeigher(DECK, _FixedGlyphs(glyph), _answers())  # type: ignore[arg-type]
    index = CornerIndex(np.zeros((4, 4), np.float32), (0, 0, 2, 2), (2, 2), 0.0)
    return weigher.reweigh([_refused(probs)], probs[None], lambda j: index, lambda j: small)[0]


class _FixedGlyphs:
    """A glyph reader that reads every located index as ``reading``."""

    def __init__(self, reading: GlyphReading) -> None:
        self.reading = reading

    def read(self, indices: list[CornerIndex]) -> list[GlyphReading]:
        return [self.reading for _ in indices]


def test_a_queen_the_index_model_splits_with_a_nine_is_named_by_its_rank_glyph() -> None:
    assert _reweighed(_probs(cQS=0.48, c9S=0.42), _glyph("Q")).card_id == "QS"


def test_on_a_small_card_only_a_red_one_is_named() -> None:
    """Under pips.small_card_px wide a club's sign and a spade's differ by a pixel or two: the
    weighing names no black card there (vision.md, small cards)."""
    assert _reweighed(_probs(cKS=0.5, c8S=0.4), _glyph("K"), small=True).card_id is None
    assert _reweighed(_probs(cKH=0.5, c8H=0.4), _glyph("K"), small=True).card_id == "KH"
    assert _reweighed(_probs(cKS=0.5, c8S=0.4), _glyph("K")).card_id == "KS"


def test_a_card_outside_the_index_models_two_candidates_is_never_named() -> None:
    # the glyph reads a king, the index model's third candidate: weighed, the king would lead
    probs = _probs(cQS=0.48, c9S=0.3, cKS=0.15)
    assert decide(weighed(probs, _answers(), _glyph("K"), DECK), _answers(), 0.6, 0.3).card_id == "KS"
    assert _reweighed(probs, _glyph("K")).card_id is None


def test_an_unsure_rank_glyph_weighs_nothing() -> None:
    assert _reweighed(_probs(cQS=0.48, c9S=0.42), _glyph("Q", p=0.6)).card_id is None


def test_clutter_the_index_model_calls_no_card_stays_no_card() -> None:
    assert _reweighed(_probs(none=0.8, c7C=0.12), _glyph("7")).card_id is None


def test_a_suit_the_index_model_is_unsure_of_stays_refused() -> None:
    """The glyph settles the rank only: a six whose suit the index model splits between diamonds
    and spades (and whose rank it splits with a queen) is not named a diamond by its rank glyph."""
    assert _reweighed(_probs(c6D=0.4, cQD=0.15, c6S=0.3), _glyph("6")).card_id is None
    assert _reweighed(_probs(c6D=0.4, cQD=0.35, c6S=0.05), _glyph("6")).card_id == "6D"


def test_a_corner_surely_showing_no_card_is_not_looked_at() -> None:
    """Clutter read 0.9 surely as no card (read.sure_none) costs no glyph search."""
    probs = _probs(none=0.95, c7C=0.03)
    weigher = GlyphWeigher(DECK, _FixedGlyphs(_glyph("7")), _answers())  # type: ignore[arg-type]
    looked: list[int] = []
    weigher.reweigh([_refused(probs)], probs[None], lambda j: looked.append(j))  # type: ignore[func-returns-value]
    assert looked == []


@given(st.sampled_from(RANK_LABELS[:-1]), st.floats(0.0, 1.0))
def test_weighing_keeps_the_no_card_classes_relative_weight(rank: str, p_none: float) -> None:
    """A class naming no card keeps its weight: its share against the cards of the glyph's rank
    never falls, whatever the glyph reads."""
    probs = _probs(none=p_none * 0.5, cQS=0.25)
    out = weighed(probs, _answers(), _glyph(rank), DECK)
    none = Identifier(DECK.id).labels.index(NONE_LABEL)
    assert np.isclose(out.sum(), 1.0)
    cards = [k for k, a in enumerate(_answers()) if a is not None]
    assert (
        out[none] / max(out[cards].sum() + out[none], 1e-12) >= probs[none] / (probs[cards].sum() + probs[none]) - 1e-6
    )


class _Card:
    """A found card whose face is a rendered one, completed from a part or not."""

    def __init__(self, partial: bool) -> None:
        self.partial = partial

    @property
    def face(self) -> np.ndarray:
        if self.partial:
            raise AssertionError("a completed outline's face is not warped for weighing")
        rgb = np.asarray(render_face(DECK["QS"], None, FACE_SIZE[0]))
        return cv2.resize(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), FACE_SIZE)


def test_an_outline_completed_from_a_part_is_not_weighed() -> None:
    """A fanned card's strip: its index may be cut or covered, and the model's suit there is as
    much a guess as its rank."""
    assert card_index(_Card(partial=True), 0) is None  # type: ignore[arg-type]
    assert card_index(_Card(partial=False), 0) is not None  # type: ignore[arg-type]
