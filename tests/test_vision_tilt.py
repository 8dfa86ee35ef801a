"""A card seen at a tilt (kiosk.vision.tilt): its view, the frame's fitted view, and the way
round a card's corners are taken."""

from __future__ import annotations

import math

import cv2
import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kiosk.render.scenes import tilted_away
from kiosk.vision.card_fit import card_shapes
from kiosk.vision.complete import partial_quads
from kiosk.vision.geometry import CARD_ASPECT, order_corners, polygon_iou
from kiosk.vision.params import PARAMS, DetectorConfig
from kiosk.vision.propose import Outline
from kiosk.vision.tilt import Tilt, card_views

CONFIG = DetectorConfig()
TOLERANCE = CONFIG.aspect_tolerance
CARD = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float64)


def _seen(turn: float, tilt: float, across: float, scale: float, at: tuple[float, float]) -> np.ndarray:
    """The card turned by ``turn`` on the table, then compressed by cos ``tilt`` along the
    direction ``across`` (a camera tilted that way, to first order), scaled and moved."""
    c, s = math.cos(turn), math.sin(turn)
    pts = (CARD - CARD.mean(axis=0)) @ np.array([[c, -s], [s, c]]).T
    d = np.array([math.cos(across), math.sin(across)])
    pts = pts - (1 - math.cos(tilt)) * np.outer(pts @ d, d)
    return order_corners((pts * scale + np.array(at)).astype(np.float32))


@settings(max_examples=60, deadline=None)
@given(
    turn=st.floats(0, 2 * math.pi),
    tilt=st.floats(0, math.radians(50)),
    across=st.floats(0, math.pi),
    scale=st.floats(0.5, 3),
)
def test_a_card_seen_at_a_tilt_has_the_view_of_that_tilt(turn: float, tilt: float, across: float, scale: float) -> None:
    """Whatever its place, turn and size, a card compressed by cos t has a view of length
    -log cos t one way round (the other way may be shorter: a crosswise card squashed across
    looks nearly square), and does not converge."""
    views, depth = card_views(_seen(turn, tilt, across, scale, (300, 200))[None])
    assert np.isfinite(views).all()
    assert np.abs(np.linalg.norm(views[0], axis=1) + math.log(math.cos(tilt))).min() < 1e-3
    assert abs(depth[0] - 1) < 1e-6


def test_a_rectangle_seen_from_above_differs_by_its_aspect() -> None:
    """Seen from above, a rectangle's error is |log(aspect / CARD_ASPECT)|: the 2-D aspect test."""
    for aspect in (1.0, 1.2, CARD_ASPECT, 1.7, 2.2):
        quad = order_corners(np.array([[0, 0], [100, 0], [100, 100 * aspect], [0, 100 * aspect]], np.float32))
        error = Tilt.flat().errors(quad[None])[0]
        assert abs(error - abs(math.log(aspect / CARD_ASPECT))) < 1e-4


def test_a_quad_that_converges_too_much_or_is_too_steep_is_no_card() -> None:
    trapezoid = order_corners(np.array([[40, 0], [60, 0], [100, 140], [0, 140]], np.float32))
    strip = order_corners(np.array([[0, 0], [40, 0], [40, 200], [0, 200]], np.float32))
    errors = Tilt.flat().errors(np.stack([trapezoid, strip]))
    assert np.isinf(errors).all()
    assert card_views(trapezoid[None])[1][0] > PARAMS.propose.max_depth


GRID = [(x, y) for y in (130, 360, 590) for x in (200, 500, 800, 1080)]


def _tilted_frame(
    k: float, places: list[tuple[int, int]] = GRID, scale: float = 1.4
) -> tuple[np.ndarray, tuple[int, int]]:
    """Twelve cards laid in a grid (or at ``places``), half crosswise, seen by a camera tilted
    away: the frame's top edge shrunk to ``k`` of its width (as ``bench/bench_detect.py --tilt``
    shows them)."""
    w, h = 1280, 720
    view = tilted_away((w, h), k)
    quads = []
    for n, (x, y) in enumerate(places):
        card = _seen(math.pi / 2 * (n % 2) + 0.1 * n, 0.0, 0.0, scale, (x, y)).astype(np.float32)
        quads.append(order_corners(cv2.perspectiveTransform(card[:, None], view)[:, 0]))
    return np.stack(quads), (h, w)


