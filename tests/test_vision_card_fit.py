"""Card-shaped outlines fitted round a loose one: on a striped cloth whose white stripes hide
parts of a card's sides, the card is among the first few rectangles found; every rectangle has
a card's shape; a picture with no edges gives none."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest
from conftest import on_stripes

from kiosk.render.scenes import card_quad
from kiosk.vision.card_fit import card_shapes
from kiosk.vision.geometry import CARD_ASPECT, order_corners, polygon_iou, quad_aspect
from kiosk.vision.params import PARAMS


def striped(card_id: str, quad: np.ndarray) -> np.ndarray:
    """:func:`conftest.on_stripes` in grey."""
    return cv2.cvtColor(on_stripes(card_id, quad), cv2.COLOR_BGR2GRAY)


@pytest.mark.parametrize(("turn", "moved"), [(0.2, (8, -6)), (-0.15, (-10, 4)), (0.1, (0, 14))])
def test_a_loose_outline_on_stripes_finds_the_card(turn: float, moved: tuple[int, int]) -> None:
    """An outline of the stripes' axis, larger than the card and off its centre (what the
    region of a card that runs on into white stripes gives), finds the card turned by up to
    12 degrees among its first three rectangles."""
    card = card_quad((320, 180), 110, turn)
    loose = card_quad((320 + moved[0], 180 + moved[1]), 125, 0.0)
    assert polygon_iou(loose, card) < 0.75
    shapes = card_shapes(striped("3C", card), loose)
    assert max(polygon_iou(s, card) for s in shapes[:3]) > 0.9


def test_every_shape_is_a_card_and_no_two_are_one() -> None:
    card = card_quad((300, 170), 100, 0.1)
    shapes = card_shapes(striped("KH", card), card_quad((310, 175), 112, 0.0))
    assert 2 <= len(shapes) <= 6
    for s in shapes:
        assert np.allclose(s, order_corners(s))
        assert quad_aspect(s) == pytest.approx(CARD_ASPECT, rel=0.05)
    assert all(polygon_iou(a, b) <= 0.8 for a, b in itertools.combinations(shapes, 2))


@pytest.mark.parametrize("size", [(360, 640), (3, 3)])
def test_a_picture_without_edges_gives_no_shape(size: tuple[int, int]) -> None:
    gray = np.full(size, 128, np.uint8)
    assert card_shapes(gray, card_quad((320, 180), 110, 0.0)) == []


def test_the_closer_search_stays_close_and_keeps_a_card_it_starts_on() -> None:
    """The closer search (4 degrees, 8 % of the width) only offers rectangles near the one it
    starts from, and started on the card, its first is the card."""
    card = card_quad((320, 180), 110, 0.2)
    gray = striped("3C", card)
    near = card_quad((324, 183), 113, 0.25)
    assert all(polygon_iou(s, near) > 0.75 for s in card_shapes(gray, near, PARAMS.card_fit.closer))
    assert polygon_iou(card_shapes(gray, card, PARAMS.card_fit.closer)[0], card) > 0.95
