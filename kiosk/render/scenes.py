"""Rendered photos of a table with cards, with exact ground truth: the raw material of training,
the vision tests and the benchmarks.

A scene is built on a procedural table (``split`` keeps training and held-out tables apart),
cards are laid in the table plane at real-looking sizes, seen through a slightly tilted camera,
then shadows, hands, clutter and the camera's faults are added. The truth records, per card,
the four face corners in image pixels, how much of it is hidden and whether a corner index
still shows. Same arguments, same pixels.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.decks import load_deck
from kiosk.render.compositing import (
    camera_effects,
    composite_card,
    draw_distractor,
    draw_hand,
    face_bgra,
    face_width_for,
)
from kiosk.render.faces import ASPECT, face_styles, style_known
from kiosk.render.textures import SPLITS, table_background, table_family
from kiosk.vision.face import INDEX_BOX

#: A card's short side as a fraction of the frame width (8-15 % at 1280x720).
CARD_WIDTH_RANGE: tuple[float, float] = (0.08, 0.15)
#: A corner index counts as visible when at least this fraction of it is uncovered.
INDEX_VISIBLE_MIN = 0.95
HAND = -2  # label of hand pixels in the occlusion map


@dataclass
class SceneCard:
    """One card's truth: ``corners`` are the face's TL, TR, BR, BL in image pixels (float32 4x2)."""

    card_id: str
    corners: np.ndarray
    occluded: float = 0.0
    index_visible: bool = True


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    cards: list[SceneCard]
    #: Who owns each pixel: the index into ``cards``, -1 for the table, ``HAND`` for a hand
    #: (int16, the image's height and width): the truth of the outline model.
    labels: np.ndarray | None = None
    table: str = ""  # the table's texture family
    #: The homography from the table's plane (in the pixels of a frame seen from above) to the
    #: image: what a camera calibrated on the table knows of its view
    camera: np.ndarray | None = None


def card_quad(centre: tuple[float, float], short_side: float, angle: float) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of an upright face ``short_side`` wide, turned by ``angle`` rad."""
    hw, hh = short_side / 2, short_side * ASPECT / 2
    local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float32)
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]], np.float32)
    return (local @ rot.T + np.asarray(centre, np.float32)).astype(np.float32)


def camera_tilt(rng: np.random.Generator, size: tuple[int, int], amount: float = 0.06) -> np.ndarray:
    """A homography from the table plane to the image: the camera is never exactly overhead."""
    w, h = size
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = rng.uniform(0, amount, (4, 2)) * np.array([w, h])
    inward = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]])
    return cv2.getPerspectiveTransform(src, (src + jitter * inward).astype(np.float32))


def tilted_away(size: tuple[int, int], far_edge: float) -> np.ndarray:
    """The homography from a frame of ``size`` (w, h) seen from above to the same frame seen by a
    camera tilted away from the table: its top edge shrunk to ``far_edge`` of its width about its
    middle (0.8: a card at the centre foreshortened as seen 26 degrees off, 0.65: 34)."""
    w, h = size
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    away = np.array([[w * (1 - far_edge) / 2, 0], [w * (1 + far_edge) / 2, 0], [w, h], [0, h]], np.float32)
    return cv2.getPerspectiveTransform(frame, away)


def apply_homography(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float32)[None], m)[0].astype(np.float32)


def _overlap_area(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area)


def _card_sizes(rng: np.random.Generator, width: int) -> Iterator[float]:
    """A card's short side for each try at placing one: the scene's card size, a few per cent
    either way, 10 % smaller every 80 tries (the table is full at that size: smaller cards, as if
    seen from higher up)."""
    short = width * rng.uniform(*CARD_WIDTH_RANGE)
    tries = 0
    while True:
        tries += 1
        if tries % 80 == 0:
            short *= 0.9
        yield short * rng.uniform(0.93, 1.07)


