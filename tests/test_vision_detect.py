"""Card detection: corners on light, dark, plain and textured tables at any rotation and under
perspective, covered outlines, the corner order, and frames that are not pictures at all."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from conftest import bench_module, picture_frame, shifted_along
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kiosk.decks import load_deck
from kiosk.render.compositing import composite_card, face_bgra
from kiosk.render.faces import ASPECT
from kiosk.render.scenes import card_quad, render_scene
from kiosk.render.textures import table_background
from kiosk.vision.candidate import Candidate
from kiosk.vision.complete import agreed, partial_quads, split_pairs, trimmed
from kiosk.vision.cues import _fill_holes
from kiosk.vision.detect import Detector, DetectorConfig, as_bgr
from kiosk.vision.face import FACE_SIZE, card_sides, darkest_channel, index_crops
from kiosk.vision.geometry import CARD_ASPECT, on_frame_edge, order_corners, polygon_iou, quad_aspect, spill
from kiosk.vision.identify import Identifier
from kiosk.vision.naming import name_cards
from kiosk.vision.params import PARAMS
from kiosk.vision.propose import Outline
from kiosk.vision.refine import _profile_steps, fit_lines, refine_quads
from kiosk.vision.select import suppress, table_sized
from kiosk.vision.shapes import fan_ends, fan_slices, frame_card

DECK = load_deck("standard-52")
# the kiosk's detector (with the outline model when it is built) and the hand-set cues alone,
# which still run where the model file is missing
DETECTORS = {"shipped": Detector(), "hand cues": Detector(DetectorConfig(outline_model=False))}


@pytest.fixture(params=sorted(DETECTORS), scope="module")
def detector(request: pytest.FixtureRequest) -> Detector:
    return DETECTORS[request.param]


def table(kind: str | int, seed: int = 0, size: tuple[int, int] = (640, 360)) -> np.ndarray:
    """A plain grey level, or a texture family of the renderer ("split/family")."""
    if isinstance(kind, int):
        return np.full((size[1], size[0], 3), kind, np.uint8)
    split, family = kind.split("/")
    return table_background(seed, size, split, family).copy()


def lay(img: np.ndarray, card_id: str, quad: np.ndarray) -> None:
    composite_card(img, face_bgra(DECK[card_id], None, 160), quad, (3.0, 3.0, 2.0, 0.4))


def lay_book(img: np.ndarray, a: np.ndarray, b: np.ndarray, away: np.ndarray, overhang: float) -> None:
    """A book (a plain coloured quad) over ``img`` from the line ``a``-``b`` out along ``away``,
    reaching past either end of the line by ``overhang`` of its length."""
    along = (b - a) * overhang
    book = np.array([a - along, b + along, b + along + away, a - along + away])
    cv2.fillPoly(img, [book.astype(np.int32)], (40, 90, 200))


corner_error = bench_module("_vision").corner_error


def match(dets: list, truth: np.ndarray) -> tuple[float, np.ndarray | None]:
    if not dets:
        return 0.0, None
    best = max(dets, key=lambda d: polygon_iou(d.corners, truth))
    return polygon_iou(best.corners, truth), best.corners


@pytest.mark.parametrize(
    "kind",
    [
        40,
        120,
        200,
        "train/wood",
        "train/felt",
        "train/dark",
        "train/glossy",
        "heldout/oak",
        "heldout/baize",
        "heldout/dark",
    ],
)
def test_cards_found_with_accurate_corners_on_many_tables(kind: str | int, detector: Detector) -> None:
    for seed in range(3):
        img = table(kind, seed)
        rng = np.random.default_rng(seed)
        quads = [
            card_quad((160 + 320 * k, 180), float(rng.uniform(60, 90)), float(rng.uniform(0, 6.3))) for k in range(2)
        ]
        for k, quad in enumerate(quads):
            lay(img, DECK.ids[seed * 7 + k], quad)
        dets = detector.detect(img)
        for quad in quads:
            iou, corners = match(dets, quad)
            short = float(np.linalg.norm(quad[1] - quad[0]))
            assert iou > 0.9, (kind, seed)
            assert corner_error(corners, quad) <= 0.05 * short, (kind, seed)


@pytest.mark.parametrize("level", [215, 245])
def test_poster_cards_are_found_on_a_white_table(level: int) -> None:
    """The kiosk's own deck prints a poster to within a twentieth of the card's edge: on a
    table as white as the border, the outline model outlines the poster, and the paper-margin
    test once dropped the card (L'Affiche Belge on held-out white cloth: 35 % found)."""
    posters = load_deck("affiche-belge")
    img = table(level)
    quads = [card_quad((200, 180), 85, 0.4), card_quad((450, 170), 90, 2.0)]
    for card_id, quad in zip(("2S", "KH"), quads, strict=True):
        composite_card(img, face_bgra(posters[card_id], None, 160), quad, (3.0, 3.0, 2.0, 0.4))
    dets = DETECTORS["shipped"].detect(img)
    for quad in quads:  # on the whitest table, outlined by the poster but found (was: not at all)
        assert match(dets, quad)[0] > 0.8


@settings(max_examples=25, deadline=None)
@given(
    angle=st.floats(0, 2 * np.pi),
    width=st.floats(55, 110),
    tilt=st.lists(st.floats(-0.06, 0.06), min_size=8, max_size=8),
    level=st.sampled_from([35, 90, 170]),
)
# found by hypothesis: the printed frame, notched by the index, was fitted as a quad cutting the
# bottom-right corner 18 px short, and outscored the card's own outline
@example(angle=0.0, width=86.75, tilt=[0.0390625, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0546875, 0.0], level=90)
@example(angle=0.0, width=86.75, tilt=[0.0390625, 0.015625, 0, 0, 0, 0, 0.0546875, 0.03125], level=90)
def test_any_rotation_and_perspective(
    angle: float, width: float, tilt: list[float], level: int, detector: Detector
) -> None:
    img = table(level)
    quad = card_quad((320, 180), width, angle)
    quad = quad + np.array(tilt, np.float32).reshape(4, 2) * np.float32(width)  # perspective
    lay(img, "7H", quad)
    dets = detector.detect(img)
    iou, corners = match(dets, quad)
    assert iou > 0.9
    assert corner_error(corners, quad) <= 0.06 * width
    found = dets[0]
    assert found.face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3) and found.face.dtype == np.uint8


