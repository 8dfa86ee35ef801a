"""Identification of rendered faces with the shipped models: the right card, only the active
deck's cards, None for clutter and for malformed input, both ways up."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from kiosk.decks import load_deck
from kiosk.errors import KioskError
from kiosk.render.faces import face_styles, render_face
from kiosk.vision import index_reader, members
from kiosk.vision.face import FACE_SIZE, index_crops
from kiosk.vision.identify import Identifier
from kiosk.vision.index_reader import _vouched_for, both_corners, shifted_crops, widened_crops, zoomed_crops
from kiosk.vision.members import Members, deck_answer, default_models_dir
from kiosk.vision.model_input import _levels, _resized, prepare
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import Identification, decide
from kiosk.vision.train.dataset import index_sample
from kiosk.vision.train.negatives import synth_negative


@cache
def identifier(deck_id: str) -> Identifier:
    return Identifier(deck_id)


def face(card_id: str, deck_id: str = "standard-52", style: str | None = None) -> np.ndarray:
    card = load_deck(deck_id)[card_id]
    return cv2.cvtColor(np.asarray(render_face(card, style, FACE_SIZE[0])), cv2.COLOR_RGB2BGR)


def upside_down(img: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(img[::-1, ::-1])


def test_models_are_shipped_with_labels() -> None:
    models = default_models_dir()
    for name in ("index", "kakkerlakken-64"):
        assert (models / f"{name}.tflite").stat().st_size < 3_000_000
        assert "none" in (models / f"{name}.labels.txt").read_text().split()


@pytest.mark.parametrize("style", face_styles("standard-52"))
def test_every_standard_face_is_named_in_every_look(style: str) -> None:
    deck = load_deck("standard-52")
    faces = [face(c.id, style=style) for c in deck]
    answers = identifier("standard-52").identify(faces)
    assert [a.card_id for a in answers] == list(deck.ids)
    assert all(a.margin > 0.3 for a in answers)


def test_upside_down_faces_are_named() -> None:
    ids = ["AS", "10H", "QC", "7D", "KH", "2S", "JD", "9C"]
    answers = identifier("standard-52").identify([upside_down(face(i, style="modern")) for i in ids])
    assert [a.card_id for a in answers] == ids


def test_a_card_outside_the_active_deck_is_refused() -> None:
    # piquet-32 has 7..A only: a 2 or a 5 cannot be a piquet card, a 7 can.
    answers = identifier("piquet-32").identify([face("2H"), face("5S"), face("7C")])
    assert [a.card_id for a in answers] == [None, None, "7C"]


def test_affiche_belge_posters_are_named_by_their_index() -> None:
    deck = load_deck("affiche-belge")
    ids = ["2H", "10S", "3C", "KC", "KS", "JS", "AD", "JK2", "JK1"]
    answers = identifier("affiche-belge").identify([face(i, "affiche-belge") for i in ids])
    # The two Manneken-Pis share their corner index and are told apart by their posters.
    assert [a.card_id for a in answers] == ids
    assert all(i in deck for i in ids)


def test_grey_posters_are_named_by_the_suit_they_show() -> None:
    """Through a washed-out camera (dim light, a tired sensor) the kiosk's own deck must still
    stamp the card shown: its posters have no pips to check a suit by, so the index model must
    tell suits by shape (the model trained in colour only named 24 of these 52 grey cards
    wrongly or not at all: every diamond a spade)."""
    cards = [c for c in load_deck("affiche-belge") if c.suit]
    grey = [
        cv2.cvtColor(cv2.cvtColor(face(c.id, "affiche-belge"), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR) for c in cards
    ]
    assert [a.card_id for a in identifier("affiche-belge").identify(grey)] == [c.id for c in cards]


def test_clutter_is_not_a_card() -> None:
    rng = np.random.default_rng(42)
    clutter = [cv2.cvtColor(synth_negative(rng), cv2.COLOR_RGB2BGR) for _ in range(40)]
    clutter.append(np.full((FACE_SIZE[1], FACE_SIZE[0], 3), 255, np.uint8))  # blank paper
    answers = identifier("standard-52").identify(clutter)
    assert sum(a.card_id is not None for a in answers) <= 1


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((1, 1, 3), np.uint8),
        np.full((280, 200, 3), 128, np.uint8),
        np.zeros((280, 200), np.float64),
        np.ones((280, 200, 4), np.uint16) * 999,
        np.zeros((3,), np.uint8),
    ],
)
def test_malformed_faces_give_none_and_never_raise(bad: np.ndarray) -> None:
    for deck_id in ("standard-52", "kakkerlakken-64"):
        (answer,) = identifier(deck_id).identify([bad])
        assert answer.card_id is None


def test_answers_do_not_depend_on_the_batch() -> None:
    ids = ["AS", "10H", "QC", "7D", "KH"]
    faces = [face(i, style="bold") for i in ids]
    one_by_one = [identifier("standard-52").identify([f])[0] for f in faces]
    batch = identifier("standard-52").identify(faces)
    assert [a.card_id for a in one_by_one] == [a.card_id for a in batch] == ids
    assert all(abs(a.confidence - b.confidence) < 1e-4 for a, b in zip(one_by_one, batch, strict=True))


def test_identify_index_reads_single_corner_crops() -> None:
    tl, br = index_crops(upside_down(face("QH", style="classic")))
    answers = identifier("standard-52").identify_index([tl, br])
    assert [a.card_id for a in answers] == ["QH", "QH"]
    assert identifier("kakkerlakken-64").identify_index([tl])[0].card_id is None


def test_a_shifted_crop_moves_its_content_and_keeps_its_size() -> None:
    crop = np.full((90, 44, 3), 255, np.uint8)
    crop[40:50, 20:24] = 0
    for (dx, dy), moved in zip(PARAMS.read.shifts, shifted_crops(crop), strict=True):
        assert moved.shape == crop.shape
        ys, xs = np.nonzero(moved[:, :, 0] < 128)
        assert xs.mean() == pytest.approx(21.5 - dx * 44, abs=0.6)
        assert ys.mean() == pytest.approx(44.5 - dy * 90, abs=0.6)
        assert moved.min() == 0 and moved.max() == 255  # edges repeated, no black border


@pytest.mark.parametrize(
    "variants, scales",
    [
        (zoomed_crops, [(z, z) for z in PARAMS.read.zooms]),  # the outline a little off the card's size
        (widened_crops, [(w, 1.0) for w in PARAMS.read.widenings]),  # an index narrower than the model learnt
    ],
)
def test_a_zoomed_or_widened_crop_scales_its_content_from_the_cards_corner(
    variants: Callable[[np.ndarray], list[np.ndarray]], scales: list[tuple[float, float]]
) -> None:
    crop = np.full((90, 44, 3), 255, np.uint8)
    crop[40:50, 10:14] = 0
    for (sx, sy), moved in zip(scales, variants(crop), strict=True):
        assert moved.shape == crop.shape
        ys, xs = np.nonzero(moved[:, :, 0] < 128)
        assert xs.mean() == pytest.approx(11.5 * sx, abs=0.6)  # toward the corner and back
        assert ys.mean() == pytest.approx(44.5 * sy, abs=0.6)
        assert (xs.max() - xs.min() + 1) == pytest.approx(4 * sx, abs=1.01)
        assert moved.min() == 0 and moved.max() == 255  # edges repeated, no black border


def test_an_index_narrower_than_the_model_learnt_is_named_once_widened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Corners whose index is condensed to 0.6x (pp2021's brand prints its queen 0.30 as wide as
    tall): the widened readings name more of them, and no more wrongly, than a last stage that
    reads the crop as it is (one width of 1.0)."""
    ident = identifier("standard-52")
    rng = np.random.default_rng(7)
    labels = [lab for lab in ("QH", "QS", "9C", "10D", "KH", "JS") for _ in range(10)]
    squeeze = np.array([[0.6, 0, 0], [0, 1, 0]], np.float32)  # toward the card's edge, at the left
    crops = [
        cv2.warpAffine(crop, squeeze, crop.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)
        for crop in (index_sample(rng, lab) for lab in labels)
    ]

    def tally() -> tuple[int, int]:
        answers = [a.card_id for a in ident.identify_index(crops)]
        return (
            sum(a == lab for a, lab in zip(answers, labels, strict=True)),
            sum(a not in (None, lab) for a, lab in zip(answers, labels, strict=True)),
        )

    right, wrong = tally()
    monkeypatch.setattr(index_reader, "PARAMS", replace(PARAMS, read=replace(PARAMS.read, widenings=(1.0,))))
    right_as_is, wrong_as_is = tally()
    assert right > right_as_is and wrong <= wrong_as_is


