"""Cards found by the half-turn symmetry of their print where their outline does not show
(:mod:`kiosk.vision.symmetry`), and how the detector offers them (:meth:`Detector.printed`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kiosk.decks import load_deck
from kiosk.render.compositing import composite_card, face_bgra
from kiosk.render.scenes import card_quad, render_scene
from kiosk.vision.detect import Detection, Detector
from kiosk.vision.geometry import order_corners, polygon_iou
from kiosk.vision.identify import Identifier
from kiosk.vision.naming import name_cards
from kiosk.vision.params import PARAMS
from kiosk.vision.symmetry import symmetric_cards

DECK = load_deck("standard-52")
IDENTIFIER = Identifier("standard-52")


def white_table(cards: list[tuple[str, np.ndarray]], ground: int = 240) -> np.ndarray:
    """Cards laid on a white table, in light that clips the table and the cards' paper alike
    (their outline is then a step of a grey level or none: held-out scene 900070)."""
    img = np.full((360, 640, 3), ground, np.uint8)
    for card_id, quad in cards:
        composite_card(img, face_bgra(DECK[card_id], None, 160), quad)
    return cv2.convertScaleAbs(img, alpha=1.12)


@pytest.mark.parametrize("card_id", ["AS", "2H", "3S", "5D", "6D", "7C", "8C", "9S", "10H", "JD", "QS", "KH"])
def test_a_white_card_on_a_white_table_is_found_by_its_print(card_id: str) -> None:
    """Court cards too: their dark picture does not pull the table's level under the paper's
    (the local median), and their two indices pair about it."""
    quad = card_quad((320, 180), 70, 0.35)
    img = white_table([(card_id, quad)])
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    side = (quad[0] + quad[3]) / 2  # the middle of the card's left side, and 6 px either way
    inward = (quad.mean(axis=0) - side) / np.linalg.norm(quad.mean(axis=0) - side)
    (xi, yi), (xo, yo) = np.round(side + 6 * inward).astype(int), np.round(side - 6 * inward).astype(int)
    assert abs(int(gray[yi, xi]) - int(gray[yo, xo])) <= 2  # its outline does not show
    found = symmetric_cards(img)
    assert max(polygon_iou(f, quad) for f in found) >= 0.9
    # the other clusters are parts of its print (a ten's half), within the card
    assert all(polygon_iou(f, quad) * cv2.contourArea(f) <= cv2.contourArea(quad) + 1 for f in found)


def test_a_king_among_other_cards_is_found_though_their_ink_pairs_across_it() -> None:
    """Held-out scene 900070: blobs of the jack above and of the cards below pair about the
    king of hearts' centre too; measured out to them its print is not symmetric enough, and
    the cluster is taken at the farthest reach that is."""
    scene = render_scene("standard-52", 8, 900070, (1280, 720), split="heldout", overlap=False)
    small = cv2.resize(scene.image, (640, 360), interpolation=cv2.INTER_AREA)
    (king,) = [c.corners / 2 for c in scene.cards if c.card_id == "KH"]
    assert max(polygon_iou(f, king) for f in symmetric_cards(small)) >= 0.8


@pytest.mark.parametrize("gap", [130, 150, 170])
def test_two_alike_cards_apart_are_two_cards_not_the_pair(gap: int) -> None:
    """Two fives of diamonds side by side are symmetric about the point between them too: each
    card is found, and before anything larger."""
    quads = [card_quad((320 - gap / 2, 180), 70, 0.35), card_quad((320 + gap / 2, 180), 70, 0.35)]
    found = symmetric_cards(white_table([("5D", q) for q in quads]))
    assert sorted(max(polygon_iou(f, q) for f in found[:2]) for q in quads)[0] >= 0.9


def test_a_printed_page_on_a_white_table_names_no_card() -> None:
    """Lines of text hold many letters alike in size, and some lie about a point as a card's
    print does: the cue offers such boxes over an outline refused there, and one corner of
    them reads as a card (0.99), but a card found by its print shows both its indices."""
    img = np.full((360, 640, 3), 250, np.uint8)
    for k, line in enumerate(
        [
            "Les images de la camera",
            "sont analysees sur ton appareil",
            "uniquement : rien n'est",
            "enregistre ni envoye. 2026",
        ]
    ):
        cv2.putText(img, line, (60, 80 + 50 * k), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (30, 30, 30), 2)
    detector = Detector()
    boxes = symmetric_cards(img)
    answers = IDENTIFIER.identify_cards(detector.look_again(img, boxes))
    assert max(a.confidence for a in answers if a.card_id is not None) >= PARAMS.looks.confidence
    assert all(a.corners == 1 for a in answers if a.card_id is not None)
    loose = [order_corners((b - b.mean(axis=0)) * 1.2 + b.mean(axis=0)) for b in boxes]
    assert all(
        PARAMS.looks.symmetric_over <= polygon_iou(q, b) < PARAMS.select.same_outline
        for q, b in zip(loose, boxes, strict=True)
    )
    outlines = [Detection(q, img, 1.0) for q in loose]
    refused = [d for d, a in zip(outlines, IDENTIFIER.identify_cards(outlines), strict=True) if a.card_id is None]
    assert len(refused) >= 10
    assert [a.card_id for _, a in name_cards(IDENTIFIER, detector, img, refused) if a.card_id] == []


def test_a_card_on_a_dark_table_is_left_to_its_outline() -> None:
    img = np.full((360, 640, 3), 60, np.uint8)
    composite_card(img, face_bgra(DECK["5D"], None, 160), card_quad((320, 180), 70, 0.35))
    assert symmetric_cards(img) == []
    assert symmetric_cards(np.full((360, 640, 3), 255, np.uint8)) == []


def test_a_loose_outline_is_offered_the_card_its_print_shows_and_no_other() -> None:
    card, apart = card_quad((200, 180), 70, 0.35), card_quad((450, 180), 70, 0.35)
    img = white_table([("5D", card), ("8C", apart)])  # the eight of clubs under no outline
    loose, elsewhere = card_quad((212, 190), 80, 0.35), card_quad((560, 300), 60, 0.0)
    assert PARAMS.looks.symmetric_over <= polygon_iou(card, loose) < PARAMS.select.same_outline
    detector = Detector()
    (found,), over_nothing = detector.printed(img, [loose, elsewhere])
    assert polygon_iou(found, card) >= 0.9
    assert over_nothing == ()
    assert detector.printed(img, [card + 0.5, elsewhere]) == [(), ()]  # outlined already: nothing new
    assert detector.printed(np.zeros((1, 1), np.uint8), [loose]) == [()]
