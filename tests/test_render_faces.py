"""Card faces: every deck renders, designs really differ, indices sit where the vision looks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from kiosk.decks import RANKS, SUITS, Card, load_deck
from kiosk.render.emblems import REGION_EMBLEMS, draw_emblem, emblem_mask
from kiosk.render.faces import LOOKS, POSTER_LOOK, draw_indices, face_styles, render_face
from kiosk.vision.face import INDEX_BOX

ALL_DECKS = ("affiche-belge", "standard-52", "piquet-32", "kakkerlakken-64", "math-pairs")


def _ink(img: Image.Image) -> np.ndarray:
    return np.asarray(img.convert("L")) < 200


@pytest.mark.parametrize("deck_id", ALL_DECKS)
def test_every_card_of_every_deck_renders_at_card_proportions(deck_id):
    for card in load_deck(deck_id).cards:
        for style in face_styles(deck_id):
            face = render_face(card, style, 60)
            assert face.mode == "RGB" and face.size == (60, 84)
            assert _ink(face).any(), f"{card.id} ({style}) is blank"


def test_rendering_is_deterministic_and_cached():
    card = load_deck("standard-52")["QH"]
    fresh = render_face.__wrapped__(card, "classic", 120)
    assert np.array_equal(np.asarray(fresh), np.asarray(render_face(card, "classic", 120)))
    assert render_face(card, "classic", 120) is render_face(card, "classic", 120)


@pytest.mark.parametrize("deck_id", ["standard-52", "piquet-32"])
def test_standard_decks_have_three_clearly_different_designs(deck_id):
    styles = face_styles(deck_id)
    assert len(styles) >= 3
    for card_id in ("KS", "10H", "AC"):
        faces = [np.asarray(render_face(load_deck(deck_id)[card_id], s, 100), np.float32) for s in styles]
        for i in range(len(faces)):
            for j in range(i + 1, len(faces)):
                assert np.abs(faces[i] - faces[j]).mean() > 12, f"{card_id}: {styles[i]} ~ {styles[j]}"


def test_unknown_style_is_refused():
    with pytest.raises(ValueError, match="no face style"):
        render_face(load_deck("standard-52")["2C"], "poster", 100)


@settings(max_examples=40, deadline=None)
@given(
    rank=st.sampled_from(RANKS),
    suit=st.sampled_from(SUITS),
    look=st.sampled_from([*LOOKS.values(), POSTER_LOOK]),
    width=st.integers(120, 400),
)
def test_corner_indices_lie_inside_index_box_and_its_180_degree_twin(rank, suit, look, width):
    card = Card(id=f"{rank}{suit}", deck="standard-52", kind="standard", rank=rank, suit=suit)
    img = Image.new("RGB", (width, round(width * 1.4)), (255, 255, 255))
    draw_indices(img, card, look, plate=False)
    ink = _ink(img)
    h, w = ink.shape
    x0, y0, x1, y1 = INDEX_BOX
    inside = np.zeros_like(ink)
    inside[int(y0 * h) : int(np.ceil(y1 * h)), int(x0 * w) : int(np.ceil(x1 * w))] = True
    inside |= np.rot90(inside, 2)
    assert not (ink & ~inside).any()
    box = ink[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w)]
    assert box.sum() > 0.03 * box.size  # rank and suit are really there
    assert np.array_equal(ink, np.rot90(ink, 2))  # the same index, turned, bottom-right


def test_affiche_faces_show_standard_indices_in_the_index_box():
    deck = load_deck("affiche-belge")
    face = np.asarray(render_face(deck["3H"], None, 200))
    h, w = face.shape[:2]
    x0, y0, x1, y1 = INDEX_BOX
    corner = face[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w)].astype(int)
    red = (corner[..., 0] > 150) & (corner[..., 1] < 90)
    assert red.sum() > 50  # a red 3 and heart on the white plate


def test_faces_survive_cards_without_names_or_drawings():
    bare = [
        Card(id="9D", deck="affiche-belge", kind="standard", rank="9", suit="D"),
        Card(id="yeti-1", deck="kakkerlakken-64", kind="animal", species="yeti"),
        Card(id="x", deck="math-pairs", kind="math"),
    ]
    for card in bare:
        assert _ink(render_face(card, None, 80)).any()


def test_each_animal_species_has_its_own_face_and_copies_share_it():
    deck = load_deck("kakkerlakken-64")
    by_species: dict[str, list[np.ndarray]] = {}
    for card in deck.cards:
        by_species.setdefault(card.species, []).append(np.asarray(render_face(card, None, 80), np.float32))
    assert len(by_species) == 8
    firsts = [faces[0] for faces in by_species.values()]
    for faces in by_species.values():
        assert all(np.array_equal(faces[0], f) for f in faces)
    for i in range(8):
        for j in range(i + 1, 8):
            assert np.abs(firsts[i] - firsts[j]).mean() > 10


def test_math_calculation_and_result_faces_differ():
    deck = load_deck("math-pairs")
    calc = next(c for c in deck.cards if c.expression)
    result = next(c for c in deck.cards if c.kind == "math" and not c.expression)
    a, b = (np.asarray(render_face(c, None, 100), np.float32) for c in (calc, result))
    assert np.abs(a - b).mean() > 10


def test_emblems_are_distinct_and_stay_in_their_box():
    masks = [np.asarray(emblem_mask(r, (64, 64))) > 127 for r in REGION_EMBLEMS]
    for i in range(3):
        assert masks[i].mean() > 0.15
        for j in range(i + 1, 3):
            iou = (masks[i] & masks[j]).sum() / (masks[i] | masks[j]).sum()
            assert iou < 0.6
    img = Image.new("1", (100, 100), 1)
    draw_emblem(img, "wallonia", (20, 30, 60, 70), fill=0)
    ink = np.asarray(img) == 0
    ys, xs = np.nonzero(ink)
    assert ink.any() and xs.min() >= 20 and xs.max() < 60 and ys.min() >= 30 and ys.max() < 70
    with pytest.raises(ValueError, match="unknown region"):
        draw_emblem(img, "atlantis", (0, 0, 10, 10))