def test_index_corners_are_the_faces_corner_boxes(detector: Detector) -> None:
    """An index reader warps only the two corner boxes: they must be the face's own, pixel for
    pixel within rounding, the bottom-right one turned upright."""
    img = table("heldout/oak", 3)
    lay(img, "10D", card_quad((250, 170), 95, 0.7))
    lay(img, "KS", card_quad((470, 190), 90, 2.5))
    dets = detector.detect(img)
    assert len(dets) == 2
    for det in dets:
        for cheap, full in zip(det.index_corners(), index_crops(det.face), strict=True):
            assert cheap.shape == full.shape
            assert np.abs(cheap.astype(int) - full).max() <= 1


def test_output_is_portrait_clockwise_from_top_left(detector: Detector) -> None:
    img = table(60)
    lay(img, "QS", card_quad((320, 180), 80, np.pi / 2 + 0.2))  # lying on its long side
    (det,) = detector.detect(img)
    c = det.corners
    sides = np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)
    assert sides[0] < sides[1] and sides[2] < sides[3]  # TL->TR is a short side
    (ax, ay), (bx, by) = c[1] - c[0], c[2] - c[1]
    assert ax * by - ay * bx > 0  # clockwise on screen (y down)


@settings(max_examples=50, deadline=None)
@given(angle=st.floats(0, 2 * np.pi), reverse=st.booleans(), side=st.integers(0, 3), out=st.floats(0.5, 30))
def test_spill_is_how_far_a_point_lies_outside(angle: float, reverse: bool, side: int, out: float) -> None:
    """Either turn of the quad: its corners and centre spill nothing, a point ``out`` pixels
    beyond the middle of a side spills ``out``."""
    quad = card_quad((100, 100), 50, angle)
    quad = quad[::-1] if reverse else quad
    centre = quad.mean(axis=0)
    mid = (quad[side] + quad[(side + 1) % 4]) / 2
    beyond = mid + (mid - centre) / np.linalg.norm(mid - centre) * out
    assert spill(quad, np.vstack([quad, centre[None]])) == pytest.approx(0, abs=1e-3)
    assert spill(quad, np.vstack([quad, beyond[None]])) == pytest.approx(out, rel=1e-3)


@settings(max_examples=50, deadline=None)
@given(reaches=st.lists(st.floats(3.0, 60.0), min_size=1, max_size=12))
def test_profile_steps_are_each_reachs_linspace_padded_by_its_last(reaches: list[float]) -> None:
    """The steps along each side's normal that refinement samples: one array for all quads,
    the same numbers as a linspace per quad padded with its last value."""
    width = max(int(4 * r) + 1 for r in reaches)
    want = np.stack(
        [
            np.pad(np.linspace(-r, r, int(4 * r) + 1, dtype=np.float32), (0, width - int(4 * r) - 1), mode="edge")
            for r in reaches
        ]
    )
    got = _profile_steps(np.array(reaches))
    assert got.dtype == np.float32 and np.array_equal(got, want)


@given(seed=st.integers(0, 2**32 - 1), h=st.integers(1, 40), w=st.integers(1, 40))
def test_darkest_channel_is_each_pixels_lowest_channel(seed: int, h: int, w: int) -> None:
    img = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    low = darkest_channel(img)
    assert low.shape == (h, w) and low.dtype == np.uint8
    assert np.array_equal(low, img.min(axis=2))


@given(angle=st.floats(0, 2 * np.pi), start=st.integers(0, 3), reverse=st.booleans())
def test_order_corners_is_independent_of_input_order(angle: float, start: int, reverse: bool) -> None:
    quad = card_quad((100, 100), 50, angle)
    shuffled = np.roll(quad, start, axis=0)
    if reverse:
        shuffled = shuffled[::-1]
    a, b = order_corners(quad), order_corners(shuffled)
    assert np.allclose(a, b)
    assert quad_aspect(a) == pytest.approx(7 / 5, rel=0.01)  # the renderer's face aspect