def test_an_unsure_corner_is_answered_from_its_shifted_readings_a_refused_one_zoomed_then_widened() -> None:
    ident = identifier("standard-52")
    rng = np.random.default_rng(4)
    crops = [index_sample(rng, lab) for lab in ("9S", "QH", "10D", "6C", "8H", "3S") for _ in range(6)]
    alone, _ = ident.scores(crops)
    answers = ident.identify_index(crops)
    unsure = refused = widened_too = 0
    for crop, probs, answer in zip(crops, alone, answers, strict=True):
        first = decide(probs, ident._members.answers, PARAMS.read.min_confidence, PARAMS.read.min_margin)
        if (first.card_id is not None and first.confidence >= PARAMS.read.sure) or probs[
            ident._members.none
        ] >= PARAMS.read.sure_none:
            assert answer == first
            continue
        unsure += 1
        total = probs + ident.scores(shifted_crops(crop))[0].sum(axis=0)
        shifted = decide(
            total / (1 + len(PARAMS.read.shifts)),
            ident._members.answers,
            PARAMS.read.min_confidence,
            PARAMS.read.min_margin,
        )
        if shifted.card_id is not None:
            assert answer.card_id == shifted.card_id
            continue
        refused += 1  # still refused: the zoomed readings join the mean
        total += ident.scores(zoomed_crops(crop))[0].sum(axis=0)
        zoomed = decide(
            total / (1 + len(PARAMS.read.shifts) + len(PARAMS.read.zooms)),
            ident._members.answers,
            PARAMS.read.min_confidence,
            PARAMS.read.min_margin,
        )
        if zoomed.card_id is not None:
            assert (answer.card_id, answer.runner_up) == (zoomed.card_id, zoomed.runner_up)
            continue
        widened_too += 1  # refused still: the widened readings join it last, if they name it
        total += ident.scores(widened_crops(crop))[0].sum(axis=0)
        widened = decide(
            total / (1 + len(PARAMS.read.shifts) + len(PARAMS.read.zooms) + len(PARAMS.read.widenings)),
            ident._members.answers,
            PARAMS.read.min_confidence,
            PARAMS.read.min_margin,
        )
        last = widened if widened.card_id is not None else zoomed
        assert (answer.card_id, answer.runner_up, answer.guess) == (last.card_id, last.runner_up, last.guess)
    assert 0 < unsure < len(crops)
    assert 0 < refused < unsure
    assert 0 < widened_too <= refused


