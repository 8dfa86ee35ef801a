"""A printing's suit signs (:mod:`kiosk.vision.suit_spots`): a sign in a ring cut out of solid
ink or against a frame's line is found whole, and signs are read against the printing's own
pips and by the pip model, sharp and blurred; a small index glyph too long for a suit sign is
not read as one (:mod:`kiosk.vision.suit_glyphs`)."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kiosk.vision.suit_spots as suit_spots
from kiosk.render.pips import PIP_FAMILIES, pip_mask
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.glyphs import CornerIndex
from kiosk.vision.identify import default_models_dir
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import PipReader, load_pip_reader
from kiosk.vision.suit_glyphs import SuitGlyphs, suit_patch
from kiosk.vision.suit_spots import (
    SIGN_DIM,
    court_spots,
    face_signs,
    pip_signs,
    pip_spot_suits,
    pip_spots,
    pip_templates,
    placed_suit,
    spot_suits,
)

Pip = tuple[str, int, int, int, bool]  # suit, centre x, y, side, upside down
BIG: list[Pip] = [("H", 40, 40, 40, False), ("D", 160, 240, 40, True)]  # ink enough to set the face's levels


def _face(ink: np.ndarray) -> np.ndarray:
    """A BGR face whose ink (0 paper, 1 ink) is ``ink``."""
    return cv2.cvtColor((255 * (1 - 0.9 * ink)).astype(np.uint8), cv2.COLOR_GRAY2BGR)


def _pip_ink(suit: str, family: str, side: int, upside: bool = False) -> np.ndarray:
    return np.asarray(pip_mask(suit, family, (side, side), upside), np.float32) / 255


def _put(ink: np.ndarray, shape: np.ndarray, cx: int, cy: int) -> None:
    h, w = shape.shape
    y, x = cy - h // 2, cx - w // 2
    ink[y : y + h, x : x + w] = np.maximum(ink[y : y + h, x : x + w], shape)


def _face_of(pips: list[Pip], family: str) -> np.ndarray:
    ink = np.zeros((FACE_SIZE[1], FACE_SIZE[0]), np.float32)
    for suit, cx, cy, side, upside in pips:
        _put(ink, _pip_ink(suit, family, side, upside), cx, cy)
    return _face(ink)


def _found_whole(found: np.ndarray, pip: np.ndarray, x: int, y: int, off: float, slack: int) -> bool:
    """Whether a sign of ``found`` lies within ``off`` of the centre of the ``pip`` ink put at
    ``x``, ``y`` (:func:`_put`), its side within ``slack`` of the pip's."""
    side = pip.shape[0]
    ys, xs = np.nonzero(pip > 0.5)
    cx, cy = x - side // 2 + (xs.min() + xs.max() + 1) / 2, y - side // 2 + (ys.min() + ys.max() + 1) / 2
    near = found[(np.abs(found[:, 0] - cx) <= off) & (np.abs(found[:, 1] - cy) <= off)]
    return bool(len(near)) and np.abs(near[:, 2] - (max(np.ptp(xs), np.ptp(ys)) + 1)).min() <= slack


def _number_cards(family: str) -> dict[str, np.ndarray]:
    """The signs of four black number cards of one pip family, two of each suit, pips both ways up."""
    out = {}
    for suit in "CS":
        pips = [(suit, x, y, 36, y > 140) for x in (60, 140) for y in (70, 200)]
        for rank in "23":
            out[rank + suit] = face_signs(_face_of(pips, family), 26)
    return out


#: A pip of any suit and family somewhere on a face (its side is each test's own).
A_PIP = {
    "suit": st.sampled_from("CDHS"),
    "family": st.sampled_from(PIP_FAMILIES),
    "x": st.integers(60, 140),
    "y": st.integers(70, 210),
}