@pytest.mark.parametrize("level", [50, 190])
def test_covered_card_with_visible_index_is_kept(level: int, detector: Detector) -> None:
    """Another card covers a third of the queen; her top-left index stays visible."""
    img = table(level)
    under = card_quad((250, 180), 90, 0.2)
    over = card_quad((250 + 90 * 0.6, 180 + 126 * 0.35), 90, 0.2)
    lay(img, "QS", under)
    lay(img, "7H", over)
    dets = detector.detect(img)
    assert match(dets, over)[0] > 0.85
    iou, corners = match(dets, under)
    assert iou > 0.75
    assert np.linalg.norm(corners - under, axis=1).min() < 6  # the visible corner is exact


def test_a_card_in_the_shade_is_paper_beside_a_sheet_in_the_light() -> None:
    """A lamp lights one side of the table: a white sheet there is the frame's brightest white,
    and a card on the dark side is three times darker (a webcam frame of edje-tfod: the king and
    jack of a square of four, never found). Far whiter than the table round it, it is a card."""
    img = np.full((540, 960, 3), 28, np.uint8)
    img[:, 600:] = 250  # the sheet in the light
    quad = np.array([[150, 150], [297, 150], [297, 356], [150, 356]], np.float32)
    cv2.fillPoly(img, [quad.astype(np.int32)], (82, 84, 86))  # the card in the shade
    cv2.rectangle(img, (180, 200), (267, 306), (30, 30, 60), -1)  # its picture
    assert match(Detector().detect(img), quad)[0] > 0.9


def test_holes_in_the_foreground_are_filled_up_to_a_size() -> None:
    """A court card's picture is no paper white: the hole it leaves in the whiteness foreground
    is filled, so that a card completed from its corners over it lies on foreground (the covered
    jack of clubs of edje-tfod's IMG_2678 fell to 0.90 of the 0.95 asked); a hole larger than
    the largest card, and the table outside, stay."""
    mask = np.zeros((200, 300), np.uint8)
    cv2.rectangle(mask, (10, 10), (110, 150), 255, -1)
    cv2.rectangle(mask, (30, 40), (90, 120), 0, -1)  # the picture: 61 x 81 px
    cv2.rectangle(mask, (150, 10), (290, 190), 255, 4)  # a frame round a large hole
    _fill_holes(mask, most=6000)
    assert (mask[40:121, 30:91] == 255).all()
    assert (mask[30:170, 170:270] == 0).all()
    assert (mask[160:, :140] == 0).all() and mask[5, 5] == 0


def test_a_completed_card_takes_the_place_of_a_piece_of_it_kept_first() -> None:
    """The index box of a covered card, outlined on its own, outscored the card completed from
    its corners (edje-tfod: about 20 covered cards lost so): the card is kept, the piece becomes its
    alternate. A quad half the card's size within it (another card, in a pile) is not a piece:
    the completion gives way to it, as before."""
    card = card_quad((200, 200), 90, 0.1)
    index = card_quad((200 - 30, 200 - 45), 24, 0.1)  # a tenth of the card's area, in its corner
    kept = suppress([Candidate(index, 0.9, True), Candidate(card, 0.7, True)], 0.45)
    assert len(kept) == 1 and np.array_equal(kept[0].quad, card)
    assert any(np.array_equal(a, index) for a in kept[0].alternates)
    half = card_quad((200, 200 - 30), 64, 0.1)
    kept = suppress([Candidate(half, 0.9, True), Candidate(card, 0.7, True)], 0.45)
    assert len(kept) == 1 and np.array_equal(kept[0].quad, half)


def test_a_card_seen_whole_is_kept_beside_its_index_box_scored_higher() -> None:
    """The index box of an ace, outlined as a quad of its own and scored higher, suppressed the
    ace (edje-tfod's IMG_2473): both are kept, for the identifier to name one and refuse the
    other. A quad half the card's size within it still clashes: the better one wins."""
    card = card_quad((200, 200), 90, 0.1)
    index = card_quad((200 - 33, 200 - 48), 16, 0.1)  # 4 % of the card, in its corner
    kept = suppress([Candidate(index, 0.9), Candidate(card, 0.77)], 0.45)
    assert [len(k.quad) for k in kept] == [4, 4]
    assert np.array_equal(kept[0].quad, index) and np.array_equal(kept[1].quad, card)
    half = card_quad((200, 200 - 30), 64, 0.1)
    kept = suppress([Candidate(half, 0.9), Candidate(card, 0.77)], 0.45)
    assert len(kept) == 1 and np.array_equal(kept[0].quad, half)


def test_two_cards_side_by_side_stay_two(detector: Detector) -> None:
    img = table(70)
    left, right = card_quad((280, 180), 80, 0.0), card_quad((365, 180), 80, 0.0)  # 5 px apart
    lay(img, "2C", left)
    lay(img, "3D", right)
    dets = detector.detect(img)
    assert match(dets, left)[0] > 0.85 and match(dets, right)[0] > 0.85


