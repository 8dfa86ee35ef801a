"""The outline model: its truth maps, its input framing, and what the shipped file sees on
rendered tables the hand-set cues find hard (white cloth, stripes)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.render.scenes import HAND, render_scene
from kiosk.vision.cues import _split_regions
from kiosk.vision.detect import Detector, DetectorConfig, polygon_iou
from kiosk.vision.identify import default_models_dir
from kiosk.vision.outline import INPUT_WH, MODEL_FILE, fit_input, load_outline_model, normalise
from kiosk.vision.train.outlines import outline_sample, outline_target

SHIPPED = (default_models_dir() / MODEL_FILE).is_file()


def test_truth_marks_card_inside_and_outline_on_every_card_border() -> None:
    labels = np.full((120, 200), -1, np.int16)
    labels[20:100, 20:80] = 0  # a card on the table
    labels[20:100, 80:140] = 1  # a second card touching it
    labels[0:120, 170:200] = HAND  # a hand on the table, no card under it
    target = outline_target(labels, (200, 120))
    assert target[60, 50] == 1 and target[60, 110] == 1  # inside both cards
    assert target[60, 80] == 2 or target[60, 79] == 2  # where the two cards meet
    assert target[20, 50] == 2 and target[60, 20] == 2  # card against table
    assert target[60, 160] == 0 and target[60, 185] == 0  # table and hand: no card at all
    assert not (target[:, 150:] == 2).any()  # the table-hand border is no card outline


def test_truth_survives_downscaling() -> None:
    labels = np.full((360, 640), -1, np.int16)
    labels[100:260, 200:310] = 0
    target = outline_target(labels, (320, 180))
    assert target.shape == (180, 320)
    assert target[90, 127] == 1
    inside = (target >= 1).sum()
    assert abs(inside - 80 * 55) < 0.1 * 80 * 55  # the card keeps its area


@settings(max_examples=20, deadline=None)
@given(w=st.integers(8, 3000), h=st.integers(8, 3000))
def test_any_frame_shape_fits_the_input_without_distortion(w: int, h: int) -> None:
    img = np.full((h, w, 3), 90, np.uint8)
    fitted, (sw, sh) = fit_input(img)
    assert fitted.shape == (INPUT_WH[1], INPUT_WH[0], 3)
    scale = min(INPUT_WH[0] / w, INPUT_WH[1] / h)
    assert sw == INPUT_WH[0] or sh == INPUT_WH[1]  # one side fills the input
    assert abs(sw - w * scale) <= 1 and abs(sh - h * scale) <= 1  # the other keeps the aspect
    assert (fitted == 90).all()  # padded with the frame's own edge, no black border


def test_normalise_cancels_exposure() -> None:
    rng = np.random.default_rng(0)
    img = rng.integers(60, 160, (1, 40, 60, 3), dtype=np.uint8)
    brighter = np.clip(img.astype(np.int32) + 50, 0, 255).astype(np.uint8)
    assert np.allclose(normalise(img), normalise(brighter), atol=1e-4)


def test_training_samples_are_reproducible_and_labelled() -> None:
    a = outline_sample(np.random.default_rng(4))
    b = outline_sample(np.random.default_rng(4))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    image, target = a
    assert image.shape == (INPUT_WH[1], INPUT_WH[0], 3) and image.dtype == np.uint8
    assert target.shape == image.shape[:2] and set(np.unique(target)) <= {0, 1, 2}


def test_scene_labels_own_each_pixel() -> None:
    scene = render_scene("standard-52", 3, 5, (320, 180), overlap=False)
    assert scene.labels is not None and scene.labels.shape == (180, 320)
    for i, card in enumerate(scene.cards):
        centre = card.corners.mean(axis=0).astype(int)
        assert scene.labels[centre[1], centre[0]] == i


def test_no_model_file_means_hand_cues_alone(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert load_outline_model(tmp_path) is None
    assert Detector(DetectorConfig(outline_model=False)).outline is None


needs_model = pytest.mark.skipif(not SHIPPED, reason=f"models/{MODEL_FILE} is not built")


@needs_model
@pytest.mark.parametrize("seed", range(4))
def test_card_map_covers_the_cards_of_held_out_scenes(seed: int) -> None:
    scene = render_scene("standard-52", 6, 700_000 + seed, (640, 360), split="heldout", overlap=False)
    model = load_outline_model()
    assert model is not None
    card, edge = model.maps(scene.image)
    assert card.shape == edge.shape == (360, 640)
    truth = scene.labels >= 0
    pred = card + edge >= 0.5
    assert (pred & truth).sum() / (pred | truth).sum() > 0.7


@needs_model
@pytest.mark.parametrize("family", ["white", "stripes"])
def test_the_model_finds_cards_the_hand_set_cues_miss_on_white_cloth_and_stripes(family: str) -> None:
    """Held-out white cloth (239-252 grey: the outline is a faint shadow line) and white stripes
    as wide as a card, where whiteness and edges alone lose many cards."""

    def found_by(detector: Detector) -> int:
        hits = 0
        for seed in range(5):
            scene = render_scene(
                "standard-52", 8, 800_000 + seed, (1280, 720), split="heldout", overlap=False, table=family
            )
            dets = detector.detect(scene.image)
            hits += sum(max((polygon_iou(d.corners, c.corners) for d in dets), default=0) > 0.7 for c in scene.cards)
        return hits

    with_model, cues_alone = found_by(Detector()), found_by(Detector(DetectorConfig(outline_model=False)))
    assert with_model >= cues_alone + 4 and with_model >= 0.6 * 40


@needs_model
@pytest.mark.parametrize("use", [True, False])
def test_the_vision_setting_switches_the_model(use: bool) -> None:
    """``[vision] outline_model = false`` in the configuration: the hand-set cues alone (faster on
    a plain dark table)."""
    from kiosk.config import VisionSettings
    from kiosk.runtime import VisionLink

    link = VisionLink("virtual", (640, 360), "standard-52", VisionSettings(outline_model=use), 15.0)
    detector = link.worker.pipeline.detector
    assert (detector.outline is not None) is use
    link.set_deck("affiche-belge")  # a game on another deck: the model is not loaded again
    assert link.worker.pipeline.detector is detector


@needs_model
def test_model_threads_change_the_speed_not_the_answer() -> None:
    """``[vision] model_threads`` (a Pi 4 has cores to spare): the kiosk's pipeline runs its
    models on that many threads and finds and names a frame's cards exactly as on one."""
    from kiosk.config import VisionSettings
    from kiosk.runtime import VisionLink
    from kiosk.vision.identify import Identifier
    from kiosk.vision.naming import look

    scene = render_scene("standard-52", 8, 900_007, (1280, 720), split="heldout", overlap=False)
    answers = []
    for threads in (1, 2):
        link = VisionLink("virtual", (1280, 720), "standard-52", VisionSettings(model_threads=threads), 15.0)
        detector, identifier = link.worker.pipeline.detector, link.worker.pipeline.identifier
        assert isinstance(identifier, Identifier) and identifier._pips and identifier._members and detector.outline
        models = [detector.outline._model, *identifier._members.models, identifier._pips._model]
        assert [m.num_threads for m in models] == [threads] * 4
        named = look(identifier, detector, scene.image).named
        answers.append([(a.card_id, round(a.confidence, 6), d.corners.round(3).tolist()) for d, a in named])
    assert answers[0] == answers[1]
    assert sorted(card for card, _, _ in answers[0] if card) == sorted(c.card_id for c in scene.cards)
    # a pipeline built without a detector gives the one it builds the same threads
    from kiosk.vision.pipeline import VisionPipeline

    outline = VisionPipeline.for_deck("standard-52", model_threads=2).detector.outline
    assert outline is not None and outline._model.num_threads == 2


@settings(max_examples=40, deadline=None)
@given(x=st.integers(0, 101), y=st.integers(0, 61))
def test_two_cards_joined_by_a_bridge_are_parted_wherever_they_lie(x: int, y: int) -> None:
    """Two cards the model merged through a thin bridge (neighbours on a white cloth) are
    parted (`cues._split_regions`, which works round the regions only): each part is its card,
    in the frame's pixels, wherever the pair lies, against the frame's edge or not."""
    mask = np.zeros((120, 200), np.uint8)
    left, right = (x, y, x + 40, y + 58), (x + 58, y, x + 98, y + 58)
    for x0, y0, x1, y1 in (left, right):
        mask[y0 : y1 + 1, x0 : x1 + 1] = 255
    mask[y + 28 : y + 31, x + 41 : x + 58] = 255  # the bridge
    regions = list(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0])
    assert len(regions) == 1
    parts = sorted(cv2.boundingRect(c) for c in _split_regions(mask, regions, 500.0))
    assert len(parts) == 2
    for (px, py, pw, ph), (x0, y0, x1, y1) in zip(parts, (left, right), strict=True):
        assert max(abs(px - x0), abs(py - y0), abs(px + pw - 1 - x1), abs(py + ph - 1 - y1)) <= 1
