"""The card under a named card, found by the strip of it that shows (kiosk.vision.strips)."""

from __future__ import annotations

import math

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.render.scenes import card_quad, render_scene
from kiosk.vision.detect import Detector
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.identify import Identifier
from kiosk.vision.naming import name_cards
from kiosk.vision.strips import strip_beyond

WIDTH = 110  # a card's short side, pixels


def _pair(angle: float, shift: float, turn: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A card and the card laid over it, moved across it by ``shift`` of its width, turned by
    ``turn`` more (as a hand of two is laid down fanned)."""
    under = card_quad((320, 240), WIDTH, angle)
    top_centre = np.array([320, 240]) - shift * WIDTH * np.array([math.cos(angle), math.sin(angle)])
    return under, card_quad((float(top_centre[0]), float(top_centre[1])), WIDTH, angle + turn)


def _paint(quads: list[np.ndarray], table: int, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """Plain white cards (``quads``, the last on top) on a table of grey level ``table``, each
    edged by a thin grey line as a card's edge shows."""
    img = np.full((size[1], size[0]), table, np.uint8)
    for q in quads:
        cv2.fillConvexPoly(img, np.round(q).astype(np.int32), 245)
        cv2.polylines(img, [np.round(q).astype(np.int32)], True, 200, 1)
    return img


@settings(max_examples=60, deadline=None)
@given(angle=st.floats(-math.pi, math.pi), shift=st.floats(0.25, 0.55), table=st.integers(20, 150))
def test_a_strip_beyond_a_card_gives_the_card_under_it(angle: float, shift: float, table: int) -> None:
    """A card laid a quarter to a half of its width across another on a darker table: beyond the
    top card's side a strip of paper runs out that far and stops. The card under it is the top
    card moved across by the strip's width."""
    under, top = _pair(angle, shift)
    low = _paint([under, top], table)
    guesses = strip_beyond(low, top)
    assert len(guesses) == 1
    assert polygon_iou(guesses[0], under) > 0.85


@settings(max_examples=30, deadline=None)
@given(angle=st.floats(-math.pi, math.pi), table=st.sampled_from([30, 120, 240]))
def test_a_lone_card_or_one_on_a_white_table_has_no_strip(angle: float, table: int) -> None:
    """No paper runs on beyond a card lying alone; on a table as white as the card the paper
    never stops, and no strip is taken from it."""
    card = card_quad((320, 240), WIDTH, angle)
    assert strip_beyond(_paint([card], table), card) == []


def test_a_card_beside_another_is_no_strip() -> None:
    """A card lying beside another, touching it, shows a whole card's width of paper beyond its
    side: no strip of a card under it."""
    left = card_quad((260, 240), WIDTH, 0.0)
    right = card_quad((260 + WIDTH, 240), WIDTH, 0.0)
    assert strip_beyond(_paint([left, right], 60), left) == []


def test_the_cards_under_named_cards_are_named_by_their_strips() -> None:
    """A held-out table of four hands of two laid down fanned: of two of them the detector
    outlines the top card alone, read by both corners, and the card under it shows a strip with
    its index (the 7 of diamonds beyond the 3 of hearts, the 8 of hearts beyond the 9 of clubs).
    Naming reads each card under there, the top card's pixels painted out, and names it on an
    outline that is the card's."""
    scene = render_scene("standard-52", 8, 900_021, (1280, 720), split="heldout", fans=True)
    detector = Detector()
    pairs = name_cards(Identifier("standard-52"), detector, scene.image, detector.detect(scene.image))
    named = {a.card_id: d.corners for d, a in pairs if a.card_id is not None}
    truth = {c.card_id: c.corners for c in scene.cards}
    for card_id in ("7D", "8H"):
        assert polygon_iou(named[card_id], truth[card_id]) > 0.8
    assert set(named) <= set(truth)