@pytest.mark.parametrize("level", [50, 190])
def test_card_running_off_the_frame_is_completed_past_its_edge(level: int) -> None:
    """A card a fifth out of the camera's view, beside two whole ones that give the card size:
    what lies off the frame is unknown, not table, so the outline model's card is completed past
    the edge (not completed past it, 0.57 and 0.21 of it were found); its corners well
    inside the frame are exact."""
    detector = DETECTORS["shipped"]
    if detector.outline is None:
        pytest.skip("the outline model is not built")
    img = table(level)
    lay(img, "4D", card_quad((120, 180), 90, 0.1))
    lay(img, "9C", card_quad((260, 180), 90, -0.15))
    cut = card_quad((620, 170), 90, 0.25)  # a fifth of it lies past x = 640
    lay(img, "KH", cut)
    iou, corners = match(detector.detect(img), cut)
    assert iou >= 0.7  # detected, as the benchmarks count it
    clear = cut[:, 0] < 600  # the corners well inside the frame
    assert np.linalg.norm(corners[clear] - cut[clear], axis=1).max() < 6


@pytest.mark.parametrize("level", [50, 120])
def test_a_card_partly_under_a_book_is_completed_under_it(level: int, detector: Detector) -> None:
    """A book covers the right 30 % of the nine, along its long side (edje-tfod's cards under
    books, rugs and game boxes). What the book hides is no foreground, so completions that must
    lie on it found only pieces of the card's visible strip (IoU 0.24); the card completed from
    its whole left side, partly under the book, is found, its visible corners exact."""
    img = table(level)
    card = card_quad((300, 180), 100, 0.3)
    lay(img, "9C", card)
    top, bottom = card[0] + 0.7 * (card[1] - card[0]), card[3] + 0.7 * (card[2] - card[3])
    away = (card[1] - card[0]) * 3
    lay_book(img, top, bottom, away, 0.3)
    for k in range(1, 7):  # lines of print
        cv2.line(
            img, tuple((top + away * k / 8).astype(int)), tuple((bottom + away * k / 8).astype(int)), (230, 230, 240), 2
        )
    iou, corners = match(detector.detect(img), card)
    assert iou > 0.85
    assert corners is not None and np.linalg.norm(corners[[0, 3]] - card[[0, 3]], axis=1).max() < 6


@pytest.mark.parametrize("level", [50, 120])
def test_the_visible_end_of_a_card_under_a_book_offers_the_whole_card(level: int, detector: Detector) -> None:
    """The far half of a six lies under a book (the virtual table's resting hand kept such a
    card unconfirmed for 12 frames): its visible end is as wide as the card and about half as
    long, a quad of card aspect turned a quarter, read crosswise and refused. Beside three cards
    that set the table's card size, the whole card, run from that end under the book, is among
    its alternates, and the second look names it with its whole outline."""
    img = table(level)
    for k, card_id in enumerate(["KS", "3H", "QC"]):
        lay(img, card_id, card_quad((80 + 120 * k, 90), 80, 0.1 * k))
    card = card_quad((430, 200), 80, 0.25)
    lay(img, "6D", card)
    lay_book(
        img, card[0] + 0.5 * (card[3] - card[0]), card[1] + 0.5 * (card[2] - card[1]), (card[0] - card[3]) * 2, 0.4
    )
    dets = detector.detect(img)
    assert match(dets, card)[0] < 0.6  # the visible end, as a card of its own
    assert max(polygon_iou(q, card) for d in dets for q in d.alternates) > 0.85
    named = [d for d, a in name_cards(Identifier("standard-52"), detector, img, dets) if a.card_id == "6D"]
    assert len(named) == 1 and polygon_iou(named[0].corners, card) > 0.85


def test_a_completion_comes_both_ways_round() -> None:
    """The near end of a card whose far part lies under a book (a coin on one of its corners, so
    its outline is no quad): completed from its whole end side, the card a quarter turned lies
    wholly on the visible end and is better supported than the card itself, which runs under
    the book (`edje-tfod`'s cards under books and toys, their index crops on blank paper). The
    turned one competes for the place; the card itself, dropped before, is offered the other
    way round, to become an alternate (competing, it beat the card of the test above)."""
    mask = np.zeros((360, 640), np.uint8)
    mask[100:177, 200:301] = 255  # the visible 55 % of a card 100 x 140 px, to the book's edge
    mask[162:177, 286:301] = 0  # the coin
    edges = np.zeros_like(mask)
    cv2.rectangle(edges, (200, 100), (300, 177), 255, 2)
    edges[160:179, 284:303] = 0
    cnt = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    card = np.array([[200, 100], [300, 100], [300, 240], [200, 240]], np.float32)
    turned = np.array([[200, 100], [300, 100], [300, 171], [200, 171]], np.float32)
    better, other_way = partial_quads(Outline(cnt, mask, False), edges, 500.0, 1e5, None, 1e5, DetectorConfig())
    assert max(polygon_iou(c.quad, turned) for c in better) > 0.9
    assert max(polygon_iou(c.quad, card) for c in better) < 0.9
    assert max(polygon_iou(c.quad, card) for c in other_way) > 0.9