def test_a_corner_surely_showing_no_card_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clutter is most of a busy table's outlines: reading it four more times tripled the
    naming time of cluttered photos (edje-tfod test: mean 7.7 -> 23.0 ms) for no answer."""
    ident = identifier("standard-52")
    clutter = [synth_negative(np.random.default_rng(seed)) for seed in range(12)]
    alone, _ = ident.scores(clutter)
    sure_none = [c for c, p in zip(clutter, alone, strict=True) if p[ident._members.none] >= PARAMS.read.sure_none]
    assert sure_none
    calls: list[int] = []
    real = Members.scores
    monkeypatch.setattr(Members, "scores", lambda self, images: calls.append(len(images)) or real(self, images))
    assert [a.card_id for a in ident.identify_index(sure_none)] == [None] * len(sure_none)
    assert calls == [len(sure_none)]  # one reading, none again


def test_a_corner_is_not_read_again_when_the_cards_other_corner_is_sure_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The surer of a card's two corners answers (``both_corners``), so an unsure corner beside a
    PARAMS.read.sure one naming the same card or nothing could only turn the card into a contradiction;
    reading it four more times was 10 of a pile frame's 82 corner crops."""
    ident = identifier("standard-52")
    rng = np.random.default_rng(7)
    crops = [index_sample(rng, "KH") for _ in range(40)]
    probs = ident.scores(crops)[0]
    firsts = [decide(p, ident._members.answers, PARAMS.read.min_confidence, PARAMS.read.min_margin) for p in probs]
    sure = next(c for c, a in zip(crops, firsts, strict=True) if a.card_id == "KH" and a.confidence >= PARAMS.read.sure)
    unsure = [
        c
        for c, a, p in zip(crops, firsts, probs, strict=True)
        if a.card_id in (None, "KH")
        and a.confidence < PARAMS.read.sure
        and p[ident._members.none] < PARAMS.read.sure_none
    ]
    assert unsure
    calls: list[int] = []  # crops per reading
    real = index_reader.prepare
    for module in (index_reader, members):  # the first reading, and those again
        monkeypatch.setattr(module, "prepare", lambda images, size: calls.append(len(images)) or real(images, size))
    answers = ident._reader.primary._read_corners([(sure, c) for c in unsure], lambda j: None)
    assert calls == [2 * len(unsure)]  # one reading each, none again
    assert all(both_corners(a, b).card_id == "KH" for a, b in answers)
    calls.clear()
    ident._reader.primary._read_corners([(unsure[0], unsure[0])], lambda j: None)  # neither sure: both read again
    assert calls == [2, 2 * len(PARAMS.read.shifts)]


