"""The glyph reader's training data (kiosk/vision/train/glyphs.py): random printings whose glyphs
are located by the kiosk's own find_index and labelled from the drawn glyphs' pixels. Training
itself is not run here."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kiosk.cli import main
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.glyph_reader import GLYPH_SIDE, NONE, RANK_LABELS, SUIT_LABELS, glyph_input
from kiosk.vision.params import PARAMS
from kiosk.vision.train.glyphs import FAR, face_samples, generate, label, printed_face

CORNER = round(PARAMS.glyphs.corner[0] * FACE_SIZE[0]), round(PARAMS.glyphs.corner[1] * FACE_SIZE[1])


@pytest.fixture(autouse=True)
def _bundled_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIOSK_TRAIN_FONTS", "bundled")


def test_generated_patches_and_labels_have_the_networks_shapes_and_ranges() -> None:
    x, y = generate(12, seed=3, workers=1)
    assert x.shape[1:] == (GLYPH_SIDE, GLYPH_SIDE, 1) and x.dtype == np.float32
    assert y.shape == (len(x), 2) and len(x) >= 12  # 0 to 6 glyphs a face
    assert 0.0 <= x.min() and x.max() <= 1.0
    assert set(y[:, 0]) <= {FAR, *range(len(RANK_LABELS))} and set(y[:, 1]) <= {FAR, *range(len(SUIT_LABELS))}
    assert not ((y[:, 0] == FAR) & (y[:, 1] == FAR)).any()  # a patch teaches at least one head
    again, _ = generate(12, seed=3, workers=2)
    assert np.array_equal(x, again)  # a seed is the data, whatever the workers


def test_some_located_ranks_and_suits_are_labelled_as_themselves() -> None:
    rows = [s for k in range(30) for s in face_samples(np.random.default_rng([7, k]))]
    ranks = {RANK_LABELS[r] for _, r, _ in rows if r != FAR}
    suits = {SUIT_LABELS[s] for _, _, s in rows if s != FAR}
    assert len(ranks - {NONE}) >= 6 and NONE in ranks
    assert len(suits - {NONE}) == 4 and NONE in suits


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(["A", "7", "10", "Q"]), st.sampled_from(["C", "D", "H", "S"]))
def test_a_printed_index_lies_in_both_corner_regions_and_is_labelled_by_its_pixels(
    seed: int, rank: str, suit: str
) -> None:
    face, rank_m, suit_m = printed_face(np.random.default_rng(seed), rank, suit)
    assert face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3) and rank_m.shape == face.shape[:2]
    w, h = CORNER
    top = rank_m[:h, :w] > 127
    # a hairline rank thinned or bent below the ink level (about 1.5 % of prints) labels no box
    assume(top.any())
    assert np.array_equal(top, rank_m[::-1, ::-1][:h, :w] > 127)  # the same index turned in the other corner
    ys, xs = np.nonzero(top)
    box = int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)
    got_rank, got_suit = label(box, rank_m[:h, :w], suit_m[:h, :w], rank, suit)
    assert RANK_LABELS[got_rank] == rank
    if not (suit_m[:h, :w] > 127)[box[1] : box[1] + box[3], box[0] : box[0] + box[2]].any():
        assert SUIT_LABELS[got_suit] == NONE  # no suit ink in the rank's box
    far = (w - 6, h - 6, 4, 4)  # a box off the index: none for both heads unless a glyph reaches there
    if not (rank_m[:h, :w][h - 6 : h - 2, w - 6 : w - 2] > 127).any():
        assert RANK_LABELS[label(far, rank_m[:h, :w], suit_m[:h, :w], rank, suit)[0]] == NONE


def test_a_box_holding_part_of_a_glyph_teaches_that_head_nothing() -> None:
    rank_m = np.zeros((40, 40), np.uint8)
    rank_m[5:25, 5:15] = 255
    suit_m = np.zeros_like(rank_m)
    assert label((5, 5, 10, 10), rank_m, suit_m, "7", "S") == (FAR, SUIT_LABELS.index(NONE))
    assert label((5, 5, 10, 20), rank_m, suit_m, "7", "S") == (RANK_LABELS.index("7"), SUIT_LABELS.index(NONE))


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 30), st.integers(4, 30), st.floats(0.2, 1.0))
def test_a_glyph_patch_is_the_same_whatever_its_ink_level(w: int, h: int, level: float) -> None:
    """The reader's input is scaled to the patch's darkest ink: faint and dark print read alike."""
    ink = np.zeros((60, 60), np.float32)
    ink[10 : 10 + h, 12 : 12 + w] = 1.0
    full, faint = glyph_input(ink, (12, 10, w, h)), glyph_input(ink * level, (12, 10, w, h))
    assert full.shape == (GLYPH_SIDE, GLYPH_SIDE, 1)
    assert np.allclose(full, faint, atol=1e-5)
    assert not glyph_input(ink, None).any()


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "--glyphs", "--faces", "0"],
        ["train", "--glyphs", "--per-class", "10"],  # the glyph model counts faces, not classes
        ["train", "--outline", "--faces", "10"],
    ],
)
def test_train_glyphs_rejects_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "--" in capsys.readouterr().err  # the message names the option