@settings(max_examples=40, deadline=None)
@given(**A_PIP, side=st.integers(18, 30), gap=st.integers(2, 4))
def test_a_sign_in_a_ring_cut_out_of_solid_ink_is_found_whole(
    suit: str, family: str, side: int, gap: int, x: int, y: int
) -> None:
    """A pip printed inside a paper disc cut out of a block of solid ink, the paper round it two
    to four pixels wide: found as a sign in a ring, its box the pip's. (A pip inscribed in its
    disc parts the paper into pieces; it is found where they join up again.)"""
    ink = np.zeros((FACE_SIZE[1], FACE_SIZE[0]), np.float32)
    ink[y - 30 : y + 30, x - 30 : x + 30] = 1.0
    rows, cols = np.indices(ink.shape)
    ink[np.hypot(cols - x + 0.5, rows - y + 0.5) <= side / 2 + gap] = 0.0
    pip = _pip_ink(suit, family, side)
    _put(ink, pip, x, y)
    found = face_signs(_face(ink), 100)
    assert _found_whole(found[found[:, 3] == 1.0], pip, x, y, 1.5, 2)


def test_a_small_sign_reads_its_suit_against_the_printings_pips_never_the_other() -> None:
    """Signs of 14 and 18 pixels, as a court's index and emblems show them, blurred by up to a
    pixel, in each pip family: the printing's own pips read each as its suit or not at all, never
    as the other black suit alone; with the templates blurred by ``sign_blurs`` too, more are read."""
    read = {(): 0, PARAMS.enrolled.sign_blurs: 0}
    for family in PIP_FAMILIES:
        signs_of = _number_cards(family)
        for blurs in read:
            suit_spots.E = dataclasses.replace(PARAMS.enrolled, sign_blurs=blurs)
            try:
                templates = pip_templates(signs_of)
            finally:
                suit_spots.E = PARAMS.enrolled
            for suit in "CS":
                for side in (14, 18):
                    for sigma in (0.5, 1.0):
                        face = cv2.GaussianBlur(_face_of([(suit, 100, 140, side, False), *BIG], family), (0, 0), sigma)
                        spot = np.array([[100, 140, side, 0.0]], np.float32)
                        said = spot_suits(face_signs(face, 100), spot, ("C", "S"), templates)
                        assert said != {"C", "S"} - {suit}  # two suits said refuse the court
                        read[blurs] += said == {suit}
    assert read[PARAMS.enrolled.sign_blurs] > read[()]


def test_a_suit_spot_is_a_place_where_both_courts_show_their_own_suit() -> None:
    """A court's sign is a suit spot only where the other court of its rank and colour shows its
    own suit at the same place, either way up; a sign the mate lacks, or shows the same suit at,
    tells nothing."""
    templates = pip_templates(_number_cards("glyph"))
    club, lone, same = ("C", 60, 110, 20, False), ("C", 100, 200, 20, False), ("C", 150, 100, 20, False)
    spade_turned = ("S", FACE_SIZE[0] - 60, FACE_SIZE[1] - 110, 20, True)  # at the club's place, way up unknown
    own = face_signs(_face_of([club, lone, same, *BIG], "glyph"), 100)
    mate = face_signs(_face_of([spade_turned, same, *BIG], "glyph"), 100)
    spots = court_spots(own, "C", mate, templates)
    assert spots.shape[1] == SIGN_DIM
    assert [tuple(np.round(s[:2])) for s in spots] == [(60, 110)]


def test_a_sign_leaning_to_the_other_suit_at_a_spot_makes_the_court_two_suits() -> None:
    """One sign at a court's spot reads clubs clearly; another found there (the same sign at
    another ink level, blurred or partly found) leans to spades: both suits are said, and the
    court is refused; leaning to clubs too, it is named."""
    signs_of = _number_cards("glyph")
    templates = pip_templates(signs_of)
    club, spade = signs_of["2C"][0, 4:], signs_of["2S"][0, 4:]
    spot = np.array([[100, 140, 20, 0.0]], np.float32)

    def at_spot_with(patch: np.ndarray) -> np.ndarray:
        return np.hstack([spot, patch[None]]).astype(np.float32)

    mixes = {w: 0.5 * (1 + w) * club + 0.5 * (1 - w) * spade for w in np.linspace(-1, 1, 41)}
    margin = PARAMS.enrolled.min_suit_margin
    leans = {w: templates.lean_of(p, ("C", "S")) for w, p in mixes.items()}
    to_spades = next(p for w, p in mixes.items() if leans[w][0] == "S" and margin / 2 <= leans[w][1] < margin)
    to_clubs = next(p for w, p in mixes.items() if leans[w][0] == "C" and margin / 2 <= leans[w][1] < margin)
    sure = at_spot_with(club)
    assert spot_suits(sure, spot, ("C", "S"), templates) == {"C"}
    assert spot_suits(np.vstack([sure, at_spot_with(to_spades)]), spot, ("C", "S"), templates) == {"C", "S"}
    assert spot_suits(np.vstack([sure, at_spot_with(to_clubs)]), spot, ("C", "S"), templates) == {"C"}
    assert spot_suits(at_spot_with(to_spades), spot, ("C", "S"), templates) == set()  # no clear reading


