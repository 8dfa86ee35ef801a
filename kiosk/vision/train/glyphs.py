"""Data for the glyph reader (:mod:`kiosk.vision.glyph_reader`): index glyphs of random printings,
laid out any way, located the way the kiosk locates them.

Each sample face is a made-up printing drawn at the face size: a rank (the fonts, squeezes and
card-style Q and 3 of :mod:`.synth`) of random height and place in the corner, its suit under it,
beside it or missing, drawn by the kiosk's own pip code (:func:`kiosk.render.pips.draw_pip`), a
font's suit glyph or :mod:`.synth`'s outlines; a stroke thickened or thinned, the index turned
and sheared a little; centre pips, court art and borders right of and under the index; and the
same corner turned into the opposite one. Some faces carry no index at all (only what surrounds
one) or are clutter (:func:`.negatives.synth_negative`). Each face is warped through an imprecise
outline over a table and through :func:`.augment.photometric`; then, in both corners,
:func:`kiosk.vision.glyphs.find_index` locates the glyphs as at run time and each located box
(the rank's, the suit's, and now and then another ink component of the corner) becomes a
:func:`~kiosk.vision.glyph_reader.glyph_input` patch. Its labels come from the drawn glyphs'
pixels: a head's label is the glyph the box holds whole (``none`` where it holds none of it) and
is left out of the loss (``-1``) where the box holds part of it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from PIL import Image, ImageDraw

from kiosk.decks import RANKS, SUITS
from kiosk.render.pips import PIP_FAMILIES, draw_pip
from kiosk.vision.face import FACE_SIZE, face_homography
from kiosk.vision.glyph_reader import NONE, RANK_LABELS, SUIT_LABELS, glyph_input
from kiosk.vision.glyphs import Box, _components, find_index, ink
from kiosk.vision.params import PARAMS
from kiosk.vision.train.augment import photometric
from kiosk.vision.train.dataset import pooled
from kiosk.vision.train.negatives import synth_negative, table_texture
from kiosk.vision.train.synth import (
    _court_picture,
    _draw_card_3,
    _draw_card_q,
    _draw_rank,
    _draw_suit,
    _has_suit_glyphs,
    _ink,
    _paper,
    _round_corners,
    font_paths,
)

#: Shares of faces that carry no index (only pips, court art and borders) and that are clutter
NO_INDEX_SHARE, CLUTTER_SHARE = 0.1, 0.06
#: The rank's height, as fractions of the face's height
RANK_HEIGHT = (0.05, 0.22)
#: Where the suit goes: under the rank, beside it, or nowhere (the index is the rank alone)
SUIT_PLACES = {"under": 0.5, "beside": 0.3, "none": 0.2}
#: Share of a glyph's ink a box holds for it to be labelled that glyph (and at most the share
#: below which it is labelled ``none``); in between, the head learns nothing from the box
WHOLE, NOT_THERE = 0.9, 0.15
#: Share of a box that lies on the index's glyphs (their box, a few pixels wider) for a label
ON_INDEX = 0.85
FAR = -1  # a head's label where its box holds part of a glyph: left out of the loss
_G = PARAMS.glyphs


def _layer() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", FACE_SIZE, (0, 0, 0))
    return img, ImageDraw.Draw(img)


def _moved(mask: np.ndarray, left: float, top: float) -> np.ndarray:
    """``mask`` moved so that its ink's box starts at (left, top)."""
    ys, xs = np.nonzero(mask > 127)
    if not len(xs):
        return mask
    m = np.array([[1, 0, left - xs.min()], [0, 1, top - ys.min()]], np.float32)
    return cv2.warpAffine(mask, m, FACE_SIZE)


def _inked(mask: np.ndarray) -> bool:
    return bool((mask > 127).any())


