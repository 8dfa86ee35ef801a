"""Printed material: the mat's markers where kiosk.mat says, deck sheets at real card size."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from kiosk import mat
from kiosk.referee.zones import seats_layout
from kiosk.render.mat import paper_pixels, render_mat, save_mat_pdf, zone_label
from kiosk.render.sheets import deck_cards, render_sheets, save_sheets_pdf


@pytest.mark.parametrize("paper", ["A3", "A2"])
def test_mat_markers_sit_exactly_at_their_mat_coordinates(paper):
    img = render_mat(paper, dpi=40)
    assert img.size == paper_pixels(paper, 40)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2GRAY))
    assert sorted(ids.ravel().tolist()) == list(mat.MARKER_IDS)
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        expected = np.array(mat.marker_corners(int(marker_id))) * img.size
        assert np.abs(quad.reshape(4, 2) - expected).max() < 2.0


def test_mat_outlines_every_zone_and_labels_seats():
    layout = seats_layout(4, ("draw", "discard"))
    plain, zoned = (np.asarray(render_mat("A3", lay, 40).convert("L")) for lay in (None, layout))
    for zone in layout.zones:
        h, w = plain.shape
        x0, y0, x1, y1 = np.array(zone.rect) * [w, h, w, h]
        edge = np.s_[int(y0) + 5 : int(y1) - 5, max(0, int(x0) - 1) : int(x0) + 2]
        # the outline's left edge: a light line on the green field
        assert zoned[edge].max() > plain[edge].max() + 60, zone.name
    assert zone_label("seat0") == "Joueur 1 · Speler 1"
    assert zone_label("discard") == "Défausse · Aflegstapel"


def test_mat_pdf_has_the_true_paper_size(tmp_path):
    out = tmp_path / "mat.pdf"
    save_mat_pdf(out, "A3", dpi=40)
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)", out.read_bytes())
    assert box is not None
    w_pt, h_pt = float(box.group(1)), float(box.group(2))
    assert abs(w_pt / 72 * 25.4 - 420) < 1.5 and abs(h_pt / 72 * 25.4 - 297) < 1.5


def test_sheets_hold_nine_real_size_cards_per_a4_page(tmp_path):
    cards = deck_cards("math-pairs", "add-10")
    assert any(c.kind == "blank" for c in cards)
    pages = render_sheets("math-pairs", "add-10", dpi=60)
    assert len(pages) == -(-len(cards) // 9)
    assert pages[0].size == (round(210 / 25.4 * 60), round(297 / 25.4 * 60))
    out = tmp_path / "deck.pdf"
    assert save_sheets_pdf(out, "math-pairs", "add-10", dpi=60) == len(pages)
    assert out.read_bytes().count(b"/Type /Page\n") + out.read_bytes().count(b"/Type /Page ") >= len(pages)
    with pytest.raises(ValueError, match="no level"):
        deck_cards("math-pairs", "calculus")