def test_a_card_the_first_member_reads_surely_at_both_corners_is_not_read_by_the_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The second index member reads only the cards the first is not PARAMS.read.first_alone sure of at both
    corners, and those it reads as it would in the whole batch (the members' mean)."""
    ident = identifier("standard-52")
    rng = np.random.default_rng(3)
    crops = [index_sample(rng, card) for card in ("KH", "KH", "7C", "7C", "QS", "QS") for _ in range(6)]
    first = ident._members.class_probs(ident._members.models[0].run(prepare(crops, ident.input_size)))
    sure = [
        i
        for i in range(0, len(crops), 2)
        if first[i].argmax() == first[i + 1].argmax() != ident._members.none
        and first[i : i + 2].max(axis=1).min() >= PARAMS.read.first_alone
    ]
    assert sure and len(sure) < len(crops) // 2  # some cards each way
    rows: list[int] = []
    second = ident._members.models[1]
    real = second.run
    monkeypatch.setattr(second, "run", lambda batch: rows.append(len(batch)) or real(batch))
    probs = ident._reader.primary._pair_scores(crops)
    assert rows == [len(crops) - 2 * len(sure)]
    both = ident.scores(crops)[0]
    alone = {k for i in sure for k in (i, i + 1)}
    for k in range(len(crops)):
        assert np.array_equal(probs[k], first[k] if k in alone else both[k])


def test_a_sure_corner_vouches_only_for_its_own_card_or_none() -> None:
    sure = Identification("KH", 0.995, "KD", 0.99)
    assert _vouched_for(Identification("KH", 0.7, "QH", 0.4), sure)
    assert _vouched_for(Identification(None, 0.5, "KH", 0.1), sure)
    assert not _vouched_for(Identification("QH", 0.7, "KH", 0.4), sure)  # a dispute is read again
    assert not _vouched_for(Identification("KH", 0.7, "QH", 0.4), Identification("KH", 0.98, "KD", 0.9))


def test_cockroach_poker_answers_the_species_for_all_64_cards() -> None:
    deck = load_deck("kakkerlakken-64")
    faces = [face(c.id, deck.id) for c in deck]
    faces[::2] = [upside_down(f) for f in faces[::2]]
    answers = identifier(deck.id).identify(faces)
    assert [a.card_id for a in answers] == [c.species for c in deck]


def test_every_math_card_is_named_by_its_text_either_way_up() -> None:
    deck = load_deck("math-pairs")
    faces = [face(c.id, deck.id) for c in deck]
    faces[1::2] = [upside_down(f) for f in faces[1::2]]
    answers = identifier(deck.id).identify(faces)
    assert [a.card_id for a in answers] == list(deck.ids)
    assert all(a.margin >= 0.3 and a.confidence >= 0.6 for a in answers)  # the tracker's bar


@pytest.mark.parametrize("card_id", ["6", "9", "18", "81", "8x6", "9x8", "6x6", "9x9"])
def test_a_math_card_that_reads_as_another_upside_down_is_told_by_its_underline(card_id: str) -> None:
    answer = identifier("math-pairs").identify([upside_down(face(card_id, "math-pairs"))])[0]
    assert answer.card_id == card_id


def test_clutter_and_standard_cards_are_not_math_cards() -> None:
    rng = np.random.default_rng(3)
    clutter = [
        rng.integers(0, 256, (280, 200, 3), dtype=np.uint8),
        np.full((280, 200, 3), 230, np.uint8),
        np.zeros((5, 5, 3), np.uint8),
    ]
    answers = identifier("math-pairs").identify([face("AS"), face("10H"), face("KC"), *clutter])
    assert [a.card_id for a in answers] == [None] * 6


def test_a_standard_card_during_cockroach_poker_is_not_an_animal() -> None:
    answers = identifier("kakkerlakken-64").identify([face("AS"), face("10H"), face("KC")])
    assert [a.card_id for a in answers] == [None, None, None]


def test_deck_answer_maps_labels_to_the_active_deck() -> None:
    assert deck_answer(load_deck("piquet-32"), "2H") is None
    assert deck_answer(load_deck("piquet-32"), "AH") == "AH"
    assert deck_answer(load_deck("standard-52"), "JK") is None
    assert deck_answer(load_deck("affiche-belge"), "JK") == "JK1"
    assert deck_answer(load_deck("kakkerlakken-64"), "rat") == "rat"
    assert deck_answer(load_deck("standard-52"), "none") is None


def test_decide_refuses_a_small_margin_and_skips_disallowed_classes() -> None:
    answers = ["AS", "2S", None, None]
    unsure = decide(np.array([0.5, 0.45, 0.05, 0.0]), answers, 0.6, 0.3)
    assert (unsure.card_id, unsure.guess) == (None, "AS")  # refused, its lean kept for the pips
    sure = decide(np.array([0.05, 0.9, 0.05, 0.0]), answers, 0.6, 0.3)
    assert sure == Identification("2S", pytest.approx(0.9), "AS", pytest.approx(0.85), "2S")
    # The disallowed class wins the softmax: the best allowed answer is too weak to name.
    assert decide(np.array([0.1, 0.0, 0.9, 0.0]), answers, 0.6, 0.3).card_id is None


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(
        dtype=st.sampled_from([np.uint8, np.float32, np.int16]),
        shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=40),
    )
)
def test_prepare_accepts_any_array_and_stays_finite(arr: np.ndarray) -> None:
    out = prepare([arr], (32, 64))
    assert out.shape == (1, 64, 32, 3)
    assert np.isfinite(out).all()


