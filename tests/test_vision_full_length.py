"""A completed outline named by one corner is drawn again at a whole card's length, in the
frame's view, and replaces the short one only where both corners of the whole card read it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_vision_naming import DETECTOR, ByPaper

from kiosk.decks import load_deck
from kiosk.render.compositing import composite_card, face_bgra
from kiosk.render.scenes import card_quad
from kiosk.vision.detect import Detection
from kiosk.vision.full_length import at_full_length, whole_cards
from kiosk.vision.geometry import order_corners, polygon_iou
from kiosk.vision.identify import Identifier
from kiosk.vision.tilt import Tilt


def cut(card: np.ndarray, share: float, keep_top: bool = True, across: bool = False) -> np.ndarray:
    """The ordered ``card`` (TL, TR, BR, BL) cut to ``share`` of its length from its top end (or
    its bottom end), or with ``across`` to ``share`` of its width from its left side."""
    c = card.astype(np.float64)
    if across:
        return np.array([c[0], c[0] + share * (c[1] - c[0]), c[3] + share * (c[2] - c[3]), c[3]], np.float32)
    if keep_top:
        return np.array([c[0], c[1], c[1] + share * (c[2] - c[1]), c[0] + share * (c[3] - c[0])], np.float32)
    return np.array([c[3] + share * (c[0] - c[3]), c[2] + share * (c[1] - c[2]), c[2], c[3]], np.float32)


@settings(max_examples=60, deadline=None)
@given(
    width=st.floats(50, 200),
    angle=st.floats(-np.pi, np.pi),
    share=st.floats(0.42, 0.88),
    keep_top=st.booleans(),
    across=st.booleans(),
)
def test_a_card_cut_short_is_among_its_whole_cards(
    width: float, angle: float, share: float, keep_top: bool, across: bool
) -> None:
    """Seen from above, a card cut to 42-88 % of its length from either end, or of its width,
    is among the whole cards drawn from its outline's named corner."""
    card = order_corners(card_quad((400.0, 300.0), width, angle))
    across = across and share > 0.72  # cut narrower, its cut side is the longer one
    short = cut(card, share, keep_top, across)
    wholes = whole_cards(short, keep_top or across, Tilt.flat())
    assert max(polygon_iou(w, card) for w in wholes) > 0.97


def test_in_a_tilted_view_the_whole_card_is_as_long_as_the_view_says() -> None:
    """At about 35° a card lying across the tilt looks near square; one cut short is drawn again
    at the length the frame's view gives it there."""
    w, h = 1280, 720
    table = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    seen = np.float32([[0.175 * w, 0], [0.825 * w, 0], [w, h], [0, h]])
    homography = cv2.getPerspectiveTransform(table, seen)
    view = Tilt.seen_through(homography, (h, w))
    on_table = card_quad((640.0, 400.0), 130, np.pi / 2 + 0.1)
    card = order_corners(cv2.perspectiveTransform(on_table.reshape(-1, 1, 2), homography).reshape(4, 2))
    card = view.ordered(card[None])[0]
    wholes = whole_cards(cut(card, 0.6), True, view)
    assert max(polygon_iou(w, card) for w in wholes) > 0.9
    assert max(polygon_iou(w, card) for w in whole_cards(cut(card, 0.6), True, Tilt.flat())) < 0.9


def on_the_table(card_id: str) -> tuple[np.ndarray, np.ndarray]:
    """``card_id`` of the standard deck on a dark table, and its ordered outline."""
    img = np.full((360, 640, 3), 60, np.uint8)
    card = order_corners(card_quad((320, 180), 120, 0.3))
    composite_card(img, face_bgra(load_deck("standard-52")[card_id], None, 160), card)
    return img, card


@pytest.fixture(scope="module")
def reader() -> Identifier:
    return Identifier("standard-52")


@pytest.mark.parametrize("card_id", ["5H", "9C", "KD", "3S"])
def test_a_card_named_by_one_corner_on_a_short_outline_is_outlined_whole(reader: Identifier, card_id: str) -> None:
    """An outline a quarter short of its card, named by the corner it holds, is replaced by the
    whole card, which both corners read."""
    img, card = on_the_table(card_id)
    short = Detection(cut(card, 0.75), img, 1.0, True)
    [first] = reader.identify_cards([short])
    assert (first.card_id, first.corners) == (card_id, 1)
    [(found, answer)] = at_full_length(reader, DETECTOR, img, [(short, first)], None)
    assert (answer.card_id, answer.corners) == (card_id, 2)
    assert polygon_iou(found.corners, card) > 0.9


def test_a_whole_card_read_by_one_corner_leaves_the_short_outline() -> None:
    """The name is never moved to an outline its far corner does not confirm."""
    img, card = on_the_table("5H")
    by_one = ByPaper(corners=1)
    short = Detection(cut(card, 0.75), img, 1.0, True)
    [first] = by_one.identify_cards([short])
    [(found, answer)] = at_full_length(by_one, DETECTOR, img, [(short, first)], None)
    assert found is short and answer is first
    assert len(by_one.calls) == 2  # the whole cards were read