@settings(max_examples=40, deadline=None)
@given(**A_PIP, side=st.integers(16, 26), thick=st.integers(1, 3), across=st.booleans())
def test_a_sign_printed_against_a_frames_line_is_found_whole(
    suit: str, family: str, side: int, thick: int, x: int, y: int, across: bool
) -> None:
    """A pip touching a thin line running the length of the face (a court's frame) is found as
    a sign, its box the pip's: the line is no part of it."""
    ink = np.zeros((FACE_SIZE[1], FACE_SIZE[0]), np.float32)
    pip = _pip_ink(suit, family, side)
    _put(ink, pip, x, y)
    ys, xs = np.nonzero(pip > 0.5)
    top, left = y - side // 2 + ys.min(), x - side // 2 + xs.min()
    if across:  # the line under the pip's top edge, across the face
        ink[top - thick + 1 : top + 1, 10:-10] = 1.0
    else:  # down the face, along its left edge
        ink[10:-10, left - thick + 1 : left + 1] = 1.0
    assert _found_whole(face_signs(_face(ink), 100), pip, x, y, 2, 3)


@lru_cache(maxsize=1)
def _pips() -> PipReader:
    pips = load_pip_reader(default_models_dir())
    if pips is None:
        pytest.skip("no pip model or TFLite runtime")
    return pips


def test_the_pip_model_reads_blurred_signs_the_printings_pips_no_longer_part() -> None:
    """Black signs of 14 to 22 pixels at a court's spot, either way up, blurred by 1.5 and 2
    pixels, in each pip family: the pip model (with the printing's pips leaning the same way)
    reads each as its suit or not at all, never as the other black suit, and reads more of them
    than the printing's pips alone, which lean to the other suit on some."""
    pips = _pips()
    by_pips = by_model = 0
    for family in PIP_FAMILIES:
        templates = pip_templates(_number_cards(family))
        for suit in "CS":
            for side in (14, 18, 22):
                for y, upside in ((80, False), (200, True)):
                    for sigma in (1.5, 2.0):
                        face = _face_of([(suit, 100, y, side, upside), *BIG], family)
                        found = face_signs(cv2.GaussianBlur(face, (0, 0), sigma), 100)
                        spot = np.array([[100, y, side, 0.0]], np.float32)
                        said = pip_spot_suits(found, spot, np.zeros(1, bool), ("C", "S"), pips, templates)
                        assert said <= {suit}
                        by_model += said == {suit}
                        by_pips += spot_suits(found, spot, ("C", "S"), templates) == {suit}
    assert by_model > by_pips


def test_a_model_spot_is_where_the_model_reads_both_courts_their_own_suits() -> None:
    """The pip model's spots are a court's signs it reads as its suit where the other court of
    its rank and colour shows a sign it reads as that court's suit, either way up."""
    templates = pip_templates(_number_cards("glyph"))
    club, lone = ("C", 60, 110, 20, False), ("C", 100, 200, 20, False)
    spade_turned = ("S", FACE_SIZE[0] - 60, FACE_SIZE[1] - 110, 20, True)
    own = face_signs(_face_of([club, lone, *BIG], "glyph"), 100)
    mate = face_signs(_face_of([spade_turned, *BIG], "glyph"), 100)
    spots, _ = pip_spots(own, "C", mate, _pips(), templates)
    assert [tuple(np.round(s[:2])) for s in spots] == [(60, 110)]
    assert not len(pip_spots(own, "S", mate, _pips(), templates)[0])  # no sign of it read as a spade


