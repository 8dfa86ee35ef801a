"""Table scenes and textures: deterministic, realistic card sizes, truth that matches the pixels."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kiosk.decks import load_deck
from kiosk.render.faces import face_styles, render_face
from kiosk.render.scenes import render_empty, render_scene
from kiosk.render.textures import table_background, texture_families
from kiosk.vision.face import FACE_SIZE, warp_face


def _z(bgr: np.ndarray) -> np.ndarray:
    a = cv2.GaussianBlur(bgr.astype(np.float32), (0, 0), 0.8)
    return (a - a.mean()) / (a.std() + 1e-6)


def test_same_seed_same_scene_other_seed_other_scene():
    a = render_scene("standard-52", 5, 42, (640, 360), hand=True, distractors=True)
    b = render_scene("standard-52", 5, 42, (640, 360), hand=True, distractors=True)
    c = render_scene("standard-52", 5, 43, (640, 360), hand=True, distractors=True)
    assert np.array_equal(a.image, b.image)
    assert [x.card_id for x in a.cards] == [x.card_id for x in b.cards]
    assert all(np.array_equal(x.corners, y.corners) for x, y in zip(a.cards, b.cards, strict=True))
    assert not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("style", face_styles("standard-52"))
def test_each_truth_quad_warps_back_to_the_face_it_claims(style):
    deck = load_deck("standard-52")
    refs = {
        c.id: _z(cv2.cvtColor(np.asarray(render_face(c, style, FACE_SIZE[0]).resize(FACE_SIZE)), cv2.COLOR_RGB2BGR))
        for c in deck.cards
    }
    checked = 0
    for seed in range(1):
        scene = render_scene("standard-52", 8, seed, styles=(style,), overlap=False)
        for card in scene.cards:
            face = _z(warp_face(scene.image, card.corners))
            scores = {k: float((face * ref).mean()) for k, ref in refs.items()}
            rank = deck[card.card_id].rank
            other_rank = max(v for k, v in scores.items() if deck[k].rank != rank)
            assert max(scores, key=scores.get) == card.card_id
            assert scores[card.card_id] > 0.5
            assert scores[card.card_id] - other_rank > 0.03
            checked += 1
    assert checked == 8


def test_animal_scene_truth_matches_the_species_face():
    deck = load_deck("kakkerlakken-64")
    refs = {
        c.species: _z(cv2.cvtColor(np.asarray(render_face(c, None, FACE_SIZE[0]).resize(FACE_SIZE)), cv2.COLOR_RGB2BGR))
        for c in deck.cards
    }
    scene = render_scene("kakkerlakken-64", 5, 3, overlap=False)
    for card in scene.cards:
        face = _z(warp_face(scene.image, card.corners))
        best = max(refs, key=lambda s: float((face * refs[s]).mean()))
        assert best == deck[card.card_id].species


def test_cards_have_a_realistic_size_and_stay_in_the_frame():
    for seed in range(4):
        scene = render_scene("piquet-32", 6, seed)
        for card in scene.cards:
            short = np.linalg.norm(card.corners[1] - card.corners[0])
            assert 0.065 * 1280 < short < 0.165 * 1280
            assert 1.15 < np.linalg.norm(card.corners[3] - card.corners[0]) / short < 1.65  # 88/63, tilted
            assert (card.corners >= 0).all() and (card.corners[:, 0] < 1280).all() and (card.corners[:, 1] < 720).all()


def test_occlusion_truth_follows_overlap_and_hands():
    apart = render_scene("standard-52", 6, 5, overlap=False)
    assert all(c.occluded < 0.01 and c.index_visible for c in apart.cards)
    piles = [render_scene("standard-52", 10, s, (640, 360), hand=True) for s in range(4)]
    hidden = [c for scene in piles for c in scene.cards if c.occluded > 0.05]
    assert hidden, "overlapping scenes with hands should hide some cards"
    assert all(0.0 <= c.occluded <= 1.0 for scene in piles for c in scene.cards)
    assert any(not c.index_visible for c in hidden)


def test_fanned_pairs_show_a_strip_of_each_under_card_with_its_index() -> None:
    """``fans``: cards in pairs, the second over the first; of the first a half to a third shows,
    nearly always with one of its corner indices (a hand of two laid down, read by its strip)."""
    scenes = [render_scene("standard-52", 7, seed, split="heldout", fans=True) for seed in range(12)]
    under = [c for scene in scenes for c in scene.cards[0:6:2]]
    top = [c for scene in scenes for c in [*scene.cards[1:6:2], scene.cards[6]]]
    assert all(0.45 <= c.occluded <= 0.75 for c in under)
    assert sum(c.index_visible for c in under) >= 0.9 * len(under)
    assert all(c.occluded < 0.01 for c in top)
    for scene in scenes:  # each pair lies within a card's width of itself
        for a, b in zip(scene.cards[0:6:2], scene.cards[1:6:2], strict=True):
            assert np.linalg.norm(a.corners.mean(axis=0) - b.corners.mean(axis=0)) < np.linalg.norm(
                a.corners[1] - a.corners[0]
            )


def test_explicit_cards_and_bad_arguments():
    scene = render_scene("affiche-belge", 0, 1, (320, 240), card_ids=["JK1", "3H"])
    assert [c.card_id for c in scene.cards] == ["JK1", "3H"]
    with pytest.raises(ValueError, match="no card"):
        render_scene("standard-52", 0, 1, card_ids=["1Z"])
    with pytest.raises(ValueError, match="split"):
        render_scene("standard-52", 1, 1, split="test")
    with pytest.raises(ValueError, match="n_cards"):
        render_scene("piquet-32", 33, 1)


def test_empty_tables_are_deterministic_and_split_dependent():
    a = render_empty(9, (320, 240))
    assert a.shape == (240, 320, 3) and a.dtype == np.uint8
    assert np.array_equal(a, render_empty(9, (320, 240)))
    assert not np.array_equal(a, render_empty(9, (320, 240), "heldout"))


def test_train_and_heldout_textures_never_share_a_family_or_a_plain_level():
    train, heldout = set(texture_families("train")), set(texture_families("heldout"))
    shared = train & heldout
    assert shared <= {"grey", "white", "dark", "glossy"}
    assert len(train - shared) >= 3 and len(heldout - shared) >= 3
    for family in ("grey", "white", "dark"):
        lo = max(table_background(s, (64, 36), "train", family).mean() for s in range(6))
        hi = min(table_background(s, (64, 36), "heldout", family).mean() for s in range(6))
        assert lo < hi, family
    assert np.array_equal(table_background(3, (64, 36)), table_background(3, (64, 36)))


def test_a_given_surface_replaces_the_table_and_keeps_the_cards():
    plain = render_scene("standard-52", 4, 8, (320, 180))  # a white cloth
    surface = np.full((180, 320, 3), (40, 90, 160), np.uint8)
    on = render_scene("standard-52", 4, 8, (320, 180), surface=surface)
    assert on.table == "surface"
    assert [c.card_id for c in on.cards] == [c.card_id for c in plain.cards]
    assert all(np.array_equal(a.corners, b.corners) for a, b in zip(on.cards, plain.cards, strict=True))
    table = on.labels < 0
    # the table shows the given orange surface (through the camera's light and noise)
    b, g, r = on.image[table].astype(np.float32).mean(axis=0)
    assert r - b > 80 and b < g < r
    b, g, r = plain.image[table].astype(np.float32).mean(axis=0)
    assert not r - b > 80, "the seed's own table should not look like the test surface"
    with pytest.raises(ValueError, match="surface must be"):
        render_scene("standard-52", 1, 7, (320, 180), surface=surface[:90])
