"""A printing whose corner index is its rank alone, the suit shown only in the card's body
(kiosk/vision/glyphs.py ``rank_alone``, kiosk/vision/index_reader.py): the index model's suit
there is a guess, so such a corner names no card, and the card's pips name it or nothing does
(issue 53: real photos of decks the code was not tuned on, "≤ 1 wrong name per 500 cards")."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_vision_glyph_fallback import DECK, _answers, _face, _identifier

from kiosk.render.faces import face_styles
from kiosk.vision.face import index_crops
from kiosk.vision.glyph_fallback import GlyphFallback
from kiosk.vision.glyphs import rank_alone
from kiosk.vision.reading import Identification

SUITED = ["foreign-low", "foreign-side", "foreign-stack", *face_styles(DECK.id)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(DECK.ids), st.sampled_from(SUITED), st.booleans(), st.booleans())
def test_an_index_with_its_suit_is_not_a_rank_alone(card_id: str, style: str, turned: bool, other: bool) -> None:
    assert not rank_alone(index_crops(_face(card_id, style, turned))[int(other)])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(DECK.ids), st.integers(0, 50), st.booleans(), st.booleans())
def test_a_rank_printed_without_its_suit_is_a_rank_alone(card_id: str, seed: int, turned: bool, other: bool) -> None:
    assert rank_alone(index_crops(_face(card_id, f"foreign-narrow-{seed}", turned))[int(other)])


def test_blank_paper_and_a_rank_cut_by_the_crop_are_not_a_rank_alone() -> None:
    crop = np.asarray(index_crops(_face("6D", "foreign-narrow", False))[0])
    assert rank_alone(crop)
    assert not rank_alone(np.full_like(crop, 230))
    assert not rank_alone(np.ascontiguousarray(crop[: crop.shape[0] // 4]))


def test_the_cards_edge_past_a_loose_outline_is_no_ink_but_a_table_in_its_corner_is() -> None:
    crop = np.array(index_crops(_face("6D", "foreign-narrow", False))[0])
    edged = crop.copy()
    edged[4:8, 10:] = 60  # the card's edge and its shadow along the top
    edged[10:60, 4:7] = 60  # and down the left side
    assert rank_alone(edged)
    banded = np.full_like(crop, crop[-1, -1])
    banded[8:, 8:] = crop[:-8, :-8]  # an outline a little off the card
    banded[3:86, 3:12] = 70  # and the side of a card lying over it
    assert rank_alone(banded)
    wedge = crop.copy()
    wedge[3:70, 3:16] = 90  # a dark table filling the corner beside the rank
    assert not rank_alone(wedge)
    suited = crop.copy()
    suited[60:72, 12:22] = 40  # a suit sign under the rank
    assert not rank_alone(suited)


def test_a_deck_printed_with_ranks_alone_is_named_by_its_pips_and_never_wrongly() -> None:
    answers = _answers("foreign-narrow")
    assert [(c, b) for c, _, b in answers if b not in (None, c)] == []
    named = {c for c, _, b in answers if b == c}
    assert {c for c in DECK.ids if c[:-1] in {str(n) for n in range(2, 11)}} <= named  # the pips tell the suit


def _reading(card_id: str, confidence: float) -> Identification:
    return Identification(card_id, confidence, None, confidence)


def test_a_corner_reading_its_rank_alone_names_no_card_unless_its_other_corner_shows_the_suit() -> None:
    reader = _identifier()._reader
    assert isinstance(reader, GlyphFallback)
    alone = index_crops(_face("6D", "foreign-narrow", False))[0]
    suited = index_crops(_face("6D", "classic", False))[0]
    refused = reader.primary._suit_shown((_reading("6H", 0.99), _reading("6H", 0.9)), (alone, alone))
    assert [(r.card_id, r.guess) for r in refused] == [(None, "6H"), (None, "6H")]
    vouched = reader.primary._suit_shown((_reading("6D", 0.99), _reading("6D", 0.9)), (alone, suited))
    assert [r.card_id for r in vouched] == [None, "6D"]
    two_cards = (_reading("6H", 0.99), _reading("8D", 0.9))
    assert reader.primary._suit_shown(two_cards, (alone, suited)) == two_cards
