"""Overlaps of quads (kiosk.vision.geometry.overlap), exact where two outlines of one card nearly
coincide: the case selection, the strips and the benchmarks' strict IoU all turn on."""

from __future__ import annotations

import math

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.render.scenes import card_quad
from kiosk.vision.geometry import order_corners, overlap, polygon_iou


@settings(max_examples=200, deadline=None)
@given(
    angle=st.floats(-math.pi, math.pi),
    slide=st.floats(-0.2, 0.2),
    across=st.booleans(),
    width=st.floats(40, 300),
)
def test_a_card_slid_along_its_sides_overlaps_it_by_what_they_share(
    angle: float, slide: float, across: bool, width: float
) -> None:
    """A card and the same card slid by ``slide`` of its side along one of its sides: their
    sides coincide or run parallel a hair apart, and they share ``1 - |slide|`` of their area,
    so the IoU is (1 - s) / (1 + s) whichever order, orientation or corner order they come in."""
    card = card_quad((400.0, 300.0), width, angle)
    side = card[1 if across else 3] - card[0]
    slid = (card + slide * side).astype(np.float32)
    s = abs(slide)
    expected = (1 - s) / (1 + s)
    for a, b in ((card, slid), (slid, card), (order_corners(slid), card[::-1].copy())):
        assert abs(polygon_iou(a, b) - expected) < 1e-3


def test_two_outlines_a_pixel_apart_overlap_almost_wholly() -> None:
    """Two outlines of one card a pixel or two apart: cv2.intersectConvexConvex (OpenCV 5.1)
    finds a third of their overlap (opencv/opencv#22812); the overlap here is the whole of it."""
    under = np.array([[404.34155, 197.0989], [387.93613, 305.86865], [235.65846, 282.9011], [252.06387, 174.13133]])
    guess = np.array([[403.92194, 199.881], [387.5165, 308.65076], [235.23883, 285.68323], [251.64424, 176.91344]])
    assert polygon_iou(guess.astype(np.float32), under.astype(np.float32)) > 0.94


def test_a_frame_inside_its_card_and_cards_apart() -> None:
    """A picture frame within its card lies within it, not the card within the frame; cards
    apart overlap nothing; a convex outline of many points (a hull) is compared too."""
    card = card_quad((300.0, 200.0), 100, 0.3)
    centre = card.mean(axis=0)
    frame = (centre + 0.8 * (card - centre)).astype(np.float32)
    iou, frame_in_card, card_in_frame = overlap(frame, card)
    assert abs(iou - 0.64) < 1e-3 and frame_in_card and not card_in_frame
    assert overlap(card, card + 500) == (0.0, False, False)
    hull = cv2.convexHull(cv2.ellipse2Poly((300, 200), (60, 40), 0, 0, 360, 10)).reshape(-1, 2).astype(np.float32)
    assert abs(polygon_iou(hull, hull) - 1.0) < 1e-6
    assert 0 < polygon_iou(card, hull) < 1
