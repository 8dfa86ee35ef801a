"""Cards found by the half-turn symmetry of their print where their outline does not show
(:mod:`kiosk.vision.symmetry`), and how the detector offers them (:meth:`Detector.printed`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kiosk.decks import load_deck
from kiosk.render.compositing import composite_card, face_bgra
from kiosk.render.scenes import card_quad
from kiosk.vision.detect import SAME_OUTLINE, SYMMETRIC_OVER, Detector, polygon_iou
from kiosk.vision.symmetry import symmetric_cards

DECK = load_deck("standard-52")


def white_table(cards: list[tuple[str, np.ndarray]], ground: int = 240) -> np.ndarray:
    """Cards laid on a white table, in light that clips the table and the cards' paper alike
    (their outline is then a step of a grey level or none: held-out scene 900070)."""
    img = np.full((360, 640, 3), ground, np.uint8)
    for card_id, quad in cards:
        composite_card(img, face_bgra(DECK[card_id], None, 160), quad)
    return cv2.convertScaleAbs(img, alpha=1.12)


@pytest.mark.parametrize("card_id", ["AS", "2H", "3S", "5D", "6D", "7C", "8C", "10H"])
def test_a_white_card_on_a_white_table_is_found_by_its_print(card_id: str) -> None:
    quad = card_quad((320, 180), 70, 0.35)
    img = white_table([(card_id, quad)])
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    side = (quad[0] + quad[3]) / 2  # the middle of the card's left side, and 6 px either way
    inward = (quad.mean(axis=0) - side) / np.linalg.norm(quad.mean(axis=0) - side)
    (xi, yi), (xo, yo) = np.round(side + 6 * inward).astype(int), np.round(side - 6 * inward).astype(int)
    assert abs(int(gray[yi, xi]) - int(gray[yo, xo])) <= 2  # its outline does not show
    (found,) = symmetric_cards(img)
    assert polygon_iou(found, quad) >= 0.9


@pytest.mark.parametrize("gap", [130, 150, 170])
def test_two_alike_cards_apart_are_two_cards_not_the_pair(gap: int) -> None:
    """Two fives of diamonds side by side are symmetric about the point between them too: the
    smaller cluster, a card, takes its ink first."""
    quads = [card_quad((320 - gap / 2, 180), 70, 0.35), card_quad((320 + gap / 2, 180), 70, 0.35)]
    found = symmetric_cards(white_table([("5D", q) for q in quads]))
    assert len(found) == 2
    assert sorted(max(polygon_iou(f, q) for f in found) for q in quads)[0] >= 0.9


def test_print_without_a_half_turn_symmetry_is_no_card() -> None:
    img = np.full((360, 640, 3), 250, np.uint8)
    for k, line in enumerate(["Les images de la camera", "sont analysees sur ton appareil",
                              "uniquement : rien n'est", "enregistre ni envoye. 2026"]):
        cv2.putText(img, line, (60, 80 + 50 * k), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (30, 30, 30), 2)
    assert symmetric_cards(img) == []


def test_a_card_on_a_dark_table_is_left_to_its_outline() -> None:
    img = np.full((360, 640, 3), 60, np.uint8)
    composite_card(img, face_bgra(DECK["5D"], None, 160), card_quad((320, 180), 70, 0.35))
    assert symmetric_cards(img) == []
    assert symmetric_cards(np.full((360, 640, 3), 255, np.uint8)) == []


def test_a_loose_outline_is_offered_the_card_its_print_shows_and_no_other() -> None:
    card, apart = card_quad((200, 180), 70, 0.35), card_quad((450, 180), 70, 0.35)
    img = white_table([("5D", card), ("8C", apart)])  # the eight of clubs under no outline
    loose, elsewhere = card_quad((212, 190), 80, 0.35), card_quad((560, 300), 60, 0.0)
    assert SYMMETRIC_OVER <= polygon_iou(card, loose) < SAME_OUTLINE
    detector = Detector()
    (found,), over_nothing = detector.printed(img, [loose, elsewhere])
    assert polygon_iou(found, card) >= 0.9
    assert over_nothing == ()
    assert detector.printed(img, [card + 0.5, elsewhere]) == [(), ()]  # outlined already: nothing new
    assert detector.printed(np.zeros((1, 1), np.uint8), [loose]) == [()]