def test_an_emblem_printed_upright_low_on_a_court_is_read_turned_its_way() -> None:
    """A court's spade printed upright in the face's lower half (an emblem, where a pip there is
    printed upside down), small and blurred, on a printing whose pips do not tell suits apart
    (the pip model reads alone): its spot is kept turned the other way, and the same sign on the
    card seen turned half round reads as a spade; turned as a pip is, it reads as nothing."""
    pips = _pips()
    templates = pip_templates({"2C": _number_cards("glyph")["2C"]})  # one suit: not usable
    w, h = FACE_SIZE

    def signs_of(suit: str, x: int, y: int, upside: bool) -> np.ndarray:
        return face_signs(cv2.GaussianBlur(_face_of([(suit, x, y, 14, upside), *BIG], "glyph"), (0, 0), 1.5), 100)

    spots, flips = pip_spots(signs_of("S", 100, 210, False), "S", signs_of("C", 100, 210, False), pips, templates)
    seen = signs_of("S", w - 100, h - 210, True)
    assert not templates.usable and len(spots) and flips.all()
    assert pip_spot_suits(seen, spots, flips, ("C", "S"), pips, templates) == {"S"}
    assert pip_spot_suits(seen, spots, ~flips, ("C", "S"), pips, templates) == set()


def test_a_number_cards_pips_at_its_printings_pip_places_say_its_suit() -> None:
    """A six of clubs half under a card of spades: the three clubs left at the places the
    printing puts a six's pips say clubs, whatever the spades show elsewhere; a spade at one of
    those places, a single club there, or only spades off them say nothing. A whole six read as
    a nine (its corners misread) says clubs at a nine's places too, unless the six's places,
    a rival rank's, hold more of its pips: then nothing."""
    pips = _pips()
    six_at = [(x, y) for x in (65, 135) for y in (70, 140, 210)]
    nine_at = [(x, y) for x in (65, 135) for y in (70, 120, 160, 210)] + [(100, 140)]

    def signs_of(suit: str, at: list[tuple[int, int]]) -> list[Pip]:
        return [(suit, x, y, 30, y > 140) for x, y in at]

    def places_of(at: list[tuple[int, int]]) -> np.ndarray:
        return pip_signs(_face_of([*signs_of("C", at), *BIG], "glyph"), "C", pips, 26)

    six, nine = places_of(six_at), places_of(nine_at)
    assert len(six) == len(six_at) and len(nine) == len(nine_at)
    off = [(100, 105), (100, 175)]  # the covering card's spades, off the six's places
    cases = {
        "C": signs_of("C", six_at[:3]) + signs_of("S", off),
        None: signs_of("C", six_at[:2]) + signs_of("S", six_at[2:3] + off),
    }
    for said, shown in cases.items():
        assert placed_suit(_face_of([*shown, *BIG], "glyph"), six, ("C", "S"), pips, [nine]) == said
    for shown in (signs_of("C", six_at[:1]) + signs_of("S", off), signs_of("S", off)):
        assert placed_suit(_face_of([*shown, *BIG], "glyph"), six, ("C", "S"), pips, [nine]) is None
    whole_six = _face_of([*signs_of("C", six_at), *BIG], "glyph")
    assert placed_suit(whole_six, nine, ("C", "S"), pips, []) == "C"
    assert placed_suit(whole_six, nine, ("C", "S"), pips, [six]) is None


def test_an_index_glyph_too_long_for_a_suit_sign_is_not_read() -> None:
    """A sliver beside the rank (what blur leaves of a tiny suit sign) is no suit glyph: no patch
    is kept of it and the printing's glyphs read no suit in it, where the same ink in a
    sign-shaped box is read."""
    ink = np.zeros((60, 40), np.float32)
    ink[20:30, 10:13] = 1.0
    sliver = CornerIndex(ink, (0, 0, 8, 12), (20, 30), 0.0, (10, 20, 3, 10))
    square = CornerIndex(ink, (0, 0, 8, 12), (20, 30), 0.0, (8, 20, 7, 10))
    bars = [np.zeros((16, 16), np.float32) for _ in range(3)]
    for k, bar in enumerate(bars):  # the other suits: bars across, each at its own height
        bar[2 + 4 * k : 5 + 4 * k, 2:14] = 1.0
    patches = [suit_patch(square), *(bar.ravel() for bar in bars)]
    glyphs = SuitGlyphs(np.stack(patches * 2), list("CDHS") * 2, list(range(8)))
    assert glyphs.usable and glyphs.read(square) == "C"
    assert not suit_patch(sliver).any() and glyphs.read(sliver) is None