def _ink_box(mask: np.ndarray) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 (exclusive) of the ink of ``mask``."""
    ys, xs = np.nonzero(mask > 127)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _rank_mask(rng: np.random.Generator, rank: str, height: float) -> np.ndarray:
    layer, draw = _layer()
    box, white = (100.0, 10.0, height * 0.8, height), (255, 255, 255)
    if rank == "Q" and rng.random() < 0.3:
        _draw_card_q(draw, rng, box, white)
    elif rank == "3" and rng.random() < 0.3:
        _draw_card_3(draw, rng, box, white)
    else:
        fonts = font_paths()
        _draw_rank(draw, rng, rank, box, white, fonts[int(rng.integers(len(fonts)))])
    return np.asarray(layer)[:, :, 0].copy()


def _suit_mask(rng: np.random.Generator, suit: str, side: float) -> np.ndarray:
    layer, draw = _layer()
    w = side * float(rng.uniform(0.75, 1.0))
    kind = rng.random()
    if kind < 0.4:
        family = PIP_FAMILIES[int(rng.integers(len(PIP_FAMILIES)))]
        draw_pip(layer, suit, family, (100, 10, 100 + max(3, round(w)), 10 + max(3, round(side))), (255, 255, 255))
    else:
        fonts = [p for p in font_paths() if _has_suit_glyphs(p)] if kind < 0.7 else []
        font = fonts[int(rng.integers(len(fonts)))] if fonts else None
        _draw_suit(draw, rng, suit, (100.0, 10.0, w, side), (255, 255, 255), font)
    return np.asarray(layer)[:, :, 0].copy()


def _index(rng: np.random.Generator, rank: str, suit: str) -> tuple[np.ndarray, np.ndarray]:
    """The rank's and the suit's masks (uint8, face size) of a random index in the top-left corner."""
    w, h = FACE_SIZE
    rh = h * float(rng.uniform(*RANK_HEIGHT))
    rank_m = _moved(_rank_mask(rng, rank, rh), w * rng.uniform(0.02, 0.1), h * rng.uniform(0.02, 0.2))
    place = rng.choice(list(SUIT_PLACES), p=list(SUIT_PLACES.values()))
    suit_m = np.zeros_like(rank_m)
    if place != "none" and _inked(rank_m):
        x0, y0, x1, y1 = _ink_box(rank_m)
        side = (y1 - y0) * float(rng.uniform(0.5, 1.0) if place == "under" else rng.uniform(0.4, 0.85))
        suit_m = _suit_mask(rng, suit, side)
        if _inked(suit_m):
            sw = _ink_box(suit_m)[2] - _ink_box(suit_m)[0]
            gap = (y1 - y0) * float(rng.uniform(0.03, 0.22))
            if place == "under":
                left = (x0 + x1 - sw) / 2 if rng.random() < 0.7 else x0
                suit_m = _moved(suit_m, left, y1 + gap)
            else:
                top = y0 + (y1 - y0 - side) * float(rng.choice([0.0, 0.5, 1.0]))
                suit_m = _moved(suit_m, x1 + gap, top)
    return _bent(rng, _stroked(rng, rank_m)), _bent(rng, _stroked(rng, suit_m))


def _stroked(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """``mask`` with its strokes thickened or thinned by a pixel now and then (print weight)."""
    k = rng.random()
    if k < 0.2:
        return cv2.dilate(mask, np.ones((2, 2), np.uint8))
    if k < 0.3:
        return cv2.erode(mask, np.ones((2, 2), np.uint8))
    return mask


def _bent(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """``mask`` turned up to 4 degrees and sheared up to 0.08 about the corner's middle (one draw
    per call; the rank's and the suit's are drawn apart, as a careless print shifts them)."""
    a, s = math.radians(float(rng.uniform(-4, 4))), float(rng.uniform(-0.08, 0.08))
    m = np.array([[math.cos(a), -math.sin(a) + s, 0], [math.sin(a), math.cos(a), 0]], np.float32)
    cx, cy = 0.15 * FACE_SIZE[0], 0.2 * FACE_SIZE[1]
    m[:, 2] = [cx - m[0, 0] * cx - m[0, 1] * cy, cy - m[1, 0] * cx - m[1, 1] * cy]
    return cv2.warpAffine(mask, m, FACE_SIZE, flags=cv2.INTER_LINEAR)


def _surroundings(
    rng: np.random.Generator, img: Image.Image, rank: str, suit: str, right: float, ink_rgb: tuple[int, int, int]
) -> None:
    """Centre pips or court art starting ``right`` of the index (they may reach into the
    corner), and sometimes a border."""
    w, h = FACE_SIZE
    draw = ImageDraw.Draw(img)
    fonts = [p for p in font_paths() if _has_suit_glyphs(p)]
    suit_font = fonts[int(rng.integers(len(fonts)))] if fonts and rng.random() < 0.5 else None
    free = right + w * float(rng.uniform(0.02, 0.12))
    if rank in ("J", "Q", "K") and rng.random() < 0.8:
        fy = h * float(rng.uniform(0.02, 0.3))
        _court_picture(draw, rng, (free, fy, max(free + 20, w - free), h - fy), suit, ink_rgb, suit_font)
    elif rank not in ("J", "Q", "K"):
        pip = float(rng.uniform(0.14, 0.3)) * w
        for py in np.linspace(h * rng.uniform(0.02, 0.2), h * 0.85 - pip, int(rng.integers(2, 5))):
            _draw_suit(draw, rng, suit, (free, float(py), pip, pip * 1.1), ink_rgb, suit_font)
    if rng.random() < 0.3:
        m = float(rng.uniform(3, 8))
        draw.rectangle((m, m, w - m, h - m), outline=ink_rgb, width=1)


def printed_face(
    rng: np.random.Generator, rank: str, suit: str, with_index: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random printing of the card (RGB face) with its index in both corners, and the masks
    (uint8, face size) of its rank and suit glyphs; None-like empty masks where
    ``with_index`` is False (the face then shows only what surrounds an index)."""
    w, h = FACE_SIZE
    cw, ch = round(_G.corner[0] * w), round(_G.corner[1] * h)
    rank_m, suit_m = _index(rng, rank, suit)
    both = np.maximum(rank_m, suit_m)
    if not with_index:
        rank_m, suit_m = np.zeros_like(rank_m), np.zeros_like(suit_m)
    img = Image.new("RGB", FACE_SIZE, _paper(rng))
    ink_rgb = _ink(rng, suit in "HD")
    right = _ink_box(both)[2] if _inked(both) else 0.1 * w
    _surroundings(rng, img, rank, suit, right, ink_rgb)
    face = np.asarray(img).astype(np.float32)
    alpha = (np.maximum(rank_m, suit_m).astype(np.float32) / 255)[:, :, None]
    face = face * (1 - alpha) + np.array(ink_rgb, np.float32) * alpha
    for part in (face, rank_m, suit_m):
        part[h - ch :, w - cw :] = part[:ch, :cw][::-1, ::-1]
    return _round_corners(face.astype(np.uint8), rng), rank_m, suit_m