def test_a_spare_is_only_ever_an_alternate() -> None:
    """A completion the other way round (a spare) joins the alternates of the quad it overlaps,
    in its place by score, and is dropped where it overlaps none: it never takes a place."""
    card = card_quad((300, 200), 80, 0.0)
    near, lone = card + (10, 30), card_quad((600, 200), 80, 0.0)
    ((quad, alternates),) = [
        (k.quad, k.alternates)
        for k in suppress([Candidate(card, 0.5, True)], 0.45, [Candidate(near, 0.9, True), Candidate(lone, 0.9, True)])
    ]
    assert quad is card and len(alternates) == 1 and alternates[0] is near


def test_completions_that_agree_outrank_a_lone_one() -> None:
    """A card completed alike from three of its corners outranks a wrong completion of the same
    card that scored a little higher on its own (a stripe taken for a side); the completions that
    agree are not merged, each keeps its own quad."""
    true = card_quad((300, 200), 80, 0.3)
    wrong = card_quad((318, 190), 80, 0.45)
    cands = [Candidate(true + d, 0.5, True) for d in ((0, 0), (1.5, -1), (-1, 2))] + [Candidate(wrong, 0.55, True)]
    ranked = agreed(cands)
    assert [c.quad for c in ranked][:3] == [c.quad for c in cands][:3]
    assert ranked[3].score == pytest.approx(0.55)
    assert min(c.score for c in ranked[:3]) > ranked[3].score


