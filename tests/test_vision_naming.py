"""Naming detected cards: the outlines non-maximum suppression sets aside are kept as
alternates, and a card whose winning outline cannot be read is named from the first alternate
that can, never from one lying on another card, and never renamed when it reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
import pytest
from conftest import on_stripes, picture_frame, shifted_along

from kiosk.decks import load_deck
from kiosk.render.compositing import composite_card, face_bgra
from kiosk.render.scenes import card_quad
from kiosk.vision import card_fit, card_shaped
from kiosk.vision.candidate import Candidate
from kiosk.vision.detect import Detection, Detector, DetectorConfig
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.look_rules import at_a_named_corner
from kiosk.vision.naming import name_cards
from kiosk.vision.params import PARAMS, Search
from kiosk.vision.reading import Identification
from kiosk.vision.select import suppress
from kiosk.vision.shapes import fan_ends, fan_slices, frame_card

DETECTOR = Detector(DetectorConfig(outline_model=False))


class ByPaper:
    """Names a face "AS" with ``confidence``, read by ``corners`` of its corners (the top-left
    first), when it is mostly white paper (a card's face), else refuses it; counts the faces it
    was shown."""

    def __init__(self, confidence: float = 0.97, corners: int | None = None) -> None:
        self.calls: list[int] = []
        self.looked: list[np.ndarray] = []
        self.confidence = confidence
        self.read_by = None if corners is None else (corners >= 1, corners >= 2)

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        self.calls.append(len(cards))
        self.looked += [c.corners for c in cards]
        return [
            Identification("AS", self.confidence, "AC", self.confidence - 0.1, read_by=self.read_by)
            if c.face.mean() > 180
            else Identification(None, 0.2, None, 0.0)
            for c in cards
        ]


class ByRim:
    """Names a face "AS" when the rim along each of its four sides is paper: an outline off its
    card shows table along one side (as a misplaced outline cuts an index crop short)."""

    def __init__(self) -> None:
        self.looked: list[np.ndarray] = []

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        out = []
        for c in cards:
            self.looked.append(c.corners)
            face = c.face
            rims = (face[:8], face[-8:], face[:, :8], face[:, -8:])
            out.append(
                Identification("AS", 0.97, "AC", 0.9)
                if min(r.mean() for r in rims) > 180
                else Identification(None, 0.2, None, 0.0)
            )
        return out


@pytest.fixture
def scene() -> tuple[np.ndarray, np.ndarray]:
    """A dark table with the ace of spades at a known quad."""
    img = np.full((360, 640, 3), 50, np.uint8)
    quad = card_quad((420, 180), 110, 0.2)
    composite_card(img, face_bgra(load_deck("standard-52")["AS"], None, 160), quad)
    return img, quad


def detection(img: np.ndarray, corners: np.ndarray, *alternates: np.ndarray) -> Detection:
    return Detection(corners, img, 1.0, False, tuple(alternates))


def test_nms_keeps_what_it_sets_aside_as_alternates_best_first() -> None:
    card = card_quad((300, 200), 80, 0.0)
    shifted, other, same = card + (25, 10), card + (12, -30), card + (1, 0.5)
    far = card_quad((700, 200), 80, 0.0)
    kept = suppress(
        [
            Candidate(card, 0.9),
            Candidate(shifted, 0.7, True),
            Candidate(other, 0.8, True),
            Candidate(same, 0.85),
            Candidate(far, 0.6),
        ],
        0.45,
    )
    assert len(kept) == 2
    quad, alternates, none = kept[0].quad, kept[0].alternates, kept[1].alternates
    assert quad is card and not none
    # the near-identical outline (IoU above SAME_OUTLINE) would read the same: not worth a look
    assert [a is other for a in alternates] == [True, False] and alternates[1] is shifted
    assert polygon_iou(card, shifted) < 0.85


def test_a_card_replacing_its_picture_frame_keeps_the_frame_as_an_alternate() -> None:
    """A court card's picture frame (card-shaped, in the middle of the card) is replaced by the
    card round it; the frame stays as an alternate, in case the card's outline was wrong."""
    card = card_quad((300, 200), 100, 0.1)
    frame = (card - card.mean(axis=0)) * 0.7 + card.mean(axis=0)
    ((quad, alternates),) = [
        (k.quad, k.alternates) for k in suppress([Candidate(frame, 0.9), Candidate(card, 0.6)], 0.45)
    ]
    assert quad is card and len(alternates) == 1 and alternates[0] is frame


def test_a_stretch_of_table_round_a_card_is_no_alternate() -> None:
    """A quad many times the winner's size (a region of table it lies on) names nothing the
    winner could be: it is not kept for a second look, a half-size one is."""
    card = card_quad((300, 200), 80, 0.0)
    big, half = card_quad((330, 210), 80 * 1.7, 0.0), card_quad((300, 220), 80 * 0.72, 0.0)
    (alternates,) = [
        k.alternates for k in suppress([Candidate(card, 0.9), Candidate(big, 0.5), Candidate(half, 0.4, True)], 0.45)
    ]
    assert len(alternates) == 1 and alternates[0] is half


def test_alternates_are_capped() -> None:
    card = card_quad((300, 200), 80, 0.0)
    cands = [Candidate(card, 0.9)] + [
        Candidate(card + (8 + 1.5 * k, 0), 0.5 - 0.01 * k, True) for k in range(PARAMS.select.max_alternates + 3)
    ]
    (alternates,) = [k.alternates for k in suppress(cands, 0.45)]
    assert len(alternates) == PARAMS.select.max_alternates


def test_a_refused_outline_is_named_from_its_first_readable_alternate(scene: tuple[np.ndarray, np.ndarray]) -> None:
    img, quad = scene
    on_table = card_quad((150, 180), 110, 0.2)  # beside the card: a face of table, refused
    ident = ByPaper()
    ((det, answer),) = name_cards(ident, DETECTOR, img, [detection(img, on_table, on_table + (5, 0), quad)])
    assert answer.card_id == "AS"
    assert polygon_iou(det.corners, quad) > 0.9  # the alternate, refined on the frame
    assert det.partial
    # one look at the winner, one batch: its alternates, fan ends, frame card, the windows across it
    assert ident.calls == [1, 5 + len(fan_slices(on_table))]


def test_alternates_past_the_first_are_read_after_every_other_look(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """An outline offers up to PARAMS.select.max_alternates alternates, the first PARAMS.looks.first_alternates read as
    ever and the rest only after its fan ends and picture frame (and before the windows across
    it): in a busy frame the looks run out before them, as they did before there were more
    (piles named the same); in a sparse one the card under another in a fan of two may be the
    ninth (edje-tfod's IMG_2628)."""
    img, quad = scene
    on_table = card_quad((150, 180), 110, 0.2)
    alternates = [on_table + (3 * j, 0) for j in range(1, PARAMS.looks.first_alternates + 1)] + [quad]
    ident = ByPaper()
    ((det, answer),) = name_cards(ident, DETECTOR, img, [detection(img, on_table, *alternates)])
    assert answer.card_id == "AS" and polygon_iou(det.corners, quad) > 0.9
    at = [
        next(i for i, c in enumerate(ident.looked) if polygon_iou(c, q) > 0.8)
        for q in (*fan_ends(on_table), frame_card(on_table), quad)
    ]
    assert at[3] == len(ident.looked) - 1 - len(fan_slices(on_table)) and max(at[:3]) < at[3]


def test_a_refused_outline_off_its_card_is_named_refitted(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """An outline a pip row off its card along its length (on a pale table, a side found on a
    row of pips or on the table) is beyond the reach of the usual refinement, and has no
    alternate: refitted to the edges within PARAMS.refit.reach of its short side, it is the card."""
    img, quad = scene
    off = shifted_along(quad, 0.8 * PARAMS.refit.reach)  # 0.12 of the short side: 13 px
    (plain,) = DETECTOR.look_again(img, [off])
    assert ByRim().identify_cards([plain])[0].card_id is None  # the usual refinement falls short
    ident = ByRim()
    ((det, answer),) = name_cards(ident, DETECTOR, img, [detection(img, off)])
    assert answer.card_id == "AS" and det.partial
    assert polygon_iou(det.corners, quad) > 0.95
    # the outline, then its refit, its two fan ends, the card round it, the windows across it
    assert len(ident.looked) == 5 + len(fan_slices(off))


def test_a_refit_comes_after_the_alternates(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """The outlines set aside at a place are read first (one that reads is a place the cues
    found whole), the refused outline refitted last."""
    img, quad = scene
    off = shifted_along(quad, 0.8 * PARAMS.refit.reach)
    on_table = card_quad((150, 180), 110, 0.2)
    ident = ByRim()
    ((det, answer),) = name_cards(ident, DETECTOR, img, [detection(img, off, on_table)])
    assert answer.card_id == "AS" and polygon_iou(det.corners, quad) > 0.95
    assert [polygon_iou(c, on_table) > 0.95 for c in ident.looked[:6]] == [False, True, False, False, False, False]
    assert polygon_iou(ident.looked[2], quad) > 0.95


def test_a_second_look_must_be_surer_than_a_first(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """An answer the identifier would give at first look (0.6 and more) is not enough from an
    alternate: each extra look is one more chance to name clutter."""
    img, quad = scene
    on_table = card_quad((150, 180), 110, 0.2)
    for confidence, named in ((PARAMS.looks.confidence - 0.05, None), (PARAMS.looks.confidence, "AS")):
        ((_, answer),) = name_cards(ByPaper(confidence), DETECTOR, img, [detection(img, on_table, quad)])
        assert answer.card_id == named


def test_a_completed_card_must_be_read_surely(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """A card completed from its visible corners is a guessed outline: on real photos most of
    those read below PARAMS.looks.completed_confidence named a card that was not there. A card seen whole
    keeps the identifier's own bar, and so does a completed card whose two corners read it
    (the completion reached its far index)."""
    img, quad = scene
    for confidence, partial, corners, named in (
        (PARAMS.looks.completed_confidence - 0.05, True, 1, None),
        (PARAMS.looks.completed_confidence, True, 1, "AS"),
        (PARAMS.looks.completed_confidence - 0.05, True, 2, "AS"),
        (PARAMS.looks.completed_confidence - 0.05, False, 1, "AS"),
    ):
        ((_, answer),) = name_cards(ByPaper(confidence, corners), DETECTOR, img, [Detection(quad, img, 0.9, partial)])
        assert answer.card_id == named
        assert answer.confidence == pytest.approx(confidence)


def test_a_readable_outline_is_never_replaced(scene: tuple[np.ndarray, np.ndarray]) -> None:
    img, quad = scene
    ident = ByPaper()
    ((det, answer),) = name_cards(ident, DETECTOR, img, [detection(img, quad, card_quad((150, 180), 110, 0.2))])
    assert answer.card_id == "AS" and det.corners is quad
    assert ident.calls == [1]  # no second look


def test_no_readable_alternate_leaves_the_refusal(scene: tuple[np.ndarray, np.ndarray]) -> None:
    img, _ = scene
    on_table = card_quad((150, 180), 110, 0.2)
    refused = detection(img, on_table, on_table + (20, 10))
    ((det, answer),) = name_cards(ByPaper(), DETECTOR, img, [refused])
    assert answer.card_id is None and det is refused


def test_an_alternate_on_another_card_is_not_taken(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """The card at the alternate's place is already a detection of its own: naming the
    alternate too would report one card twice."""
    img, quad = scene
    on_table = card_quad((150, 180), 110, 0.2)
    ident = ByPaper()
    out = name_cards(ident, DETECTOR, img, [detection(img, quad), detection(img, on_table, quad)])
    assert [a.card_id for _, a in out] == ["AS", None]
    # nor is that alternate read (its answer could not count), only the refused outline's fan ends,
    # the card round it and the windows across it
    assert ident.calls == [2, 3 + len(fan_slices(on_table))]
    assert all(polygon_iou(c, quad) < 0.5 for c in ident.looked[2:])


def test_an_alternate_may_lie_on_a_refused_outline(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """A refused outline over the card (say, half of it, unreadable) names nothing, so it does
    not stop another detection's alternate from naming the card."""
    img, quad = scene
    on_table = card_quad((150, 180), 110, 0.2)
    half = Detection(quad + 8, np.zeros_like(img), 0.5, True)  # read as nothing
    out = name_cards(ByPaper(), DETECTOR, img, [detection(img, on_table, quad), half])
    assert [a.card_id for _, a in out] == ["AS", None]


def test_two_refused_outlines_of_one_card_name_it_once(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """Two poor outlines of the same card (both refused) may each offer the card's true outline;
    the first to be named takes it, the second would report the card twice."""
    img, quad = scene
    left, right = card_quad((150, 180), 110, 0.2), card_quad((150, 300), 110, 0.2)
    out = name_cards(ByPaper(), DETECTOR, img, [detection(img, left, quad), detection(img, right, quad + 1)])
    assert [a.card_id for _, a in out] == ["AS", None]


def test_a_card_named_on_two_overlapping_outlines_is_named_once(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """A queen of clubs on stripes was completed twice, crosswise, from its picture frame, and
    both outlines read QC: the kiosk's decks hold each card once, so the better-scored outline
    keeps the name and the other is refused (listed, but not as a card)."""
    img, quad = scene
    turned = card_quad((420, 180), 110, 0.45)  # the same card, outlined crosswise
    better, worse = Detection(turned, img, 0.9, True), Detection(quad, img, 0.6, True)
    out = name_cards(ByPaper(), DETECTOR, img, [worse, better])
    assert [(d is worse, a.card_id) for d, a in out] == [(True, None), (False, "AS")]
    assert out[0][1].runner_up == "AS" and out[0][1].margin == 0.0


def test_one_name_on_outlines_apart_is_kept_twice(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """Two outlines apart named the same card: one is misread, but which cannot be told from
    the names, so both stay (the tracker's agreement over frames settles it)."""
    img, quad = scene
    left = card_quad((150, 180), 110, 0.2)
    img = img.copy()
    composite_card(img, face_bgra(load_deck("standard-52")["AS"], None, 160), left)
    out = name_cards(ByPaper(), DETECTOR, img, [detection(img, quad), detection(img, left)])
    assert [a.card_id for _, a in out] == ["AS", "AS"]


class ByOverlap:
    """Names "AS" an outline overlapping the card at ``quad`` (IoU over 0.5), read by both its
    corners where it is the card's own outline (IoU over 0.9) and by one elsewhere, as an
    outline lying across a card crops one of its indices."""

    def __init__(self, quad: np.ndarray) -> None:
        self.quad = quad

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        ious = [polygon_iou(c.corners, self.quad) for c in cards]
        return [
            Identification("AS", 0.97, "AC", 0.9, read_by=(True, iou > 0.9))
            if iou > 0.5
            else Identification(None, 0.2, None, 0.0, read_by=(False, False))
            for iou in ious
        ]


def test_a_second_look_read_by_both_corners_goes_first(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """Two refused outlines offer the same card: the first an outline lying across it, read by
    one corner, the second the card's own, read by both (held-out 900186's queen of clubs on
    stripes, named at IoU 0.61 while an alternate of another outline read it at 0.98). The one
    read by both corners names the card, and the loose one, on a card named, is turned away."""
    img, quad = scene
    length = quad[3] - quad[0]
    loose = quad + 0.2 * length  # slid a fifth of its length: IoU 0.67, one index in view
    assert 0.45 < polygon_iou(loose, quad) < 0.7
    first, second = card_quad((150, 100), 110, 0.2), card_quad((150, 280), 110, 0.2)
    out = name_cards(ByOverlap(quad), DETECTOR, img, [detection(img, first, loose), detection(img, second, quad)])
    assert [a.card_id for _, a in out] == [None, "AS"]
    assert out[1][1].corners == 2 and polygon_iou(out[1][0].corners, quad) > 0.9


def test_of_two_outlines_named_one_card_the_one_read_by_both_corners_keeps_it(
    scene: tuple[np.ndarray, np.ndarray],
) -> None:
    """An outline across the card, scored higher but read by one corner, and the card's own
    outline, read by both (held-out 900125's four of spades): the card's own keeps the name."""
    img, quad = scene
    loose = quad + 0.2 * (quad[3] - quad[0])
    across, own = Detection(loose, img, 0.9, True), Detection(quad, img, 0.6, True)
    out = name_cards(ByOverlap(quad), DETECTOR, img, [across, own])
    assert [(d is own, a.card_id) for d, a in out] == [(False, None), (True, "AS")]


class ByPlace:
    """Names a face of paper by where it lies (the queen of spades left of x = 300, of clubs
    right of it); refuses the rest."""

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        return [
            Identification("QS" if c.corners[:, 0].mean() < 300 else "QC", 0.97, None, 0.9)
            if c.face.mean() > 180
            else Identification(None, 0.2, None, 0.0)
            for c in cards
        ]


def test_a_refused_outline_over_two_fanned_cards_gives_both() -> None:
    """Two fanned cards whose top edges run on in one line were outlined as one landscape card
    across both, which reads as nothing (edje-tfod's IMG_2686); its alternates hold both cards,
    named apart: both are kept. An alternate on a card named already (IoU of one card) is not,
    whatever it reads as."""
    img = np.full((360, 640, 3), 50, np.uint8)
    left, right = card_quad((260, 180), 110, 0.1), card_quad((305, 180), 110, 0.15)
    for card_id, quad in (("QS", left), ("QC", right)):
        composite_card(img, face_bgra(load_deck("standard-52")[card_id], None, 160), quad)
    assert 0.3 < polygon_iou(left, right) < PARAMS.looks.one_card
    across = card_quad((450, 300), 110, 1.6)  # refused: it lies on the table
    nudged = right + (-12, 0)  # the right card outlined 12 px off, read as the left one
    assert polygon_iou(nudged, right) >= PARAMS.looks.one_card
    out = name_cards(ByPlace(), DETECTOR, img, [detection(img, across, right, nudged, left)])
    assert [a.card_id for _, a in out] == ["QC", "QS"]
    assert abs(out[1][0].corners[:, 0].mean() - left[:, 0].mean()) < 5  # the left card, not the nudged


class ByOutline:
    """Names a card only from an outline of it (IoU over 0.9), as a reader of its corners does."""

    def __init__(self, cards: dict[str, np.ndarray]) -> None:
        self.cards = cards
        self.looked: list[np.ndarray] = []

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        self.looked += [c.corners for c in cards]
        names = [next((k for k, q in self.cards.items() if polygon_iou(c.corners, q) > 0.9), None) for c in cards]
        return [Identification(n, 0.97, None, 0.9) if n else Identification(None, 0.2, None, 0.0) for n in names]


def test_a_refused_outline_over_a_fan_is_read_at_its_two_ends_last() -> None:
    """Fanned cards whose top and bottom edges run on in one line are outlined as one landscape
    card across them (edje-tfod's IMG_2649: a nine of hearts over two jacks), with no alternate
    at either card. The cards at the outline's two ends, its short sides taken as their long
    sides, are read after everything else it offers, and both are kept; so are those of an
    outline completed across the fan from its corners."""
    img = np.full((360, 640, 3), 50, np.uint8)
    left = card_quad((260, 180), 110, 0.1)
    right = left + 0.8 * (left[1] - left[0])  # the right card over the left one, 0.8 of it in view
    for card_id, quad in (("QS", left), ("QC", right)):
        composite_card(img, face_bgra(load_deck("standard-52")[card_id], None, 160), quad)
    across = np.array([left[0], right[1], right[2], left[3]], np.float32)
    ident = ByOutline({"QS": left, "QC": right})
    out = name_cards(ident, DETECTOR, img, [detection(img, across, across + (0, 40))])
    assert sorted(a.card_id for _, a in out) == ["QC", "QS"]
    assert [polygon_iou(c, across + (0, 40)) > 0.9 for c in ident.looked[:2]] == [False, True]
    # the outline, its alternate, its two ends, the card round it (no refit), the windows across it
    assert len(ident.looked) == 5 + len(fan_slices(across))
    completed = Detection(across, img, 1.0, True)
    assert sorted(a.card_id for _, a in name_cards(ident, DETECTOR, img, [completed])) == ["QC", "QS"]


class ByOutlineOneCorner(ByOutline):
    """:class:`ByOutline` reading each card by its top-left corner alone."""

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        return [replace(a, read_by=(True, False)) if a.card_id else a for a in super().identify_cards(cards)]


def test_a_fanned_card_is_named_by_an_index_lying_on_the_card_under_it() -> None:
    """A fan's top card shows its index over the card under it: read at the fan's end by that
    corner alone, it is named, though the index lies within the card named there already (looks
    of other kinds read there name nothing: their crop shows the other card)."""
    img = np.full((360, 640, 3), 50, np.uint8)
    left = card_quad((260, 180), 110, 0.1)
    right = left + 0.8 * (left[1] - left[0])
    for card_id, quad in (("QS", left), ("QC", right)):
        composite_card(img, face_bgra(load_deck("standard-52")[card_id], None, 160), quad)
    across = np.array([left[0], right[1], right[2], left[3]], np.float32)
    index = right[0] + 0.11 * (right[1] - right[0]) + 0.16 * (right[3] - right[0])
    assert cv2.pointPolygonTest(left, (float(index[0]), float(index[1])), False) > 0
    ident = ByOutlineOneCorner({"QS": left, "QC": right})
    out = name_cards(ident, DETECTOR, img, [detection(img, left), detection(img, across)])
    assert [a.card_id for _, a in out] == ["QS", "QC"]


class ByOutlineAt(ByOutline):
    """:class:`ByOutline` with each card's own confidence."""

    def __init__(self, cards: dict[str, np.ndarray], confidence: dict[str, float]) -> None:
        super().__init__(cards)
        self.confidence = confidence

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        return [
            Identification(a.card_id, self.confidence[a.card_id], None, 0.9) if a.card_id else a
            for a in super().identify_cards(cards)
        ]


@pytest.mark.parametrize("middle", [0.97, PARAMS.looks.slice_confidence - 0.01])
def test_the_middle_card_of_a_fan_of_three_is_read_between_its_ends(middle: float) -> None:
    """Three fanned cards outlined as one (edje-tfod's IMG_2655): the ends are read at the fan's
    two ends; the middle one, whose long sides lie inside the outline where nothing outlines
    them, only in one of the windows between them (:func:`fan_slices`), refined onto its edge,
    after every other look, and only where it reads PARAMS.looks.slice_confidence or surer (a dozen windows
    a fan are a dozen guesses)."""
    img = np.full((360, 640, 3), 50, np.uint8)
    left = card_quad((230, 180), 110, 0.05)
    step = 0.35 * (left[1] - left[0])
    fan = {"QS": left, "QH": left + step, "QC": left + 2 * step}
    for card_id, quad in fan.items():
        composite_card(img, face_bgra(load_deck("standard-52")[card_id], None, 160), quad)
    across = np.array([left[0], fan["QC"][1], fan["QC"][2], left[3]], np.float32)
    ident = ByOutlineAt(fan, {"QS": 0.97, "QH": middle, "QC": 0.97})
    out = name_cards(ident, DETECTOR, img, [detection(img, across)])
    assert sorted(a.card_id for _, a in out) == (
        ["QC", "QH", "QS"] if middle >= PARAMS.looks.slice_confidence else ["QC", "QS"]
    )
    assert polygon_iou(ident.looked[-1], fan["QH"]) <= 0.9  # the windows past it are read too
    assert len(ident.looked) == 1 + 2 + 1 + len(fan_slices(across))  # no refit, no alternates


def test_a_window_at_a_named_cards_corner_reads_that_cards_index() -> None:
    """A window across a fan with a corner within FAN_STEP of its width of a named card's corner
    crops that card's index there, cut (edje-tfod's IMG_2674: a ten of hearts read 7H at 0.99 a
    tenth of a card beside it): it names nothing. Further off it may."""
    card = card_quad((300, 200), 100, 0.3)
    along = (card[1] - card[0]) / np.linalg.norm(card[1] - card[0])
    assert at_a_named_corner(card + 0.09 * 100 * along, [card])
    assert not at_a_named_corner(card + 0.11 * 100 * along, [card])
    assert not at_a_named_corner(card, [])


def test_second_looks_per_frame_are_capped(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """A cluttered frame offers dozens of alternates; only the first PARAMS.looks.max_looks (of the
    best-scored cards) are read, so a busy frame costs a bounded time."""
    img, quad = scene
    on_table = card_quad((150, 180), 110, 0.2)
    refused = [
        detection(img, on_table + (0, 3 * k), *(on_table + (4 * j, 3 * k) for j in range(1, 5))) for k in range(8)
    ]
    ident = ByPaper()
    name_cards(ident, DETECTOR, img, refused)
    assert ident.calls == [8, PARAMS.looks.max_looks]


def _with_second_card(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``img`` with a second card (also paper, so ByPaper reads it) left of the scene's, and its quad."""
    img, card = img.copy(), card_quad((150, 250), 100, 0.1)
    composite_card(img, face_bgra(load_deck("standard-52")["AS"], None, 160), card)
    return img, card


def test_each_refused_outline_gets_a_look_before_any_gets_its_second(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """Four refused outlines offer eight alternates each, all on the table; a fifth offers the
    card under it first. Read outline by outline, the first four used up the frame's looks (a
    white cloth's clutter, a pile's many refused outlines); each outline's first look is now
    read before the others' second ones (the rest as before, outline by outline)."""
    img, _ = scene
    img, card = _with_second_card(img)
    clutter = [card_quad((80, 60), 60, 0.0) + (25 * k, 0) for k in range(5)]
    refused = [
        detection(img, c, *(c + (0, 3 * j) for j in range(1, PARAMS.looks.first_alternates + 1))) for c in clutter[:4]
    ]
    out = name_cards(ByPaper(), DETECTOR, img, [*refused, detection(img, clutter[4], card)])
    assert [a.card_id for _, a in out] == [None] * 4 + ["AS"]
    assert polygon_iou(out[4][0].corners, card) > 0.9


def test_looks_on_a_named_card_take_no_place_of_others(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """Looks lying on a card named at first sight are not read, and are dropped before the
    frame's looks are counted out: four refused outlines whose alternates all lie on the named
    card leave the looks to a fifth, whose last alternate is the card under it."""
    img, quad = scene
    img, card = _with_second_card(img)
    clutter = [card_quad((80, 60), 60, 0.0) + (25 * k, 0) for k in range(5)]
    refused = [
        detection(img, c, *(quad + (j, 0) for j in range(1, PARAMS.looks.first_alternates + 1))) for c in clutter[:4]
    ]
    last = detection(img, clutter[4], *(clutter[4] + (0, 3 * j) for j in range(1, PARAMS.looks.first_alternates)), card)
    ident = ByPaper()
    out = name_cards(ident, DETECTOR, img, [detection(img, quad), *refused, last])
    assert [a.card_id for _, a in out] == ["AS"] + [None] * 4 + ["AS"]
    assert polygon_iou(out[5][0].corners, card) > 0.9
    assert not any(polygon_iou(c, quad) > 0.45 for c in ident.looked[6:])


class ByQuad:
    """Names ``card_id`` an outline within IoU 0.8 of ``quad``, read by the corners ``read_by``
    (top-left, bottom-right; by neither: two corners disputing a number, settled by the pips)."""

    def __init__(self, card_id: str, quad: np.ndarray, read_by: tuple[bool, bool]) -> None:
        self.card_id, self.quad, self.read_by = card_id, quad, read_by

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        return [
            Identification(self.card_id, 0.99, None, 0.9, read_by=self.read_by)
            if polygon_iou(c.corners, self.quad) > 0.8
            else Identification(None, 0.2, None, 0.0)
            for c in cards
        ]


@pytest.mark.parametrize("inside", [True, False])
def test_a_look_read_by_a_corner_within_a_named_card_names_nothing(inside: bool) -> None:
    """A look read by one corner whose index box lies within a card named already crops that
    card's face (a pile's seven of diamonds read at 0.99 off a king's picture frame, where no
    seven lies): it names nothing. The same look with that corner clear of it does."""
    img = np.full((360, 640, 3), 50, np.uint8)
    named = card_quad((250, 180), 110, 0.0)
    composite_card(img, face_bgra(load_deck("standard-52")["KH"], None, 160), named)
    # a look whose top-left corner lies 20 px inside the named card, or 20 px clear of it
    look = card_quad((250 + 110 + (-20 if inside else 20), 180 + 40), 110, 0.0)
    assert polygon_iou(look, named) < 0.45
    on_table = card_quad((540, 100), 60, 0.0)
    first = Detection(named, img, 1.0, False)
    ident = ByQuad("7D", look, (True, False))
    out = name_cards(_NamedFirst(ident, named), DETECTOR, img, [first, detection(img, on_table, look)])
    assert [a.card_id for _, a in out] == ["KH", None if inside else "7D"]


def test_a_look_named_by_its_pips_alone_names_nothing(scene: tuple[np.ndarray, np.ndarray]) -> None:
    """A guessed outline over half a ten of clubs holds five pips, and its corners disputing the
    number were settled by them as 5C (edje-tfod's IMG_2478): the pips count what the outline
    holds, not the card, so a look names a card only where one of its corners reads it."""
    img, quad = scene
    on_table = card_quad((150, 180), 110, 0.2)
    out = name_cards(ByQuad("5C", quad, (False, False)), DETECTOR, img, [detection(img, on_table, quad)])
    assert [a.card_id for _, a in out] == [None]


class _NamedFirst:
    """``ident`` that names the card at ``quad`` KH, read by both corners."""

    def __init__(self, ident: ByQuad, quad: np.ndarray) -> None:
        self.ident, self.quad = ident, quad

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        return [
            Identification("KH", 1.0, None, 1.0, read_by=(True, True)) if polygon_iou(c.corners, self.quad) > 0.9 else a
            for c, a in zip(cards, self.ident.identify_cards(cards), strict=True)
        ]


def test_garbage_frames_give_no_second_look() -> None:
    card = card_quad((150, 180), 110, 0.2)
    det = Detection(card, np.zeros((360, 640, 3), np.uint8), 1.0, False, (card + 30,))
    assert DETECTOR.look_again(np.zeros((1, 1), np.uint8), det.alternates) == []
    ((same, answer),) = name_cards(ByPaper(), DETECTOR, np.zeros((1, 1), np.uint8), [det])
    assert same is det and answer.card_id is None


@pytest.mark.parametrize("angle", [0.0, 0.7, 2.0])
def test_a_refused_outline_is_read_last_as_a_court_cards_picture_frame(angle: float) -> None:
    """On a cream cloth a court card's edge may not be outlined, only its picture frame, whose
    corners hold pictures, not indices (edje-tfod's IMG_2477, where no refit reached the card):
    the card round it (FRAME_IN_CARD of it) is read after the other outlines it offers."""
    img = np.full((360, 640, 3), 200, np.uint8)  # no edge to refine onto: only that look names it
    card = card_quad((320, 180), 120, angle)
    frame = picture_frame(card)
    ident = ByOutline({"KH": card})
    [(det, answer)] = name_cards(ident, DETECTOR, img, [detection(img, frame)])
    assert answer.card_id == "KH" and polygon_iou(det.corners, card) > 0.95
    # the frame, its two ends, the card round it, then the windows across it taken as a fan
    assert len(ident.looked) == 4 + len(fan_slices(frame)) and polygon_iou(ident.looked[3], card) > 0.95


class ByFit:
    """Names "3C" an outline within IoU 0.5 of ``card``: by both corners where it lies within
    0.85 of it (each crop holds a whole index) and ``both``, else by its top-left one alone,
    or (``lean``) refuses it leaning to 3C at that probability; and "KH" an outline within IoU
    0.98 of ``other``. Counts the outlines it read."""

    def __init__(
        self,
        card: np.ndarray,
        both: bool = True,
        other: np.ndarray | None = None,
        lean: float | None = None,
        guess: str | None = "3C",
        sure: float = 0.97,
    ) -> None:
        self.card, self.both, self.other, self.lean, self.guess = card, both, other, lean, guess
        self.sure = sure  # how surely both corners read it
        self.read = 0

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        out = []
        self.read += len(cards)
        for c in cards:
            iou = polygon_iou(c.corners, self.card)
            if self.other is not None and polygon_iou(c.corners, self.other) > 0.98:
                out.append(Identification("KH", 0.99, None, 0.9, read_by=(True, True)))
            elif self.lean is not None and 0.5 < iou <= 0.85:
                out.append(Identification(None, self.lean, "3S", 0.1, guess=self.guess, read_by=(False, False)))
            elif iou > 0.5:
                both = self.both and iou > 0.85
                out.append(Identification("3C", self.sure if both else 0.97, None, 0.9, read_by=(True, both)))
            else:
                out.append(Identification(None, 0.2, None, 0.0))
        return out


@pytest.fixture
def striped() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three of clubs turned 0.2 rad on a pink and white striped cloth, and an outline of the
    stripes' axis larger than it and off its centre."""
    card = card_quad((320, 180), 110, 0.2)
    return on_stripes("3C", card), card, card_quad((330, 172), 128, 0.0)


def test_a_card_named_from_one_corner_is_outlined_again_where_both_read_it(
    striped: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """A card named from one corner on a loose outline is moved to the card-shaped outline
    round it that both corners read as that card, and keeps its name."""
    img, card, loose = striped
    assert polygon_iou(loose, card) < 0.7
    [(found, answer)] = name_cards(ByFit(card), DETECTOR, img, [detection(img, loose)])
    assert (answer.card_id, answer.corners) == ("3C", 2)
    assert polygon_iou(found.corners, card) > 0.85


@pytest.mark.parametrize("ident", [{"both": False}, {"sure": PARAMS.looks.confidence - 0.01}])
def test_a_card_shape_read_by_one_corner_or_unsurely_leaves_the_outline(
    striped: tuple[np.ndarray, np.ndarray, np.ndarray], ident: dict[str, float]
) -> None:
    """A shape read by one corner, or by both under PARAMS.looks.confidence (the kiosk's blurred
    three of diamonds, named JD from one corner at 0.64, read JD by both at 0.71), does not
    move the card: it would then be taken at a glance as read by both corners."""
    img, card, loose = striped
    [(found, answer)] = name_cards(ByFit(card, **ident), DETECTOR, img, [detection(img, loose)])
    assert (answer.card_id, answer.corners) == ("3C", 1)
    assert np.array_equal(found.corners, loose)


def test_a_card_shape_on_another_named_card_leaves_the_outline(
    striped: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """Where the card-shaped outline lies on a card named already, it is that card's: the loose
    outline keeps its place."""
    img, card, loose = striped
    other = card + (12, 0)
    out = name_cards(ByFit(card, other=other), DETECTOR, img, [detection(img, loose), detection(img, other)])
    assert [a.card_id for _, a in out] == ["3C", "KH"]
    assert np.array_equal(out[0][0].corners, loose)


@pytest.mark.parametrize(("lean", "guess"), [(0.4, "3C"), (0.99, None)])
def test_a_refused_outline_leaning_to_a_card_is_named_from_a_card_shape_both_corners_read(
    striped: tuple[np.ndarray, np.ndarray, np.ndarray], lean: float, guess: str | None
) -> None:
    """A refused outline whose corners lean to a card, or name two (held-out 900024's six of
    hearts, outlined short, one corner's cut index read as a queen), is named from the
    card-shaped outline round it that both corners read, as surely as a second look; one
    leaning less than PARAMS.pips.guess_confidence, on a table where no card is named, has no shape
    fitted round it."""
    img, card, loose = striped
    ident = ByFit(card, lean=lean, guess=guess)
    [(found, answer)] = name_cards(ident, DETECTOR, img, [detection(img, loose)])
    assert (answer.card_id, answer.corners) == ("3C", 2)
    assert polygon_iou(found.corners, card) > 0.85
    faint = ByFit(card, lean=PARAMS.pips.guess_confidence - 0.05)
    [(found, answer)] = name_cards(faint, DETECTOR, img, [detection(img, loose)])
    assert answer.card_id is None and np.array_equal(found.corners, loose)


def test_an_unread_outline_apart_from_the_named_cards_is_named_from_a_card_shape(
    striped: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """On a table where a card is named, an outline read too unsurely to lean to any card but
    lying apart from it may be a card outlined askew (held-out 900171's six of spades, read
    0.008): the card-shaped outline round it that both corners read names it. One lying on the
    named card is that card's, and is left refused."""
    img, card, loose = striped
    named = card_quad((580, 300), 60, 0.0)
    faint = ByFit(card, lean=PARAMS.pips.guess_confidence - 0.05, other=named)
    out = name_cards(faint, DETECTOR, img, [detection(img, loose), detection(img, named)])
    assert [(a.card_id, a.corners) for _, a in out] == [("3C", 2), ("KH", 2)]
    assert polygon_iou(out[0][0].corners, card) > 0.85
    on_it = ByFit(card, lean=PARAMS.pips.guess_confidence - 0.05, other=loose + (8, 0))
    out = name_cards(on_it, DETECTOR, img, [detection(img, loose), detection(img, loose + (8, 0))])
    assert out[0][1].card_id is None and np.array_equal(out[0][0].corners, loose)


def test_card_shapes_are_fitted_round_the_two_best_scored_unread_outlines_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Of the unread outlines lying apart from the named cards, PARAMS.looks.max_apart have card shapes
    fitted round them, the best-scored first: a white cloth leaves a dozen refused."""
    img = np.full((360, 640, 3), 50, np.uint8)
    quads = [card_quad((70 + 125 * i, 180), 90, 0.0) for i in range(5)]
    scores = [0.3, 0.7, 0.5, 0.9, 0.6]  # the last outline's card is named
    fitted: list[int] = []
    monkeypatch.setattr(
        card_shaped,
        "card_shapes",
        lambda gray, quad, *_: fitted.append(next(i for i, q in enumerate(quads) if np.array_equal(q, quad))) or [],
    )

    class LastNamed:
        def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
            return [
                Identification("KH", 0.99, None, 0.9, read_by=(True, True))
                if polygon_iou(c.corners, quads[4]) > 0.5
                else Identification(None, 0.01, None, 0.0, read_by=(False, False))
                for c in cards
            ]

    outlines = [Detection(q, img, s, False, ()) for q, s in zip(quads, scores, strict=True)]
    name_cards(LastNamed(), DETECTOR, img, outlines)
    assert fitted == [3, 1, 2, 0][: PARAMS.looks.max_apart]


def test_card_shapes_are_fitted_round_the_three_surest_leaning_outlines(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame's refused outlines leaning to a card have shapes fitted round MAX_GUESSED of
    them, surest first: each fit costs about 10 ms, and a pile leaves a dozen refused."""
    img = np.full((360, 640, 3), 50, np.uint8)
    quads = [card_quad((80 + 120 * i, 180), 90, 0.0) for i in range(5)]
    for q in quads:
        composite_card(img, face_bgra(load_deck("standard-52")["3C"], None, 160), q)
    leans = [0.3, 0.7, 0.5, 0.25, 0.6]
    fitted: list[int] = []
    monkeypatch.setattr(
        card_shaped,
        "card_shapes",
        lambda gray, quad, *_: fitted.append(next(i for i, q in enumerate(quads) if np.array_equal(q, quad))) or [],
    )

    class Leaning:
        def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
            return [
                Identification(
                    None,
                    next((lean for q, lean in zip(quads, leans, strict=True) if polygon_iou(c.corners, q) > 0.5), 0.0),
                    "3S",
                    0.1,
                    guess="3C",
                )
                for c in cards
            ]

    name_cards(Leaning(), DETECTOR, img, [detection(img, q) for q in quads])
    assert fitted == [1, 4, 2]


def test_a_shape_read_by_one_corner_is_searched_again_closer(
    striped: tuple[np.ndarray, np.ndarray, np.ndarray], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the shapes found round a card are read by one corner only (a couple of pixels
    off), the search runs again closer round the first PARAMS.looks.closer_again of them, and a shape both
    corners read there moves the card."""
    img, card, loose = striped
    searches: list[Search] = []
    around = PARAMS.card_fit.around

    def off_at_first(
        gray: np.ndarray, quad: np.ndarray, search: Search | None = None, flattening: np.ndarray | None = None
    ) -> list[np.ndarray]:
        search = around if search is None else search
        searches.append(search)
        found = card_fit.card_shapes(gray, quad, search, flattening)
        return [s + (20, 0) for s in found] if search == around else found

    monkeypatch.setattr(card_shaped, "card_shapes", off_at_first)
    [(found, answer)] = name_cards(ByFit(card), DETECTOR, img, [detection(img, loose)])
    assert (answer.card_id, answer.corners) == ("3C", 2)
    assert polygon_iou(found.corners, card) > 0.85
    assert searches[0] == around and 1 <= searches.count(PARAMS.card_fit.closer) <= PARAMS.looks.closer_again


def test_a_refused_close_up_gets_no_second_look() -> None:
    """A card-shaped outline filling most of the frame (``DetectorConfig.close_up_area``) that
    is no card, the kiosk's own mat with cards on it, is refused without the second looks and
    card shapes round it: searched like that, the mat cost referee frames a tenth more time.
    An outline of the usual size, refused, is looked at again as before."""
    img = np.full((360, 640, 3), 60, np.uint8)
    mat = card_quad((320, 180), 340, np.pi / 2 + 0.01)
    cv2.fillConvexPoly(img, mat.astype(np.int32), (90, 140, 60))
    card = card_quad((250, 200), 50, 0.4)
    composite_card(img, face_bgra(load_deck("standard-52")["9H"], None, 160), card)
    whole = Detection(mat, img, 1.0, alternates=(card_quad((320, 180), 300, np.pi / 2),))
    assert cv2.contourArea(mat) > DETECTOR.config.max_area * 640 * 360
    reader = ByPaper()
    assert [a.card_id for _, a in name_cards(reader, DETECTOR, img, [whole])] == [None]
    assert reader.calls == [1]
    small = Detection(card_quad((380, 150), 50, 0.4), img, 1.0, alternates=(card,))  # on the mat
    reader = ByPaper()
    name_cards(reader, DETECTOR, img, [small])
    assert len(reader.calls) > 1


class ByOutlineBothCorners(ByOutline):
    """:class:`ByOutline` reading each card by both its corners, but those of ``under`` by their
    top-left corner alone, at ``confidence`` (a fan's card under another shows one index)."""

    def __init__(self, cards: dict[str, np.ndarray], under: str = "", confidence: float = 0.97) -> None:
        super().__init__(cards)
        self.under, self.confidence = under, confidence

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        return [
            a
            if a.card_id is None
            else replace(a, read_by=(True, False), confidence=self.confidence)
            if a.card_id == self.under
            else replace(a, read_by=(True, True))
            for a in super().identify_cards(cards)
        ]


@pytest.fixture
def askew_pair() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Two cards overlapping at an angle (the queen of spades over the queen of clubs) and one
    outline across both along the top card (edje-tfod's IMG_2674: a ten of hearts over an ace
    of diamonds)."""
    img = np.full((360, 640, 3), 50, np.uint8)
    under, top = card_quad((375, 185), 110, 0.35), card_quad((260, 180), 110, 0.1)
    for card_id, quad in (("QC", under), ("QS", top)):
        composite_card(img, face_bgra(load_deck("standard-52")[card_id], None, 160), quad)
    reach = 1.9 * (top[1] - top[0])  # the outline runs on along the top card's width over the other
    return img, under, top, np.array([top[0], top[0] + reach, top[3] + reach, top[3]], np.float32)


def test_the_far_end_of_an_outline_a_look_named_partly_is_searched_for_a_card(
    askew_pair: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """The outline across two cards is refused; the look at its end names the top card, and the
    card under it, askew to the outline, is found among the card shapes fitted round the
    outline's other end and named too."""
    img, under, top, across = askew_pair
    out = name_cards(ByOutlineBothCorners({"QS": top, "QC": under}), DETECTOR, img, [detection(img, across)])
    assert sorted(a.card_id for _, a in out) == ["QC", "QS"]
    assert polygon_iou(next(d.corners for d, a in out if a.card_id == "QC"), under) > 0.9


@pytest.mark.parametrize("confidence", [PARAMS.looks.slice_confidence, PARAMS.looks.slice_confidence - 0.01])
def test_a_card_at_the_far_end_read_by_one_corner_is_named_as_surely_as_a_fans_window(
    askew_pair: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], confidence: float
) -> None:
    """A fan's card under another shows one index (edje-tfod's IMG_2603: an ace of spades under
    a ten of clubs and a king): a card shape at the far end read by that corner alone names it
    at PARAMS.looks.slice_confidence, as a window across a fan does; less surely, nothing."""
    img, under, top, across = askew_pair
    ident = ByOutlineBothCorners({"QS": top, "QC": under}, under="QC", confidence=confidence)
    names = sorted(a.card_id for _, a in name_cards(ident, DETECTOR, img, [detection(img, across)]) if a.card_id)
    assert names == (["QC", "QS"] if confidence >= PARAMS.looks.slice_confidence else ["QS"])


class BySpan(ByOutline):
    """:class:`ByOutline` reading each card by ``read_by`` of its corners, and ``span`` (an
    outline across two cards) as the queen of spades, by the one index it holds."""

    def __init__(self, cards: dict[str, np.ndarray], span: np.ndarray, read_by: tuple[bool, bool]) -> None:
        super().__init__(cards)
        self.span, self.read_by = span, read_by

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        return [
            Identification("QS", 0.97, None, 0.9, read_by=(True, False))
            if polygon_iou(c.corners, self.span) > 0.9
            else replace(a, read_by=self.read_by)
            if a.card_id
            else a
            for c, a in zip(cards, super().identify_cards(cards), strict=True)
        ]


@pytest.mark.parametrize("read_by", [(True, True), (True, False)])
def test_the_card_beside_one_named_from_one_corner_is_found_among_its_alternates(read_by: tuple[bool, bool]) -> None:
    """Fanned cards whose edges run on in one line are outlined as one card across both, read
    by the one index it holds (edje-tfod's IMG_2668: a ten of spades over a jack of hearts).
    Its alternate on the card beside it, read as another card by both corners, is that card;
    read by one corner, it may show the first card's index: nothing more is named."""
    img = np.full((360, 640, 3), 50, np.uint8)
    left = card_quad((260, 180), 110, 0.1)
    right = left + 0.8 * (left[1] - left[0])
    for card_id, quad in (("QC", right), ("QS", left)):
        composite_card(img, face_bgra(load_deck("standard-52")[card_id], None, 160), quad)
    span = np.array(
        [left[0], left[1] + 0.5 * (right[1] - left[1]), left[2] + 0.5 * (right[2] - left[2]), left[3]], np.float32
    )
    assert polygon_iou(span, right) < PARAMS.looks.one_card
    out = name_cards(BySpan({"QC": right}, span, read_by), DETECTOR, img, [detection(img, span, right)])
    assert [a.card_id for _, a in out] == (["QS", "QC"] if read_by == (True, True) else ["QS"])


@pytest.mark.parametrize("confidence", [PARAMS.looks.slice_confidence, PARAMS.looks.slice_confidence - 0.01])
def test_a_card_under_a_named_one_is_completed_from_the_corner_a_refused_outline_shows(confidence: float) -> None:
    """A card lying mostly under another shows one corner; the outline completed from it at
    the wrong size is refused (it cuts its index short), and the one at full size lies so much
    on the top card that it lost to it there (edje-tfod's IMG_2679: a queen of diamonds under
    a jack). That outline, a corner shared with the refused one, is read, and names the card
    as a window across a fan does: at PARAMS.looks.slice_confidence, by a corner off the named card."""
    img = np.full((360, 640, 3), 50, np.uint8)
    top = card_quad((300, 180), 110, 0.1)
    under = top + np.array([-28, -18], np.float32)
    for card_id, quad in (("QC", under), ("QS", top)):
        composite_card(img, face_bgra(load_deck("standard-52")[card_id], None, 160), quad)
    assert polygon_iou(top, under) >= DETECTOR.config.nms_iou
    tl, across, down = under[0], under[1] - under[0], under[3] - under[0]
    cut = np.array([tl, tl + 0.3 * across, tl + 0.3 * across + 0.45 * down, tl + 0.45 * down], np.float32)
    ident = ByOutlineBothCorners({"QS": top, "QC": under}, under="QC", confidence=confidence)
    out = name_cards(ident, DETECTOR, img, [detection(img, top, under), Detection(cut, img, 1.0, True)])
    names = sorted(a.card_id for _, a in out if a.card_id)
    assert names == (["QC", "QS"] if confidence >= PARAMS.looks.slice_confidence else ["QS"])


@pytest.mark.parametrize("under", [True, False])
def test_no_card_shape_is_sought_round_a_card_whose_unread_index_lies_under_a_named_one(
    under: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card named by the one index that shows, the other under a card both corners read (a
    hand of two laid down fanned), has no card shapes fitted round it: none could show both its
    indices, and each search costs a frame about 10 ms. A card named by one corner whose other
    index lies clear of every card is searched round as before."""
    img = np.full((360, 640, 3), 50, np.uint8)
    top = card_quad((300, 180), 100, 0.0)
    shift = 40 if under else 130  # a card's other corner under the top card, or clear of it
    lower = top + np.array([shift, 0], np.float32)
    fitted: list[bool] = []
    monkeypatch.setattr(
        card_shaped, "card_shapes", lambda gray, quad, *_: fitted.append(np.array_equal(quad, lower)) or []
    )

    class OneUnder:
        def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
            return [
                Identification("KH", 0.99, None, 0.9, read_by=(True, True))
                if polygon_iou(c.corners, top) > 0.9
                else Identification("7D", 0.99, None, 0.9, read_by=(False, True))  # its bottom-right index
                for c in cards
            ]

    outlines = [Detection(top, img, 0.9, False, ()), Detection(lower, img, 0.8, False, ())]
    name_cards(OneUnder(), DETECTOR, img, outlines)
    assert fitted.count(True) == (0 if under else 1)