def test_a_tilted_frame_is_fitted_and_its_cards_fit_it() -> None:
    """At a 35-degree tilt some cards lie outside the 2-D aspect bounds; the fitted view takes
    them all as cards, and turns each so that its first side is the card's short side."""
    quads, shape = _tilted_frame(0.65)
    flat = Tilt.flat().errors(quads)
    assert (flat > TOLERANCE).any()
    tilt = Tilt.fitted(quads, shape, TOLERANCE)
    assert tilt.coef is not None
    assert (tilt.errors(quads) <= TOLERANCE).all()
    turned = tilt.ordered(quads)
    views = card_views(turned)[0]
    expected = tilt._positions(turned) @ tilt.coef
    assert (np.linalg.norm(views[:, 0] - expected, axis=1) <= np.linalg.norm(views[:, 1] - expected, axis=1)).all()


def test_cards_seen_from_above_give_no_tilt() -> None:
    """Where the view from above takes every card, the frame is taken as seen from above, and a
    strip of twice a card's aspect among them stays no card."""
    quads, shape = _tilted_frame(1.0)
    strip = order_corners(np.array([[600, 300], [660, 300], [660, 480], [600, 480]], np.float32))
    tilt = Tilt.fitted(np.concatenate([quads, strip[None]]), shape, TOLERANCE)
    assert tilt.coef is None
    assert tilt.errors(strip[None])[0] > TOLERANCE
    assert (tilt.ordered(quads) == quads).all()


def _one_view(tilt_deg: float) -> tuple[np.ndarray, tuple[int, int]]:
    """Twelve cards at various turns, all seen compressed by the cosine of ``tilt_deg`` along
    the frame's vertical (a view that does not vary over the frame)."""
    quads = [
        _seen(0.4 * n, math.radians(tilt_deg), math.pi / 2, 1.4, (x, y))
        for n, (x, y) in enumerate((x, y) for y in (130, 360, 590) for x in (200, 500, 800, 1080))
    ]
    return np.stack(quads), (720, 1280)


def test_a_plain_tilt_is_fitted_even_where_its_cards_pass_for_seen_from_above() -> None:
    """At 33 degrees every card's view (0.18) is still within the 2-D aspect bounds, so the fit
    gains no card; but the view is plainly not the one from above (``propose.tilt_plain``), and
    judged against it the cards fit far better."""
    quads, shape = _one_view(33)
    assert (Tilt.flat().errors(quads) <= TOLERANCE).all()
    tilt = Tilt.fitted(quads, shape, TOLERANCE)
    assert tilt.coef is not None
    assert tilt.errors(quads).max() < 0.02 < Tilt.flat().errors(quads).min()


@settings(max_examples=40, deadline=None)
@given(
    turns=st.lists(st.floats(0, math.pi), min_size=8, max_size=8),
    across=st.lists(st.floats(1.3, 1.5), min_size=8, max_size=8),
)
def test_pairs_of_cards_half_over_each_other_give_no_tilt(turns: list[float], across: list[float]) -> None:
    """Seen from above, a card laid a third to a half of its width across another outlines the
    pair as one rectangle about as wide as long, at whatever turn the pair lies: each looks like
    a card seen at 40 degrees, along one side or the other. Such outlines tell no way round
    (``propose.tilt_way``), so however they lie the frame is not taken as seen at a tilt."""
    quads = []
    for n, (turn, wide) in enumerate(zip(turns, across, strict=True)):
        x, y = GRID[n]
        c, s = math.cos(turn), math.sin(turn)
        rect = np.array([[0, 0], [63 * wide, 0], [63 * wide, 88], [0, 88]]) - [63 * wide / 2, 44]
        quads.append(order_corners((1.4 * rect @ np.array([[c, -s], [s, c]]).T + [x, y]).astype(np.float32)))
    assert Tilt.fitted(np.stack(quads), (720, 1280), TOLERANCE).coef is None