def test_a_card_merged_with_a_pale_strip_is_cut_out_at_the_end_its_edges_show() -> None:
    """The outline model may merge a card with a white stripe beside it into one region too long
    for a card; a card-sized rectangle is cut at either end, and the end where the card's own
    outline shows scores higher."""
    card = card_quad((200, 150), 60, 0.0)  # 60 x 84, long side vertical
    strip = np.array([[170, 192], [230, 192], [230, 252], [170, 252]], np.float32)  # below it
    region = np.zeros((320, 400), np.uint8)
    cv2.fillPoly(region, [np.round(card).astype(np.int32), np.round(strip).astype(np.int32)], 255)
    cnt = max(cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    edges = np.zeros_like(region)
    cv2.polylines(edges, [np.round(card).astype(np.int32)], True, 255, 3)
    area = 320 * 400
    cut = trimmed(cnt, edges, 0.003 * area, 0.6 * area, 0.6 * area, DetectorConfig())
    assert len(cut) == 2
    best = max(cut, key=lambda c: c.score)
    assert polygon_iou(best.quad, card) > 0.85 and best.partial
    assert all(abs(np.log(quad_aspect(order_corners(c.quad)) / CARD_ASPECT)) < 0.05 for c in cut)


def test_a_quad_with_a_side_on_the_frame_edge_is_not_a_whole_card() -> None:
    """A region cut off by the frame has the frame's edge for a side: not a card seen whole (a
    light patch of table between two hands at the top of the frame was named AD that way); a
    card only touching the edge with a corner still is one."""
    assert on_frame_edge(np.array([[648, 0], [1118, 0], [1118, 332], [648, 332]], np.float32), (720, 1280))
    assert on_frame_edge(np.array([[10, 100], [1279, 100], [1279, 300], [10, 300]], np.float32), (720, 1280))
    assert not on_frame_edge(card_quad((80, 60), 80, 0.4), (720, 1280))
    assert not on_frame_edge(np.array([[0, 50], [60, 0], [120, 80], [60, 130]], np.float32), (720, 1280))


def test_a_large_frame_is_analysed_at_its_own_scale(detector: Detector) -> None:
    img = table(60, size=(2560, 1440))
    quad = card_quad((1200, 700), 300, 0.4)
    lay(img, "KD", quad)
    iou, corners = match(detector.detect(img), quad)
    assert iou > 0.95 and corner_error(corners, quad) < 6


@settings(max_examples=20, deadline=None)
@given(
    offsets=st.lists(
        st.tuples(st.floats(-12, 12), st.floats(-12, 12), st.floats(-0.3, 0.3), st.floats(0.8, 1.3)),
        min_size=1,
        max_size=6,
    ),
    reach=st.none() | st.floats(3, 30),
)
def test_outlines_refined_together_get_the_corners_each_gets_alone(
    offsets: list[tuple[float, float, float, float]], reach: float | None
) -> None:
    """``refine_quads`` samples the sides of every outline at once, padding the shorter
    profiles of the smaller outlines: each outline must still get exactly the corners it gets
    refined alone, whatever the others' sizes and reaches."""
    img = table("heldout/oak", size=(640, 360))
    cards = [card_quad((160, 180), 80, 0.3), card_quad((420, 170), 95, 1.9)]
    for card_id, quad in zip(("QS", "8H"), cards, strict=True):
        lay(img, card_id, quad)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    quads = []
    for k, (dx, dy, turn, scale) in enumerate(offsets):
        centre = cards[k % 2].mean(axis=0) + np.float32([dx, dy])
        quads.append(card_quad(tuple(centre), (80, 95)[k % 2] * scale, (0.3, 1.9)[k % 2] + turn))
    reaches = None if reach is None else [reach * (1 + k % 3) for k in range(len(quads))]
    together = refine_quads(gray, quads, reaches)
    alone = [refine_quads(gray, [q], None if reaches is None else [reaches[k]])[0] for k, q in enumerate(quads)]
    assert all(np.array_equal(a, b) for a, b in zip(together, alone, strict=True))


@settings(max_examples=30, deadline=None)
@given(angles=st.lists(st.floats(0, np.pi), min_size=1, max_size=8), seed=st.integers(0, 10_000))
def test_lines_fitted_together_are_each_line_fitted_alone(angles: list[float], seed: int) -> None:
    """``refine_quads`` fits a frame's sides in one call: each row must get the line its own
    points give, and a point off the line (an index, a dent) must not pull it."""
    rng = np.random.default_rng(seed)
    rows, use, want = [], [], []
    for angle in angles:
        d = np.array([np.cos(angle), np.sin(angle)])
        pts = rng.uniform(0, 500, 2) + np.outer(np.linspace(0, 60, 12), d) + rng.normal(0, 0.2, (12, 2))
        stray = int(rng.integers(12))
        pts[stray] += 6 * np.array([-d[1], d[0]])  # one point 6 px off the line
        mask = np.ones(12, bool)
        mask[rng.choice(12, int(rng.integers(0, 5)), replace=False)] = False
        rows.append(pts)
        use.append(mask)
        want.append(np.delete(pts, stray, axis=0)[np.delete(mask, stray)])
    together = fit_lines(np.array(rows), np.array(use))
    for line, pts, mask, inliers in zip(together, rows, use, want, strict=True):
        alone = fit_lines(pts[mask][None], np.ones((1, int(mask.sum())), bool))[0]
        assert np.allclose(line, alone, atol=1e-9)
        # the stray point dropped: the line runs through the others, not 1/n of 6 px beside them
        # as a plain fit of n points would (at most half that)
        across = (inliers[:, 0] - line[2]) * line[1] - (inliers[:, 1] - line[3]) * line[0]
        assert abs(float(across.mean())) < 3 / int(mask.sum())


@pytest.mark.parametrize("level", [40, 90])
def test_a_pale_worktop_round_a_card_does_not_cost_the_card(level: int) -> None:
    """A worktop of card shape filling most of the frame is a close-up's candidate
    (``DetectorConfig.close_up_area``); offered with the cards of the usual size, it set their
    size and suppressed the card on it (`edje-tfod` IMG_2508's jack of diamonds)."""
    img = table(level, size=(640, 480))
    cv2.fillPoly(img, [card_quad((320, 240), 390, np.pi / 2 + 0.03).astype(np.int32)], (190, 200, 205))
    quad = card_quad((250, 250), 80, 0.5)
    lay(img, "7C", quad)
    iou, corners = match(DETECTORS["shipped"].detect(img), quad)
    assert iou > 0.95 and corner_error(corners, quad) < 3


BAD_FRAMES = {
    "none": None,
    "list": [[1, 2, 3]],
    "empty": np.zeros((0, 0, 3), np.uint8),
    "1x1": np.zeros((1, 1, 3), np.uint8),
    "grey": np.full((720, 1280, 3), 128, np.uint8),
    "white": np.full((720, 1280, 3), 255, np.uint8),
    "float": np.random.default_rng(0).random((720, 1280, 3)),
    "uint16": np.zeros((720, 1280, 3), np.uint16),
    "2 channels": np.zeros((720, 1280, 2), np.uint8),
    "huge": np.broadcast_to(np.uint8(200), (8000, 8000, 3)),
    "noise": np.random.default_rng(1).integers(0, 256, (360, 640, 3), dtype=np.uint8),
}


def test_a_card_on_top_of_a_pile_is_not_taken_for_a_piece_of_the_pile() -> None:
    """Held-out pile 900004: the outline model calls the whole pile one region, and a card-shaped
    quad cut from it, 4.5 times a card, took the jack of clubs lying whole on top for a piece of
    it. Once the cards seen whole set the table's card size, nothing completed or cut is larger
    than PARAMS.complete.completed_size times it; the jack is found."""
    scene = render_scene("standard-52", 8, 900004, (1280, 720), split="heldout", overlap=True)
    jack = next(c for c in scene.cards if c.card_id == "JC")
    assert jack.occluded == 0
    found = DETECTORS["shipped"].detect(scene.image)
    assert max(polygon_iou(d.corners, jack.corners) for d in found) > 0.8
    card = cv2.contourArea(jack.corners.astype(np.float32))
    assert all(cv2.contourArea(d.corners) <= 1.2 * PARAMS.complete.completed_size * card for d in found)


@pytest.mark.parametrize("level", [60, 215])
def test_a_refit_finds_the_edges_further_out_than_the_refinement(level: int) -> None:
    """An outline shifted along the card by nearly PARAMS.refit.reach of its short side (beyond the
    usual refinement's reach) is refitted onto the card, on a dark and on a pale table; one
    already on its card gives no refit (a second look would read the same), nor does a
    garbage frame."""
    img = table(level)
    quad = card_quad((320, 180), 100, 0.4)
    lay(img, "7D", quad)
    off = order_corners(shifted_along(quad, 0.95 * PARAMS.refit.reach))
    detector = DETECTORS["hand cues"]
    (plain,) = detector.look_again(img, [off])
    assert np.abs(plain.corners - order_corners(quad)).max() > 3
    fitted, same = detector.refit(img, [off, quad])
    assert fitted is not None and np.abs(fitted - order_corners(quad)).max() < 2
    assert same is None
    assert detector.refit(np.zeros((1, 1), np.uint8), [off]) == [None]


@pytest.mark.parametrize("name", sorted(BAD_FRAMES))
def test_garbage_frames_give_no_card_and_no_error(name: str, detector: Detector) -> None:
    assert detector.detect(BAD_FRAMES[name]) == []


def test_grey_and_four_channel_frames_are_accepted(detector: Detector) -> None:
    img = table(60)
    lay(img, "AS", card_quad((320, 180), 80, 0.3))
    gray = img[:, :, 0].copy()
    bgra = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    assert as_bgr(gray).shape == img.shape and as_bgr(bgra).shape == img.shape
    assert len(detector.detect(bgra)) == 1


def test_real_photos_regression_floor(real_cards: Path, detector: Detector) -> None:
    """edje-tfod test split (phone and webcam photos, clutter, overlaps): a floor that catches a
    regression; the target and the measured figure are in bench/bench_real_photos.py and
    docs/vision.md. Skipped where ../shared is absent (the ``real_cards`` fixture)."""
    bench = bench_module("bench_real_photos")
    folder = real_cards / "edje-tfod" / "test"
    boxed = found = 0
    for photo in sorted(p for p in folder.iterdir() if p.suffix.lower() == ".jpg"):
        labels = bench.load_boxes(photo.with_suffix(".xml"))
        img = cv2.imread(str(photo))
        dets = detector.detect(img)
        boxed += len(labels)
        found += len(bench.match([b for _, b in labels], [d.corners for d in dets], img.shape))
    assert boxed > 100 and found / boxed >= 0.65


@settings(max_examples=60, deadline=None)
@given(angle=st.floats(-np.pi, np.pi), offset=st.floats(0.6, 1.2))
def test_the_ends_of_a_quad_over_a_fan_are_its_end_cards(angle: float, offset: float) -> None:
    """Two cards fanned side by side, their top and bottom edges in one line, outline as one quad
    from the left card's left side to the right card's right side, of card aspect crosswise
    where the top card leaves 0.6 to 1.4 of the other's width in view (edje-tfod's IMG_2649 and
    IMG_2667); its fan ends are the two cards."""
    step = offset * 110 * np.array([np.cos(angle), np.sin(angle)], np.float32)
    left = card_quad((320, 240), 110, angle)
    right = left + step
    across = np.array([left[0], right[1], right[2], left[3]], np.float32)
    ends = fan_ends(across)
    square = quad_aspect(order_corners(across)) < PARAMS.looks.pair_aspect  # (offsets under 0.68)
    assert len(ends) == (4 if square else 2)
    assert min(max(polygon_iou(e, card) for e in ends) for card in (left, right)) > 0.9


@settings(max_examples=60, deadline=None)
@given(angle=st.floats(-np.pi, np.pi), offset=st.floats(0.25, 0.55), turn=st.floats(-0.15, 0.15))
def test_a_near_square_quad_over_a_fanned_pair_has_both_cards_among_its_ends(
    angle: float, offset: float, turn: float
) -> None:
    """A card laid over another, a quarter to a half of a card's width across and turned up to
    9 degrees, leaves a strip of it with its index in view: the pair outlines as one quad about
    as wide as long, either side of which may be the cards' long side. Its fan ends are taken
    both ways round, and among them are both cards (near enough for
    :meth:`~kiosk.vision.detect.Detector.look_again` to refine onto their edges)."""
    under = card_quad((320, 240), 110, angle)
    along = np.array([np.cos(angle), np.sin(angle)], np.float32)
    top_centre = np.array([320, 240], np.float32) - offset * 110 * along
    top = card_quad((float(top_centre[0]), float(top_centre[1])), 110, angle + turn)
    pair = cv2.boxPoints(cv2.minAreaRect(np.concatenate([under, top]).astype(np.float32)))
    ends = fan_ends(pair)
    assert min(max(polygon_iou(e, card) for e in ends) for card in (under, top)) > 0.8


@settings(max_examples=60, deadline=None)
@given(angle=st.floats(-np.pi, np.pi), offset=st.floats(0.25, 0.5), cards=st.integers(3, 5))
def test_the_slices_of_a_quad_over_a_fan_hold_its_middle_cards(angle: float, offset: float, cards: int) -> None:
    """Three to five cards fanned side by side, each a quarter to a half of a card's width past
    the one under it, so that the fan is wider than a card is long (edje-tfod's IMG_2655):
    between the fan's two ends, windows PARAMS.looks.fan_step of a card's width apart; every middle card
    lies within half a step of one (:meth:`Detector.look_again` refines the rest)."""
    step = offset * 110 * np.array([np.cos(angle), np.sin(angle)], np.float32)
    fan = [card_quad((200, 240), 110, angle) + k * step for k in range(cards)]
    across = np.array([fan[0][0], fan[-1][1], fan[-1][2], fan[0][3]], np.float32)
    slices = fan_slices(across)
    gaps = np.linalg.norm(np.diff([q.mean(axis=0) for q in slices], axis=0), axis=1)
    assert gaps.max() <= 1.01 * PARAMS.looks.fan_step * 110
    for card in fan[1:-1]:  # corners compared in any cyclic order: near 45 degrees which corner
        # order_corners calls the first flips between two quads a pixel apart
        assert (
            min(float(np.abs(np.roll(q, k, axis=0) - card).max()) for q in slices for k in range(4))
            <= 0.5 * PARAMS.looks.fan_step * 110 + 1
        )


@settings(max_examples=60, deadline=None)
@given(angle=st.floats(-np.pi, np.pi), side=st.floats(40, 200))
def test_the_card_round_a_court_cards_picture_frame_is_the_card(angle: float, side: float) -> None:
    """A court card's picture frame, outlined on its own where the card's edge does not show on a
    pale table (edje-tfod's IMG_2477), is centred in the card at FRAME_IN_CARD of its sides: the
    card round it is the card, at any rotation and size."""
    card = card_quad((320, 240), side, angle)
    grown = frame_card(picture_frame(card))
    assert np.abs(order_corners(grown) - order_corners(card)).max() < 0.01 * side


def test_a_quad_far_smaller_than_the_tables_cards_is_not_a_card() -> None:
    """An index box or a pip outlined on a card is card-shaped but a tenth of a card's area; once
    three cards seen whole set the size, it is dropped. A card nearer the camera (0.8x its
    sides) is kept, and with fewer than three cards seen nothing is dropped."""

    def rect(w: float, h: float) -> np.ndarray:
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)

    sized = table_sized((60.0, 84.0), whole=3)
    assert not sized(rect(20, 28))
    assert sized(rect(48, 67)) and sized(rect(60, 84))
    assert table_sized((60.0, 84.0), whole=2)(rect(20, 28))
    assert table_sized(None, whole=0)(rect(20, 28))