def _place(rng: np.random.Generator, size: tuple[int, int], n: int, overlap: bool) -> list[np.ndarray]:
    """Quads in table coordinates: inside the frame, touching only when ``overlap`` allows it."""
    w, h = size
    sizes = _card_sizes(rng, w)
    quads: list[np.ndarray] = []
    while len(quads) < n:
        s = next(sizes)
        if overlap and quads and rng.random() < 0.5:
            anchor = quads[int(rng.integers(len(quads)))].mean(axis=0)
            step = rng.uniform(0.35, 0.9) * s * ASPECT
            phi = rng.uniform(0, 2 * np.pi)
            centre = (anchor[0] + step * np.cos(phi), anchor[1] + step * np.sin(phi))
        else:
            centre = (rng.uniform(0.08, 0.92) * w, rng.uniform(0.1, 0.9) * h)
        quad = card_quad(centre, s, rng.uniform(0, 2 * np.pi))
        if not _in_frame(quad, size):
            continue
        card_area = s * s * ASPECT
        limit = 0.45 * card_area if overlap else 0.0
        if any(_overlap_area(quad, q) > limit for q in quads):
            continue
        quads.append(quad)
    return quads


def _place_fans(rng: np.random.Generator, size: tuple[int, int], n: int) -> list[np.ndarray]:
    """Quads in table coordinates in fanned pairs (an odd last card alone), as a hand of two is
    laid down: the second of a pair over the first, turned up to 9 degrees and shifted across it by
    0.3 to 0.5 of its width, so that of the first only a long strip with one of its
    corner indices shows. Pairs do not touch."""
    w, h = size
    sizes = _card_sizes(rng, w)
    quads: list[np.ndarray] = []
    while len(quads) < n:
        s = next(sizes)
        angle = rng.uniform(0, 2 * np.pi)
        centre = np.array([rng.uniform(0.08, 0.92) * w, rng.uniform(0.1, 0.9) * h])
        pair = [card_quad((centre[0], centre[1]), s, angle)]
        if len(quads) + 1 < n:
            across = np.array([np.cos(angle), np.sin(angle)]) * rng.uniform(0.3, 0.5) * s
            top = centre - across
            pair.append(card_quad((top[0], top[1]), s, angle + rng.uniform(-0.15, 0.15)))
        if all(_in_frame(q, size) for q in pair) and not any(_overlap_area(q, p) > 0 for q in pair for p in quads):
            quads += pair
    return quads