def test_the_surer_corner_answers_and_contradicting_corners_are_refused() -> None:
    named = Identification("QS", 0.95, "QC", 0.9)
    covered = Identification(None, 0.2, "9S", 0.05)
    assert both_corners(covered, named) == named
    assert both_corners(named, Identification("QS", 0.7, "QC", 0.5)) == named
    conflict = both_corners(named, Identification("9H", 0.8, "6H", 0.7))
    assert conflict.card_id is None and conflict.margin == 0.0 and conflict.runner_up == "9H"


def test_a_corner_leaning_to_another_suit_of_the_rank_contradicts_the_other() -> None:
    """Held-out 900232: an ace of clubs read AS at 0.85 by one corner, and refused at the other,
    which leaned 0.55 to AC. Leaning to another rank, or less, is a covered or glared corner."""
    named = Identification("AS", 0.85, "AC", 0.7, "AS")
    leaning = Identification(None, 0.55, "AS", 0.4, "AC")
    for a, b in ((named, leaning), (leaning, named)):
        answer = both_corners(a, b)
        assert answer.card_id is None and answer.margin == 0.0 and answer.runner_up == "AC"
    assert both_corners(named, replace(leaning, confidence=0.45)) == named
    assert both_corners(named, replace(leaning, guess="4S")) == named
    assert both_corners(named, replace(leaning, guess="AS")) == named


