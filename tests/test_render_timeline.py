"""The virtual table: scripted cards arrive, rest and leave; hands pass; the mat is calibratable."""

from __future__ import annotations

import cv2
import numpy as np

from kiosk import mat
from kiosk.render.scenes import apply_homography
from kiosk.render.timeline import SLIDE, VirtualTable

SCRIPT = [
    {"at": 10, "card": "QS", "mat_xy": (0.3, 0.5), "leave": 40},
    {"at": 12, "card": "7H", "mat_xy": (0.7, 0.5), "leave": 60, "angle": 90},
    {"at": 20, "hand": (0.3, 0.5), "leave": 28},
]


def _ids(truth):
    return [c.card_id for c in truth]


def test_a_scripted_card_arrives_rests_and_leaves():
    table = VirtualTable("standard-52", 1, (640, 480), script=SCRIPT)
    assert _ids(table.frame(10 - SLIDE - 1)[1]) == []
    frame, truth = table.frame(14)
    assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
    assert _ids(truth) == ["QS", "7H"]
    expected = apply_homography(table.mat_to_frame, np.array([[0.3, 0.5]], np.float32))[0]
    assert np.allclose(truth[0].corners.mean(axis=0), expected, atol=1.0)
    assert _ids(table.frame(40 + SLIDE + 1)[1]) == ["7H"]
    assert table.arrivals == [(10, "QS"), (12, "7H")]


def test_a_passing_hand_hides_a_card_without_removing_it():
    table = VirtualTable("standard-52", 1, (640, 480), script=SCRIPT)
    before = table.frame(15)[1][0]
    during = table.frame(24)[1][0]
    assert before.card_id == during.card_id == "QS"
    assert before.occluded < 0.01 and during.occluded > 0.2
    assert np.array_equal(before.corners, during.corners)


def test_frames_are_random_access_and_deterministic():
    a = VirtualTable("piquet-32", 5, (320, 240))
    b = VirtualTable("piquet-32", 5, (320, 240))
    for i in (0, 200, 35):
        a.frame(i)
    fa, ta = a.frame(120)
    fb, tb = b.frame(120)
    assert np.array_equal(fa, fb) and _ids(ta) == _ids(tb)


def test_default_script_brings_cards_and_hands():
    table = VirtualTable("standard-52", 2, (320, 240))
    assert len(table) == 1800 and len(table.arrivals) >= 10
    at, card_id = table.arrivals[3]
    assert card_id in _ids(table.frame(at)[1])


def test_default_script_deals_a_small_deck_again_but_never_one_card_twice_at_once():
    table = VirtualTable("piquet-32", 1, (320, 240))
    ids = [card_id for _, card_id in table.arrivals]
    assert len(ids) > 32 and set(ids) <= {c.id for c in table.deck.cards}
    for i in range(0, len(table), 15):
        seen = _ids(table.frame(i)[1])
        assert len(seen) == len(set(seen))


def test_mat_markers_are_found_where_the_homography_puts_them():
    table = VirtualTable("standard-52", 3, (1280, 720), mat=True, script=[])
    frame, _ = table.frame(0)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        expected = apply_homography(table.mat_to_frame, np.array(mat.marker_corners(int(marker_id)), np.float32))
        assert np.abs(quad.reshape(4, 2) - expected).max() < 4.0
