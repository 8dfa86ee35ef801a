"""The virtual table: a scripted film of a table where cards slide in, lie still, and are taken
away, hands pass over, and the light drifts — with the truth of every frame.

It is the camera of the demo and the test bench of the tracker, so it must run at 30 fps: the
table (or the printed mat) and the faces are rendered once, the cards at rest are composited
once per set of resting cards, and a frame only adds what moves, the light and the noise.
``frame(i)`` depends on ``i`` alone, so frames can be read in any order.

Script steps (frames at 30 fps)::

    {"at": 30, "card": "QS", "mat_xy": (0.5, 0.5), "leave": 120, "angle": 15}
    {"at": 60, "hand": (0.4, 0.6), "leave": 90}

A card slides in during the ``SLIDE`` frames before ``at``, lies still at ``mat_xy`` (mat
coordinates, 0..1, see :mod:`kiosk.mat`) from ``at`` until ``leave``, then slides out. A hand
reaches in, hovers over its point from ``at`` to ``leave`` and withdraws the same way.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from kiosk import mat as mat_geometry
from kiosk.decks import Card, load_deck
from kiosk.referee.zones import Layout
from kiosk.render.compositing import (
    composite_card,
    draw_hand,
    face_bgra,
    face_width_for,
    lighting_gain,
)
from kiosk.render.faces import face_styles
from kiosk.render.mat import render_mat
from kiosk.render.scenes import HAND, SceneCard, apply_homography, card_quad, card_truth
from kiosk.render.textures import SPLITS, table_background

FPS = 30
SLIDE = 8  # frames a card or a hand takes to come in or go out
CARD_ON_MAT = 63 / 420  # a card's width as a fraction of the A3 mat's width


@dataclass(frozen=True)
class _CardStep:
    card: Card
    style: str
    at: int
    leave: int
    quad: np.ndarray  # resting corners in frame pixels
    away: np.ndarray  # offset (pixels) that takes the card out of the frame


@dataclass(frozen=True)
class _HandStep:
    at: int
    leave: int
    sprite: np.ndarray  # BGR crop of the hand at rest
    mask: np.ndarray  # its uint8 alpha
    origin: tuple[int, int]  # top-left of the crop in frame pixels, at rest
    away: np.ndarray


def _eased(step_at: int, leave: int, i: int) -> float | None:
    """How far out (0 = at rest, 1 = off the table) a step is at frame ``i``; None when absent."""
    if i < step_at - SLIDE or i > leave + SLIDE:
        return None
    if i < step_at:
        t = (step_at - i) / SLIDE
    elif i > leave:
        t = (i - leave) / SLIDE
    else:
        return 0.0
    return t * t * (3 - 2 * t)


class VirtualTable:
    """A deterministic, scripted camera over a table for ``deck_id``.

    ``script`` is a list of steps (see the module doc); by default a minute of random play is
    scripted from ``seed``. ``mat=True`` films the printed mat (with ``layout``'s zones), so the
    calibration can find its ArUco markers. Frames past the script's end loop over it.
    """

    def __init__(
        self,
        deck_id: str,
        seed: int,
        size: tuple[int, int] = (1280, 720),
        split: str = "heldout",
        script: Sequence[dict[str, Any]] | None = None,
        mat: bool = False,
        *,
        layout: Layout | None = None,
        length: int = 60 * FPS,
    ) -> None:
        if split not in SPLITS:
            raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
        self.deck = load_deck(deck_id)
        self.size = (int(size[0]), int(size[1]))
        self.seed = seed
        self._rng = np.random.default_rng([seed, SPLITS.index(split), 13])
        w, h = self.size
        self.mat_to_frame = self._mat_homography()
        self._light = lighting_gain(self._rng, self.size, 0.2)
        self.background = self._background(split, mat, layout)
        self._by_id = {c.id: c for c in self.deck.cards}
        self._styles = face_styles(deck_id)
        steps = list(script) if script is not None else self._random_script(length)
        self._cards = [self._card_step(s) for s in steps if "card" in s]
        self._hands = [self._hand_step(s) for s in steps if "hand" in s]
        ends = [s.leave + SLIDE + 1 for s in self._cards] + [s.leave + SLIDE + 1 for s in self._hands]
        self.length = max([length if script is None else 1, *ends])
        noise = np.random.default_rng(seed).normal(0, 2.5, (h + 16, w + 16, 3))
        self._noise = np.round(noise).astype(np.int16)
        self._rest_cache: OrderedDict[tuple[int, ...], tuple[np.ndarray, np.ndarray, list[int]]] = OrderedDict()

    def __len__(self) -> int:
        return self.length

    @property
    def arrivals(self) -> list[tuple[int, str]]:
        """(frame at which the card comes to rest, card id) for every scripted card."""
        return sorted((s.at, s.card.id) for s in self._cards)

    # --- building -------------------------------------------------------------------------------
    def _mat_homography(self) -> np.ndarray:
        """Mat coordinates (0..1) to frame pixels: the mat fills most of the view, tilted."""
        w, h = self.size
        mh = min(h * 0.9, w * 0.9 / mat_geometry.ASPECT)
        mw = mh * mat_geometry.ASPECT
        x0, y0 = (w - mw) / 2, (h - mh) / 2
        dst = np.array([[x0, y0], [x0 + mw, y0], [x0 + mw, y0 + mh], [x0, y0 + mh]], np.float32)
        dst += self._rng.uniform(-0.02, 0.02, (4, 2)).astype(np.float32) * np.float32(mh)
        src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        return cv2.getPerspectiveTransform(src, dst)

    def _background(self, split: str, mat: bool, layout: Layout | None) -> np.ndarray:
        w, h = self.size
        table = table_background(int(self._rng.integers(2**31)), self.size, split)
        if mat:
            paper = render_mat("A3", layout, dpi=max(30, round(w / 420 * 25.4 * 1.2)))
            src = np.asarray(paper)[:, :, ::-1]
            ph, pw = src.shape[:2]
            scale = np.array([[1 / pw, 0, 0], [0, 1 / ph, 0], [0, 0, 1]])
            m = self.mat_to_frame @ scale
            warped = cv2.warpPerspective(src, m, (w, h), flags=cv2.INTER_AREA)
            inside = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), m, (w, h))
            table = np.where(inside[..., None] > 127, warped, table)
        return (table.astype(np.float32) * self._light[..., None]).clip(0, 255).astype(np.uint8)

    def _away(self, centre: np.ndarray) -> np.ndarray:
        w, h = self.size
        direction = centre - np.array([w / 2, h / 2])
        norm = float(np.linalg.norm(direction)) or 1.0
        return (direction / norm * (w + h) * 0.6).astype(np.float32)

    def _card_step(self, step: dict[str, Any]) -> _CardStep:
        card_id = step["card"]
        if card_id not in self._by_id:
            raise ValueError(f"script: deck {self.deck.id} has no card {card_id!r}")
        mx, my = step.get("mat_xy", (0.5, 0.5))
        angle = np.radians(float(step.get("angle", 0.0)))
        # Turn the card in physical units (mat width = 1), then back to mat coordinates.
        aspect = mat_geometry.ASPECT
        mat_quad = card_quad((mx, my / aspect), CARD_ON_MAT, angle) * np.array([1, aspect], np.float32)
        quad = apply_homography(self.mat_to_frame, mat_quad)
        style = step.get("style") or self._styles[_stable_index(card_id, self.seed, len(self._styles))]
        return _CardStep(
            self._by_id[card_id],
            style,
            int(step["at"]),
            int(step["leave"]),
            quad,
            self._away(quad.mean(axis=0)),
        )

    def _hand_step(self, step: dict[str, Any]) -> _HandStep:
        """Pre-render the hand at rest at half resolution (skin is smooth), arm off-frame."""
        w, h = self.size
        at = apply_homography(self.mat_to_frame, np.array([step["hand"]], np.float32))[0]
        pad = int(max(w, h) * 0.7)
        half = np.zeros(((h + 2 * pad) // 2, (w + 2 * pad) // 2, 3), np.uint8)
        direction = at - np.array([w / 2, h / 2])
        angle = float(np.arctan2(direction[1], direction[0])) + np.pi  # fingers point into the table
        rng = np.random.default_rng([self.seed, int(step["at"]), 17])
        mask = draw_hand(
            half,
            rng,
            scale=w * 0.065,
            at=((at[0] + pad) / 2, (at[1] + pad) / 2),
            angle=angle,
            shadow=False,
        )
        x0, y0, bw, bh = cv2.boundingRect(mask)
        sprite = cv2.resize(half[y0 : y0 + bh, x0 : x0 + bw], (bw * 2, bh * 2), interpolation=cv2.INTER_LINEAR)
        alpha = cv2.resize(mask[y0 : y0 + bh, x0 : x0 + bw], (bw * 2, bh * 2), interpolation=cv2.INTER_LINEAR)
        return _HandStep(
            int(step["at"]),
            int(step["leave"]),
            sprite,
            alpha,
            (2 * x0 - pad, 2 * y0 - pad),
            self._away(at),
        )

    def _random_script(self, length: int) -> list[dict[str, Any]]:
        """Random play: cards arrive every second or two, stay a few seconds, hands pass by.

        The deck is dealt in a shuffled order and dealt again when it runs out; a card never
        lies on the table twice at once.
        """
        rng = self._rng
        queue: list[str] = []
        steps: list[dict[str, Any]] = []
        resting: list[tuple[int, tuple[float, float], str]] = []  # (leave, mat_xy, card id)
        t = SLIDE + 5
        while t < length - 4 * FPS:
            resting = [r for r in resting if r[0] + SLIDE > t]
            spot = self._free_spot(rng, [xy for _, xy, _ in resting])
            on_table = {card_id for _, _, card_id in resting}
            if not queue:
                queue = [c.id for c in self.deck.cards]
                rng.shuffle(queue)
            card_id = next((c for c in queue if c not in on_table), None)
            if spot is not None and card_id is not None and len(resting) < 6:
                queue.remove(card_id)
                leave = min(t + int(rng.integers(3 * FPS, 6 * FPS)), length - SLIDE - 1)
                angle = float(rng.uniform(-25, 25) + rng.choice([0, 90, 180, 270]))
                steps.append({"at": t, "card": card_id, "mat_xy": spot, "leave": leave, "angle": angle})
                resting.append((leave, spot, card_id))
            if rng.random() < 0.15:
                at = t + int(rng.integers(FPS // 2, FPS))
                xy = (float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8)))
                steps.append({"at": at, "hand": xy, "leave": at + int(rng.integers(FPS // 2, FPS))})
            t += int(rng.integers(FPS, 2 * FPS))
        return steps

    @staticmethod
    def _free_spot(rng: np.random.Generator, taken: list[tuple[float, float]]) -> tuple[float, float] | None:
        for _ in range(30):
            xy = (float(rng.uniform(0.18, 0.82)), float(rng.uniform(0.22, 0.78)))
            if all(abs(xy[0] - x) > 0.24 or abs(xy[1] - y) > 0.34 for x, y in taken):
                return xy
        return None

    # --- playing --------------------------------------------------------------------------------
    def _resting(self, key: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """The table with the cards of ``key`` at rest, its label map and each card's area."""
        if key in self._rest_cache:
            self._rest_cache.move_to_end(key)
            return self._rest_cache[key]
        canvas = self.background.copy()
        labels = np.full(canvas.shape[:2], -1, np.int16)
        areas = []
        for k in key:
            areas.append(self._draw_card(canvas, labels, k, self._cards[k].quad))
        self._rest_cache[key] = (canvas, labels, areas)
        if len(self._rest_cache) > 4:
            self._rest_cache.popitem(last=False)
        return canvas, labels, areas

    def _draw_card(self, canvas: np.ndarray, labels: np.ndarray, k: int, quad: np.ndarray) -> int:
        step = self._cards[k]
        short = float(np.linalg.norm(quad[1] - quad[0]))
        face = face_bgra(step.card, step.style, face_width_for(short))
        x0, y0, alpha = composite_card(canvas, face, quad, (short * 0.03, short * 0.04, short * 0.03, 0.35))
        covered = alpha >= 128
        labels[y0 : y0 + alpha.shape[0], x0 : x0 + alpha.shape[1]][covered] = k
        return int(covered.sum())

    def _draw_hand(self, canvas: np.ndarray, labels: np.ndarray, hand: _HandStep, out: float) -> None:
        h, w = canvas.shape[:2]
        dx, dy = (hand.away * out).astype(int)
        x0, y0 = hand.origin[0] + dx, hand.origin[1] + dy
        sh, sw = hand.mask.shape
        cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x0 + sw), min(h, y0 + sh)
        if cx1 <= cx0 or cy1 <= cy0:
            return
        m = hand.mask[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
        a = m.astype(np.float32)[..., None] / 255.0
        sprite = hand.sprite[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
        roi = canvas[cy0:cy1, cx0:cx1]
        roi[:] = (roi * (1 - a) + sprite * a).astype(np.uint8)
        labels[cy0:cy1, cx0:cx1][m >= 128] = HAND

    def frame(self, i: int) -> tuple[np.ndarray, list[SceneCard]]:
        """Frame ``i`` (BGR uint8) and the truth of the cards entirely in view."""
        i = i % self.length
        phases = [(k, _eased(s.at, s.leave, i)) for k, s in enumerate(self._cards)]
        resting = tuple(k for k, out in phases if out == 0.0)
        base, base_labels, base_areas = self._resting(resting)
        canvas, labels = base.copy(), base_labels.copy()
        areas = dict(zip(resting, base_areas, strict=True))
        quads = {k: self._cards[k].quad for k in resting}
        for k, out in phases:
            if out is not None and out > 0.0:
                quad = self._cards[k].quad + self._cards[k].away * np.float32(out)
                areas[k] = self._draw_card(canvas, labels, k, quad)
                quads[k] = quad
        for hand in self._hands:
            out = _eased(hand.at, hand.leave, i)
            if out is not None:
                self._draw_hand(canvas, labels, hand, out)
        gain = 1.0 + 0.1 * np.sin(2 * np.pi * i / (7 * FPS)) + 0.04 * np.sin(2 * np.pi * i / (2.3 * FPS))
        canvas = cv2.convertScaleAbs(canvas, alpha=float(gain))
        h, w = canvas.shape[:2]
        oy, ox = (i * 7) % 16, (i * 11) % 16
        canvas = cv2.add(canvas, self._noise[oy : oy + h, ox : ox + w], dtype=cv2.CV_8U)
        truth = []
        for k in sorted(quads, key=lambda k: self._cards[k].at):
            quad = quads[k]
            if quad[:, 0].min() < 0 or quad[:, 1].min() < 0 or quad[:, 0].max() > w - 1 or quad[:, 1].max() > h - 1:
                continue
            occluded, index_visible = card_truth(labels, k, quad, areas[k])
            truth.append(SceneCard(self._cards[k].card.id, quad.copy(), round(occluded, 4), index_visible))
        return canvas, truth


def _stable_index(text: str, seed: int, n: int) -> int:
    """A stable choice among ``n`` from a text and a seed (``hash`` changes between runs)."""
    return zlib.crc32(f"{seed}:{text}".encode()) % n