def test_a_slight_tilt_whose_cards_pass_is_taken_as_seen_from_above() -> None:
    quads, shape = _one_view(20)
    assert Tilt.fitted(quads, shape, TOLERANCE).coef is None


def test_a_tilted_frame_knows_how_large_a_card_looks_at_each_place() -> None:
    """Cards nearer the camera look larger; the fitted size at each card's place is its own,
    though pieces of cards (a court's picture frame, with a card's view and a third of its
    area) lie among them."""
    quads, shape = _tilted_frame(0.65)
    pieces, _ = _tilted_frame(0.65, [(350, 245), (650, 245), (950, 245), (350, 475)], scale=0.8)
    tilt = Tilt.fitted(np.concatenate([quads, pieces]), shape, TOLERANCE)
    areas = np.abs([cv2.contourArea(q) for q in quads])
    fitted = tilt.area_at(quads.mean(axis=1))
    assert fitted is not None
    assert np.abs(np.log(fitted / areas)).max() < 0.1
    top, bottom = fitted[:4].mean(), fitted[-4:].mean()
    assert top < 0.8 * bottom
    assert np.allclose(tilt.scaled(2.0).area_at(quads.mean(axis=1) * 2), fitted * 4)  # type: ignore[operator]


def test_too_few_cards_give_no_tilt() -> None:
    quads, shape = _tilted_frame(0.65)
    assert Tilt.fitted(quads[:2], shape, TOLERANCE).coef is None


def test_a_fitted_view_holds_for_the_frame_scaled() -> None:
    quads, shape = _tilted_frame(0.65)
    tilt = Tilt.fitted(quads, shape, TOLERANCE)
    assert np.allclose(tilt.scaled(2.0).errors(quads * 2), tilt.errors(quads), atol=1e-6)


@settings(max_examples=40, deadline=None)
@given(turn=st.floats(0, 2 * math.pi), tilt=st.floats(0, math.radians(45)), across=st.floats(0, math.pi))
def test_the_flattening_of_a_cards_view_gives_it_back_as_seen_from_above(
    turn: float, tilt: float, across: float
) -> None:
    """Mapped by the flattening of its own view, a card seen at a tilt has right angles and the
    card's aspect, at its area; the view from above flattens nothing."""
    quad = _seen(turn, tilt, across, 2.0, (300, 200)).astype(np.float64)
    view = card_views(quad[None])[0][0, 0]
    flattening = Tilt((400, 600), np.array([view, [0, 0], [0, 0]])).flattening(quad.mean(axis=0)[None])[0]
    flat = quad @ flattening.T
    short, long_ = flat[1] - flat[0], flat[3] - flat[0]
    assert abs(short @ long_) / (np.linalg.norm(short) * np.linalg.norm(long_)) < 1e-3
    assert abs(np.linalg.norm(long_) / np.linalg.norm(short) - CARD_ASPECT) < 1e-3
    assert abs(np.linalg.det(flattening) - 1) < 1e-9
    assert np.allclose(Tilt.flat().flattening(quad), np.eye(2))


