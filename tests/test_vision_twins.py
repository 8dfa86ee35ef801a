"""The two Manneken-Pis of the L'Affiche Belge deck print one corner index (``JK``) but are two
cards with two posters (the costumed statue and the one in its niche); a card shown must show its
own place (000_de7fdf0eefacbd60.txt: "passe une carte du jeu devant : le lieu s'affiche"). The
kiosk names each by its poster, and refuses a joker it cannot tell rather than show the other."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from kiosk.decks import load_deck
from kiosk.render.faces import render_face
from kiosk.render.scenes import render_scene
from kiosk.vision.face import FACE_SIZE, index_crops, warp_face
from kiosk.vision.identify import Identifier
from kiosk.vision.twins import TwinArt, twin_cards


@cache
def identifier() -> Identifier:
    return Identifier("affiche-belge")


@cache
def art() -> TwinArt:
    return TwinArt(twin_cards(load_deck("affiche-belge")))


def poster(card_id: str) -> np.ndarray:
    card = load_deck("affiche-belge")[card_id]
    return cv2.cvtColor(np.asarray(render_face(card, width=FACE_SIZE[0])), cv2.COLOR_RGB2BGR)


def test_only_decks_whose_cards_share_an_index_have_twins() -> None:
    assert [c.id for c in twin_cards(load_deck("affiche-belge"))] == ["JK1", "JK2"]
    assert twin_cards(load_deck("standard-52")) == ()
    assert twin_cards(load_deck("piquet-32")) == ()


@pytest.mark.parametrize("seed", range(6))
def test_each_manneken_pis_on_a_table_is_named_by_its_poster(seed: int) -> None:
    """Both jokers among other cards on a held-out table, at any angle (either way up), their
    outlines a couple of pixels off as the detector finds them."""
    scene = render_scene(
        "affiche-belge", 4, 7000 + seed, card_ids=["JK1", "JK2", "7H", "QD"], split="heldout", overlap=False
    )
    rng = np.random.default_rng(seed)
    faces = [warp_face(scene.image, c.corners + rng.normal(0, 2, (4, 2)).astype(np.float32)) for c in scene.cards]
    answers = identifier().identify(faces)
    assert [a.card_id for a in answers] == [c.card_id for c in scene.cards]


def test_a_joker_turned_half_round_is_still_told() -> None:
    faces = [cv2.rotate(poster(i), cv2.ROTATE_180) for i in ("JK1", "JK2")]
    assert [a.card_id for a in identifier().identify(faces)] == ["JK1", "JK2"]


def test_a_joker_whose_poster_matches_neither_clearly_is_refused() -> None:
    """Half of each poster: the index reads a joker, the art leads neither twin, so no stamp
    is given (the guess stays a joker for the tracker's hints)."""
    blend = cv2.addWeighted(poster("JK1"), 0.5, poster("JK2"), 0.5, 0)
    scores = art().scores(blend)
    assert abs(scores[0] - scores[1]) < 0.1
    (answer,) = identifier().identify([blend])
    assert answer.card_id is None
    assert answer.guess in ("JK1", "JK2")


def test_a_corner_crop_alone_names_no_manneken_pis() -> None:
    """A corner shows only the index the twins share."""
    crops = [index_crops(poster("JK2"))[0], index_crops(poster("7H"))[0]]
    answers = identifier().identify_index(crops)
    assert [a.card_id for a in answers] == [None, "7H"]
    assert answers[0].guess == "JK1"