def _in_frame(quad: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether ``quad`` lies inside a frame of ``size`` with a margin of 2 % of its width."""
    w, h = size
    margin = 0.02 * w
    return bool(
        quad[:, 0].min() >= margin
        and quad[:, 1].min() >= margin
        and quad[:, 0].max() <= w - margin
        and quad[:, 1].max() <= h - margin
    )


def _index_quads(corners: np.ndarray) -> list[np.ndarray]:
    """The two corner-index boxes of a face, in image pixels."""
    fw, fh = 1.0, 1.0
    unit = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(unit, corners.astype(np.float32))
    x0, y0, x1, y1 = INDEX_BOX
    tl = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    br = 1.0 - tl
    return [apply_homography(m, tl), apply_homography(m, br)]


def card_truth(labels: np.ndarray, index: int, corners: np.ndarray, area: int) -> tuple[float, bool]:
    """(fraction hidden, whether an index corner shows) of card ``index`` from the label map."""
    h, w = labels.shape
    x0, y0 = max(0, int(corners[:, 0].min()) - 1), max(0, int(corners[:, 1].min()) - 1)
    x1, y1 = (
        min(w, int(np.ceil(corners[:, 0].max())) + 2),
        min(h, int(np.ceil(corners[:, 1].max())) + 2),
    )
    mine = labels[y0:y1, x0:x1] == index
    occluded = 1.0 - float(mine.sum()) / max(area, 1)
    visible = False
    for quad in _index_quads(corners):
        region = np.zeros(mine.shape, np.uint8)
        cv2.fillConvexPoly(region, np.round(quad - [x0, y0]).astype(np.int32), 1)
        total = int(region.sum())
        if total and (mine & (region > 0)).sum() >= INDEX_VISIBLE_MIN * total:
            visible = True
    return max(0.0, occluded), visible


def render_scene(
    deck_id: str,
    n_cards: int,
    seed: int,
    size: tuple[int, int] = (1280, 720),
    *,
    card_ids: Sequence[str] | None = None,
    split: str = "train",
    styles: Sequence[str] | None = None,
    overlap: bool = True,
    fans: bool = False,
    hand: bool = False,
    distractors: bool = False,
    table: str | None = None,
    surface: np.ndarray | None = None,
) -> Scene:
    """A photo-like view of ``n_cards`` cards of ``deck_id`` on a table, with exact truth.

    ``card_ids`` fixes which cards (else drawn without repetition); ``styles`` restricts the face
    designs; ``fans`` lays them in fanned pairs, of each pair's under card only its index strip
    showing (``overlap`` then plays no part); ``hand`` adds a hand over the table,
    ``distractors`` phones, paper, coins and pens;
    ``table`` names the split's texture family (else one is drawn); ``surface``, a BGR uint8
    image of ``size``, replaces the table (a training set's own surfaces; the scene's table is
    then ``"surface"``).
    """
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    deck = load_deck(deck_id)
    w, h = int(size[0]), int(size[1])
    rng = np.random.default_rng([seed, SPLITS.index(split), 7])
    if card_ids is None:
        if not 0 <= n_cards <= len(deck.cards):
            raise ValueError(f"n_cards must be between 0 and {len(deck.cards)} for deck {deck_id}")
        chosen = [deck.cards[i] for i in rng.choice(len(deck.cards), n_cards, replace=False)]
    else:
        by_id = {c.id: c for c in deck.cards}
        unknown = [i for i in card_ids if i not in by_id]
        if unknown:
            raise ValueError(f"deck {deck_id} has no card(s) {unknown}")
        chosen = [by_id[i] for i in card_ids]
    allowed = tuple(styles) if styles else face_styles(deck_id)
    bad = [s for s in allowed if not style_known(deck_id, s)]
    if bad:
        raise ValueError(f"deck {deck_id} has no face style(s) {bad}; styles: {face_styles(deck_id)}")

    table_seed = int(rng.integers(2**31))  # drawn either way: a seed's cards do not depend on it
    if surface is not None:
        if surface.shape != (h, w, 3) or surface.dtype != np.uint8:
            raise ValueError(f"surface must be a BGR uint8 image of {w}x{h}, got {surface.shape} {surface.dtype}")
        canvas = surface.copy()
    else:
        canvas = table_background(table_seed, (w, h), split, table)
    if distractors:
        for _ in range(int(rng.integers(1, 4))):
            draw_distractor(canvas, rng)
    tilt = camera_tilt(rng, (w, h))
    light = rng.uniform(0, 2 * np.pi)
    labels = np.full((h, w), -1, np.int16)
    placed: list[tuple[str, np.ndarray, int]] = []
    quads = _place_fans(rng, (w, h), len(chosen)) if fans else _place(rng, (w, h), len(chosen), overlap)
    for i, (card, quad) in enumerate(zip(chosen, quads, strict=True)):
        corners = apply_homography(tilt, quad)
        short = float(np.linalg.norm(corners[1] - corners[0]))
        style = allowed[int(rng.integers(len(allowed)))]
        face = face_bgra(card, style, face_width_for(short))
        reach = short * rng.uniform(0.02, 0.06)
        shadow = (reach * np.cos(light), reach * np.sin(light), short * 0.03, rng.uniform(0.2, 0.5))
        x0, y0, alpha = composite_card(canvas, face, corners, shadow)
        covered = alpha >= 128
        labels[y0 : y0 + alpha.shape[0], x0 : x0 + alpha.shape[1]][covered] = i
        placed.append((card.id, corners, int(covered.sum())))
    if hand:
        labels[draw_hand(canvas, rng) >= 128] = HAND
    image = camera_effects(canvas, rng)
    cards = []
    for i, (card_id, corners, area) in enumerate(placed):
        occluded, index_visible = card_truth(labels, i, corners, area)
        cards.append(SceneCard(card_id, corners, round(occluded, 4), index_visible))
    name = "surface" if surface is not None else table or table_family(table_seed, split)
    return Scene(image, cards, labels, name, tilt)


def render_empty(
    seed: int,
    size: tuple[int, int] = (1280, 720),
    split: str = "train",
    *,
    hands: bool = True,
    distractors: bool = True,
) -> np.ndarray:
    """A BGR frame of a table without any card: bare, or with hands and everyday clutter."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    w, h = int(size[0]), int(size[1])
    rng = np.random.default_rng([seed, SPLITS.index(split), 11])
    canvas = table_background(int(rng.integers(2**31)), (w, h), split)
    if distractors:
        for _ in range(int(rng.integers(0, 5))):
            draw_distractor(canvas, rng)
    if hands:
        for _ in range(int(rng.integers(0, 3))):
            draw_hand(canvas, rng)
    return camera_effects(canvas, rng)