def test_a_card_is_completed_in_the_frames_view() -> None:
    """A card seen at 35 degrees, shortened along its length, a coin on one corner (its outline
    no quad): completed from its whole near side in the frame's view it is that card; drawn as
    seen from above (the side times the card's aspect) it runs past the card's far end."""
    card = _seen(0.0, math.radians(35), math.pi / 2, 2.0, (320, 200))
    mask = np.zeros((400, 640), np.uint8)
    cv2.fillPoly(mask, [np.round(card).astype(np.int32)], 255)
    edges = np.zeros_like(mask)
    cv2.polylines(edges, [np.round(card).astype(np.int32)], True, 255, 2)
    x, y = np.round(card[2]).astype(int)
    mask[y - 20 : y + 1, x - 20 : x + 1] = 0
    edges[y - 22 : y + 3, x - 22 : x + 3] = 0
    cnt = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    view = card_views(card[None])[0][0, 0]
    tilt = Tilt(mask.shape, np.array([view, [0, 0], [0, 0]]))
    outline = Outline(cnt, mask, False)
    best = {
        seen: max(
            (polygon_iou(c.quad, card) for c in partial_quads(outline, edges, 500.0, 1e5, None, 1e5, CONFIG, at)[0]),
            default=0.0,
        )
        for seen, at in (("tilted", tilt), ("above", None))
    }
    assert best["tilted"] > 0.95
    assert best["above"] < 0.9


def test_card_shapes_round_a_loose_outline_are_sought_in_the_frames_view() -> None:
    """A card seen at 40 degrees, turned on the table, is a parallelogram in the frame, no card
    shape: rectangles searched round a loose outline of it (its far end cut short) fit it only
    once the picture round it is mapped to the table's view (its view's flattening), and the
    shape found there, mapped back, is the card."""
    card = _seen(0.5, math.radians(40), math.pi / 2, 2.2, (320, 220))
    gray = np.full((440, 640), 60, np.uint8)
    cv2.fillPoly(gray, [np.round(card).astype(np.int32)], 235)
    tl, tr, br, bl = card  # its far end drawn 20 % short
    loose = order_corners(np.array([tl, tr, tr + 0.8 * (br - tr), tl + 0.8 * (bl - tl)], np.float32))
    view = card_views(card[None])[0][0, 0]
    flattening = Tilt(gray.shape, np.array([view, [0, 0], [0, 0]])).flattening(card.mean(axis=0)[None])[0]
    best = {
        seen: max((polygon_iou(s, card) for s in card_shapes(gray, loose, None, at)), default=0.0)
        for seen, at in (("tilted", flattening), ("above", None))
    }
    assert best["tilted"] > 0.85  # (the search runs at 32 pixels a card: the refinement does the rest)
    assert best["above"] < 0.7


def _camera(k: float, turn: float, shape: tuple[int, int] = (720, 1280)) -> np.ndarray:
    """The homography from a table (in the pixels of a frame of ``shape`` seen from above) to
    the frame of a camera tilted away (its top edge ``k`` of its width), the table turned by
    ``turn`` radians about the frame's centre first."""
    h, w = shape
    turned = cv2.getRotationMatrix2D((w / 2, h / 2), math.degrees(turn), 1.0)
    return tilted_away((w, h), k) @ np.vstack([turned, [0, 0, 1]])


def _seen_by(camera: np.ndarray, at: tuple[float, float], turn: float) -> np.ndarray:
    """The ordered quad of a card turned by ``turn`` on the table, as ``camera`` (a table to frame
    homography, :func:`_camera`) shows it at the frame's point ``at``."""
    place = cv2.perspectiveTransform(np.array([[at]], np.float64), np.linalg.inv(camera))[0, 0]
    card = _seen(turn, 0.0, 0.0, 1.4, (float(place[0]), float(place[1])))
    return order_corners(cv2.perspectiveTransform(card[:, None].astype(np.float64), camera)[:, 0].astype(np.float32))


@settings(max_examples=60, deadline=None)
@given(
    k=st.floats(0.6, 1.0),
    turn=st.floats(0, 2 * math.pi),
    card_turn=st.floats(0, 2 * math.pi),
    at=st.tuples(st.floats(0.2, 0.8), st.floats(0.2, 0.8)),
)
def test_a_card_fits_the_view_its_camera_is_known_to_have(
    k: float, turn: float, card_turn: float, at: tuple[float, float]
) -> None:
    """Seen by a camera tilted up to about 37 degrees, a card anywhere in the frame, at any turn,
    lies well within the tolerance of the view known from the camera's homography (as a
    calibration gives it): the affine view over the frame is close enough everywhere."""
    shape = (720, 1280)
    camera = _camera(k, turn, shape)
    quad = _seen_by(camera, (at[0] * 1280, at[1] * 720), card_turn)
    assert Tilt.seen_through(camera, shape).errors(quad[None])[0] < TOLERANCE / 2