def camera_view(
    rng: np.random.Generator, face: np.ndarray, masks: list[np.ndarray]
) -> tuple[np.ndarray, list[np.ndarray]]:
    """``face`` (RGB) as the detector hands it over (BGR): warped through an outline whose
    corners stray, over a table, then the camera's light and optics; ``masks`` warped alike."""
    w, h = FACE_SIZE
    pad = h // 4
    table = cv2.resize(table_texture(rng, (64, 64)), (w + 2 * pad, h + 2 * pad))
    canvas = table.copy()
    canvas[pad : pad + h, pad : pad + w] = face
    quad = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32) + pad
    quad += rng.normal(0, 0.012, size=(4, 2)).astype(np.float32) * np.array([w, h], np.float32)
    m = face_homography(quad)
    seen = cv2.warpPerspective(canvas, m, FACE_SIZE, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    warped = [
        cv2.warpPerspective(cv2.copyMakeBorder(k, pad, pad, pad, pad, cv2.BORDER_CONSTANT), m, FACE_SIZE) for k in masks
    ]
    return photometric(cv2.cvtColor(seen, cv2.COLOR_RGB2BGR), rng), warped


def label(box: Box, rank_m: np.ndarray, suit_m: np.ndarray, rank: str, suit: str) -> tuple[int, int]:
    """The rank and suit labels (indices into RANK_LABELS and SUIT_LABELS, or FAR) of the located
    ``box`` given the drawn glyphs' masks of its corner."""
    x, y, bw, bh = box
    rank_ink, suit_ink = rank_m > 127, suit_m > 127
    glyphs = rank_ink | suit_ink
    on_index = 0.0
    if glyphs.any():
        gx0, gy0, gx1, gy1 = _ink_box(glyphs.astype(np.uint8) * 255)
        ox = max(0, min(x + bw, gx1 + 3) - max(x, gx0 - 3))
        oy = max(0, min(y + bh, gy1 + 3) - max(y, gy0 - 3))
        on_index = ox * oy / max(1, bw * bh)

    def one(glyph: np.ndarray, name: str, labels: tuple[str, ...]) -> int:
        held = glyph[y : y + bh, x : x + bw].sum() / max(1, glyph.sum()) if glyph.any() else 0.0
        if held >= WHOLE and on_index >= ON_INDEX:
            return labels.index(name)
        return labels.index(NONE) if held <= NOT_THERE else FAR

    return one(rank_ink, rank, RANK_LABELS), one(suit_ink, suit, SUIT_LABELS)


def _corner_samples(
    rng: np.random.Generator, view: np.ndarray, rank_m: np.ndarray, suit_m: np.ndarray, rank: str, suit: str
) -> list[tuple[np.ndarray, int, int]]:
    """The located glyphs of ``view``'s top-left corner as (patch, rank label, suit label)."""
    found = find_index(view)
    if found is None:
        return []
    h, w = view.shape[:2]
    ch, cw = round(_G.corner[1] * h), round(_G.corner[0] * w)
    rank_m, suit_m = rank_m[:ch, :cw], suit_m[:ch, :cw]  # this corner's glyphs, not the other's
    boxes = [found.rank] + ([found.suit] if found.suit is not None else [])
    if rng.random() < 0.5:  # another ink component of the corner: a pip's edge, court art, a border
        others = [b for b in _components(ink(view[:ch, :cw]), (w, h))[0] if b not in boxes]
        if others:
            boxes.append(others[int(rng.integers(len(others)))])
    out = []
    for box in boxes:
        r, s = label(box, rank_m, suit_m, rank, suit)
        if r != FAR or s != FAR:
            out.append((glyph_input(found.ink, box), r, s))
    return out


def face_samples(rng: np.random.Generator) -> list[tuple[np.ndarray, int, int]]:
    """The labelled patches of one random face, both corners."""
    rank, suit = RANKS[int(rng.integers(len(RANKS)))], SUITS[int(rng.integers(len(SUITS)))]
    kind = rng.random()
    if kind < CLUTTER_SHARE:
        face = synth_negative(rng)
        empty = np.zeros(face.shape[:2], np.uint8)
        masks = [empty, empty]
    else:
        face, *masks = printed_face(rng, rank, suit, kind >= CLUTTER_SHARE + NO_INDEX_SHARE)
    view, (rank_m, suit_m) = camera_view(rng, face, masks)
    out = []
    for turn in (False, True):
        flip = (lambda a: np.ascontiguousarray(a[::-1, ::-1])) if turn else (lambda a: a)
        out += _corner_samples(rng, flip(view), flip(rank_m), flip(suit_m), rank, suit)
    return out


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, chunk, faces = args
    rng = np.random.default_rng([seed, chunk])
    rows = [s for _ in range(faces) for s in face_samples(rng)]
    x = np.stack([r[0] for r in rows]) if rows else np.zeros((0, 32, 32, 1), np.float32)
    return x, np.array([[r[1], r[2]] for r in rows], np.int32).reshape(-1, 2)


def generate(faces: int, seed: int, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The located glyphs of ``faces`` random faces: patches (n, 32, 32, 1) and labels (n, 2):
    rank and suit, each FAR where that head learns nothing from the patch."""
    return pooled(_chunk, faces, seed, 200, workers)
