"""The glyph reader (kiosk/vision/glyph_reader.py): the shipped glyphs.tflite names the rank
glyphs that find_index locates on printings it never saw (the rendered foreign layouts and the
kiosk's own looks), and its say on a card counts only where its readings are sure and agree."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.decks import RANKS, load_deck
from kiosk.render.faces import face_styles, render_face
from kiosk.render.foreign import draw_foreign_face, foreign_styles, tilted
from kiosk.render.scenes import render_scene
from kiosk.vision.detect import Detector
from kiosk.vision.enrolled import EnrolledReader
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.glyph_reader import (
    RANK_LABELS,
    SUIT_LABELS,
    GlyphReader,
    GlyphReading,
    GlyphVote,
    load_glyph_reader,
    second_look,
    vote,
)
from kiosk.vision.glyphs import find_index
from kiosk.vision.identify import default_models_dir
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import load_pip_reader
from kiosk.vision.teaching import enrol_photos

DECK = "standard-52"
SURE = PARAMS.glyph_reader.sure_glyph_rank


@cache
def _reader() -> GlyphReader:
    reader = load_glyph_reader(default_models_dir())
    assert reader is not None, "models/glyphs.tflite is shipped"
    return reader


def _face(card_id: str, style: str) -> np.ndarray:
    card = load_deck(DECK)[card_id]
    if style.startswith("foreign-"):
        rgb = np.asarray(draw_foreign_face(card, style, FACE_SIZE))
    else:
        rgb = np.asarray(render_face(card, style, FACE_SIZE[0]))
    face = cv2.resize(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), FACE_SIZE, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(face, (0, 0), 0.8)  # a camera's softness


def _rank_reads(style: str) -> tuple[int, int, int]:
    """Over the deck's 52 cards in ``style``, both corners: located indexes, ranks read right,
    ranks read surely wrong."""
    located = right = wrong = 0
    for card_id in load_deck(DECK).ids:
        face = _face(card_id, style)
        found = [i for i in (find_index(face), find_index(np.ascontiguousarray(face[::-1, ::-1]))) if i]
        for g in _reader().read(found):
            located += 1
            right += g.rank == card_id[:-1]
            wrong += g.sure_rank(SURE) not in (None, card_id[:-1])
    return located, right, wrong


@pytest.mark.parametrize("style", foreign_styles())
def test_the_glyph_reader_names_the_located_ranks_of_foreign_layouts_it_never_saw(style: str) -> None:
    located, right, wrong = _rank_reads(style)
    assert located >= 100  # find_index locates an index in nearly every corner
    assert right >= 0.95 * located
    assert wrong == 0


@pytest.mark.parametrize("style", face_styles(DECK))
def test_the_glyph_reader_never_surely_misreads_a_located_glyph_of_the_kiosks_own_looks(style: str) -> None:
    """The classic look prints its rank against the card's top edge, inside the rim find_index
    leaves out, so there the suit under it is located as the rank: the reader must call it none."""
    located, _, wrong = _rank_reads(style)
    assert located >= 80 and wrong == 0


@pytest.mark.parametrize("style", ["modern", "bold"])
def test_the_glyph_reader_names_the_located_ranks_of_the_kiosks_own_looks(style: str) -> None:
    located, right, _ = _rank_reads(style)
    assert located >= 100
    assert right >= 0.95 * located


def test_the_suit_printed_beside_the_rank_is_read_from_its_own_glyph() -> None:
    """foreign-side prints a small suit beside the rank; the reader names the suit of most corners surely."""
    sure = total = 0
    for card_id in load_deck(DECK).ids[::3]:
        face = _face(card_id, "foreign-side")
        found = [i for i in (find_index(face),) if i]
        for g in _reader().read(found):
            total += 1
            said = g.sure_suit(PARAMS.glyph_reader.sure_glyph_suit)
            assert said in (None, card_id[-1])
            sure += said == card_id[-1]
    assert sure >= 0.8 * total


def _reading(rank: str | None, p: float, suit: str | None = None) -> GlyphReading:
    ranks = np.full(len(RANK_LABELS), (1 - p) / (len(RANK_LABELS) - 1), np.float32)
    ranks[RANK_LABELS.index(rank or "none")] = p
    suits = np.full(len(SUIT_LABELS), 0.0, np.float32)
    suits[SUIT_LABELS.index(suit or "none")] = 1.0
    return GlyphReading(ranks, suits)


@given(st.sampled_from(RANKS), st.sampled_from(RANKS), st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_a_vote_names_a_rank_only_where_every_sure_corner_reads_it(a: str, b: str, pa: float, pb: float) -> None:
    said = vote([_reading(a, pa), _reading(b, pb)])
    sure = {r for r, p in ((a, pa), (b, pb)) if p >= SURE}
    assert said.rank == (next(iter(sure)) if len(sure) == 1 else None)
    assert said.split == (len(sure) > 1)


@given(
    st.lists(
        st.tuples(st.sampled_from(RANKS), st.floats(-1.0, 1.0), st.sampled_from(RANKS), st.floats(0.0, 1.0)), max_size=2
    )
)
def test_the_corners_that_count_reach_the_floor_and_agree_with_sure_glyphs_where_any_corner_does(
    corners: list[tuple[str, float, str, float]],
) -> None:
    """Per corner: the enrolled reader's rank and score, the glyph reader's rank and probability."""
    floor = PARAMS.enrolled.min_rank_score
    looks = [(rank, score) for rank, score, _, _ in corners]
    readings = [_reading(glyph, p) for _, _, glyph, p in corners]
    counted, said = second_look(readings, looks, floor)
    assert set(counted) <= {k for k, (_, score) in enumerate(looks) if score >= floor}
    sure = [g if p >= SURE else None for _, _, g, p in corners]
    if any(sure[k] == looks[k][0] for k in counted):
        assert all(sure[k] in (None, looks[k][0]) for k in counted)
    assert said == vote([readings[k] for k in counted])


def test_a_six_read_as_a_turned_nine_in_one_corner_is_left_out_where_the_other_agrees() -> None:
    looks = [("6", 0.9), ("9", 0.85)]
    counted, said = second_look([_reading("6", 0.99, "H"), _reading("6", 0.98, "H")], looks, 0.72)
    assert counted == [0] and said == GlyphVote("6", "H")


def test_a_sure_glyph_of_another_rank_is_kept_to_refuse_where_no_corner_agrees() -> None:
    counted, said = second_look([_reading("4", 0.99)], [("A", 0.8)], 0.72)
    assert counted == [0] and said.rank == "4"  # the enrolled reader's A is then refused


def test_without_a_glyph_model_the_enrolled_floor_alone_decides() -> None:
    counted, said = second_look([], [("7", 0.9), ("7", 0.5)], 0.72)
    assert counted == [0] and said == GlyphVote()


def test_an_enrolled_reader_given_the_glyph_reader_names_more_of_a_foreign_deck_and_none_wrongly() -> None:
    """foreign-side enrolled from one photo per card, then read on held-out tilted scenes by the
    enrolled reader alone and with the glyph reader's second look, on the same detections."""
    ids, detector, style = load_deck(DECK).ids, Detector(), "foreign-side"
    photos = [
        (f"{c}.jpg", c, render_scene(DECK, 1, 100 + i, (1920, 1080), card_ids=[c], styles=(style,), table="grey").image)
        for i, c in enumerate(ids)
    ]
    gallery = enrol_photos(DECK, photos, detector).gallery
    pips = load_pip_reader(default_models_dir())
    alone, second = EnrolledReader(gallery, pips), EnrolledReader(gallery, pips, _reader())
    rng = np.random.default_rng(53)
    named = {"alone": 0, "second": 0}
    for s in range(12):
        chosen = [ids[(s * 6 + k) % len(ids)] for k in range(6)]
        scene = render_scene(DECK, 6, 1000 + s, (1920, 1080), card_ids=chosen, styles=(style,), split="heldout")
        scene = tilted(scene, rng.uniform(0, 20), rng.uniform(0, 2 * np.pi))
        found = detector.detect(scene.image)
        for card in scene.cards:
            match = [d for d in found if polygon_iou(d.corners, card.corners) > 0.7]
            for name, reader in (("alone", alone), ("second", second)):
                answer = reader.read(match[0].face) if match else None
                assert answer is None or answer.card_id == card.card_id
                named[name] += answer is not None
    assert named["second"] > named["alone"]