def test_a_known_view_is_steep_at_a_tilt_and_places_the_cards_size() -> None:
    """A known view that a card seen from above would pass anywhere in the frame is not steep (a
    camera nearly overhead); a steep one holds for any scale of the frame, and learns how large
    a card looks at each place from the cards that fit it."""
    quads, shape = _tilted_frame(0.65)
    known = Tilt.seen_through(_camera(0.65, 0.0), shape)
    assert known.steep(TOLERANCE)
    assert not Tilt.seen_through(_camera(0.97, 0.0), shape).steep(TOLERANCE)
    assert not Tilt(shape).steep(TOLERANCE)
    placed = known.placed(quads, shape)
    assert (placed.errors(quads) <= TOLERANCE).all()
    fitted = placed.area_at(quads.mean(axis=1))
    assert fitted is not None
    assert np.abs(np.log(fitted / np.abs([cv2.contourArea(q) for q in quads]))).max() < 0.1
    half = known.placed(quads / 2, (360, 640))
    assert np.allclose(half.errors(quads / 2), placed.errors(quads), atol=1e-6)
    assert known.placed(quads[:2], shape).area_at(quads.mean(axis=1)) is None


def test_a_detector_uses_a_known_view_only_on_frames_of_its_proportions() -> None:
    """A calibration found on 16:9 frames holds for any scale of them, not for a camera since
    set to 4:3 (until the kiosk calibrates again), and a view nearly from above is not used."""
    from kiosk.vision.detect import Detector

    detector = Detector(DetectorConfig(outline_model=False))
    detector.view = Tilt.seen_through(_camera(0.65, 0.0), (720, 1280))
    assert detector._known_view((360, 640)) is detector.view
    assert detector._known_view((480, 640)) is None
    detector.view = Tilt.seen_through(_camera(0.97, 0.0), (720, 1280))
    assert detector._known_view((360, 640)) is None


@settings(max_examples=40, deadline=None)
@given(
    k=st.floats(0.62, 0.7),
    turn=st.floats(0, 2 * math.pi),
    places=st.lists(st.integers(0, 11), min_size=6, max_size=10, unique=True),
    across=st.lists(st.booleans(), min_size=10, max_size=10),
    turns=st.lists(st.floats(-0.3, 0.3), min_size=10, max_size=10),
)
def test_a_steep_view_is_fitted_whichever_way_its_cards_lie(
    k: float, turn: float, places: list[int], across: list[bool], turns: list[float]
) -> None:
    """Six to ten cards at places of a grid over the frame, on a table seen about 35 degrees
    from square on, some laid along the tilt and some across it (each turned up to 17 degrees
    more): a card across looks near square, and its view nearer the view from above is the
    wrong one. With three along and two across, the fitted view is the camera's all the same
    (at the frame's centre), near enough that every card fits it."""
    assume(3 <= sum(not a for a in across[: len(places)]) <= len(places) - 2)
    shape = (720, 1280)
    camera = _camera(k, turn, shape)
    quads = np.stack(
        [
            _seen_by(
                camera, ((0.15 + 0.233 * (n % 4)) * 1280, (0.2 + 0.25 * (n // 4)) * 720), t + turn + way * math.pi / 2
            )
            for n, way, t in zip(places, across, turns, strict=False)
        ]
    )
    tilt = Tilt.fitted(quads, shape, TOLERANCE)
    assert tilt.coef is not None
    assert tilt.errors(quads).max() <= PARAMS.propose.tilt_inlier
    assert np.linalg.norm(tilt.coef[0] - Tilt.seen_through(camera, shape).coef[0]) < 0.1  # at the centre