def test_a_model_region_twice_the_tables_cards_is_two_cards_side_by_side() -> None:
    """Two portrait cards side by side make a landscape quad of card aspect (1.43 against 1.40):
    the outline model merged the ten and four of spades of a held-out scene on white cloth so,
    and the ten was lost. Once three cards set the table's size, such a region of twice a
    card's area is replaced by a card at either end, where the gap between them shows; a card a
    little nearer the camera stays whole, and so does a quad of the hand-set cues."""

    def rect(x: float, w: float, h: float) -> np.ndarray:
        return np.array([[x, 100], [x + w, 100], [x + w, 100 + h], [x, 100 + h]], np.float32)

    cards = [Candidate(rect(x, 60, 84), 1.0) for x in (0, 80, 160)]
    near = Candidate(rect(240, 68, 95), 0.85, from_model=True)  # 1.13x the sides
    left, right = rect(400, 60, 84), rect(464, 60, 84)  # 4 px apart
    pair = Candidate(rect(400, 124, 84), 0.6, from_model=True)
    by_hand = replace(pair, from_model=False)
    edges = np.zeros((300, 700), np.uint8)
    cv2.polylines(edges, [np.round(q).astype(np.int32) for q in (left, right)], True, 255, 2)
    whole, halves = split_pairs([*cards, near, pair], (60.0, 84.0), edges)
    assert whole == [*cards, near]
    assert len(halves) == 2 and all(h.partial for h in halves)
    assert max(polygon_iou(h.quad, left) for h in halves) > 0.9
    assert max(polygon_iou(h.quad, right) for h in halves) > 0.9
    assert min(h.score for h in halves) > 0.6  # their outlines are on edges
    assert split_pairs([*cards, by_hand], (60.0, 84.0), edges) == ([*cards, by_hand], [])
    assert split_pairs([cards[0], pair], (60.0, 84.0), edges) == ([cards[0], pair], [])
    one = np.zeros_like(edges)  # one big card: no gap between its halves
    cv2.polylines(one, [np.round(pair.quad).astype(np.int32)], True, 255, 2)
    assert split_pairs([*cards, pair], (60.0, 84.0), one) == ([*cards, pair], [])


@given(st.floats(30, 300), st.floats(0, 2 * np.pi), st.integers(0, 3), st.booleans())
def test_a_cards_sides_are_its_width_and_length_whatever_way_it_lies(
    width: float, angle: float, start: int, backwards: bool
) -> None:
    """What the naming's small-card rule and the table's card size measure: the card's width
    and length, from its corners in either order round it, starting at any of them."""
    quad = np.roll(card_quad((400, 300), width, angle), start, axis=0)
    short, long_ = card_sides(quad[::-1] if backwards else quad)
    assert short == pytest.approx(width, rel=1e-4) and long_ == pytest.approx(width * ASPECT, rel=1e-4)