def test_an_answer_says_how_many_of_its_corners_read_it() -> None:
    """A whole face shows both indices; one under a covering patch shows one (what naming asks
    of a card outlined by its print's symmetry), and which one it is; faces of a face deck are
    read whole."""
    ids = ["AS", "10H", "QC", "7D"]
    whole = [face(i, style="modern") for i in ids]
    covered = [f.copy() for f in whole]
    for f in covered:
        h, w = f.shape[:2]
        f[h // 2 :, w // 2 :] = 255  # the bottom-right index under white paper
    answers = identifier("standard-52").identify(whole + covered)
    assert [a.card_id for a in answers] == ids + ids
    assert [a.corners for a in answers] == [2] * 4 + [1] * 4
    assert [a.read_by for a in answers] == [(True, True)] * 4 + [(True, False)] * 4
    assert identifier("kakkerlakken-64").identify([whole[0]])[0].corners is None


def test_a_text_deck_has_no_model_scores_to_ask_for() -> None:
    with pytest.raises(KioskError, match="printed text"):
        identifier("math-pairs").scores([face("7x8", "math-pairs")])


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.uint8, st.tuples(st.integers(1, 4), st.integers(1, 9), st.integers(1, 9), st.just(3))))
def test_levels_are_numpys(images: np.ndarray) -> None:
    """The histogram medians that :func:`prepare` subtracts are np.median's, ties and all, and
    the spread it divides by is np.std's."""
    medians, spread = _levels(images)
    assert np.array_equal(medians, np.median(images.reshape(len(images), -1, 3), axis=1))
    assert np.allclose(spread, images.reshape(len(images), -1).std(axis=1), rtol=1e-9, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from([(89, 44), (89, 44), (128, 64), (100, 50), (60, 30), (70, 20)]), min_size=1, max_size=8),
    st.sampled_from([(32, 64), (64, 90)]),
    st.integers(0, 2**32 - 1),
)
def test_images_shrunk_together_get_the_pixels_they_get_alone(
    shapes: list[tuple[int, int]], size: tuple[int, int], seed: int
) -> None:
    """:func:`prepare`'s crops of one shape are shrunk in one call; each gets the pixels it gets
    shrunk alone (larger or smaller than the model's input, either input height)."""
    rng = np.random.default_rng(seed)
    images = [rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for h, w in shapes]
    alone = [cv2.resize(img, size, interpolation=cv2.INTER_AREA) for img in images]
    assert np.array_equal(_resized(images, size), np.stack(alone))
