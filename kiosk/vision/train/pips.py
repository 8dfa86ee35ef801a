"""Data and training for the pip model (:mod:`kiosk.vision.pips`).

Each sample is a number card's face (ace to ten) as the detector hands it over: 35 % drawn by
the kiosk's renderer (its three pip families), the rest random brands of :mod:`.synth` (suits of
the installed fonts' glyphs or drawn outlines, any size and fatness), warped with imprecise
corners, a random table at the edges, turned either way up, then the light, blur, low
resolution and compression of :func:`.augment.photometric`, and scaled to 70 to 180 pixels
wide, as a card lies in a kiosk's frame. Its pips are cut out by the runtime's own
:func:`kiosk.vision.pips.pip_patches` and each labelled with the card's suit. The held-out set
uses another seed: designs and distortions never seen in training.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from kiosk.decks import Card, load_deck
from kiosk.render.compositing import motion_blurred
from kiosk.render.faces import face_styles, render_face
from kiosk.vision.face import FACE_SIZE, face_corners
from kiosk.vision.pips import PIP_INPUT, PIP_LABELS, pip_patches
from kiosk.vision.train.augment import detector_view, photometric
from kiosk.vision.train.dataset import RENDERED_SHARE, pooled
from kiosk.vision.train.fit import RunSettings, fit_classifier, start_tensorflow, write_record
from kiosk.vision.train.negatives import table_texture
from kiosk.vision.train.synth import synth_face

NUMBER_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


@cache
def _rendered(suit: str) -> tuple[Card, ...]:
    """The kiosk's standard-look number cards of ``suit``."""
    return tuple(c for c in load_deck("standard-52") if c.suit == suit and c.rank in NUMBER_RANKS)


def camera_card(rng: np.random.Generator, suit: str) -> tuple[np.ndarray, np.ndarray]:
    """A camera-like BGR picture of a number card of ``suit``, 70 to 180 pixels wide as on a
    kiosk's table, and its corners."""
    if rng.random() < RENDERED_SHARE:
        cards = _rendered(suit)
        card = cards[int(rng.integers(len(cards)))]
        styles = face_styles(card.deck)
        face = np.asarray(render_face(card, styles[int(rng.integers(len(styles)))], FACE_SIZE[0]))
    else:
        face = synth_face(rng, NUMBER_RANKS[int(rng.integers(len(NUMBER_RANKS)))], suit)
    face = cv2.cvtColor(face, cv2.COLOR_RGB2BGR)
    if rng.random() < 0.5:  # a card lies either way up
        face = np.ascontiguousarray(face[::-1, ::-1])
    table = cv2.cvtColor(table_texture(rng, (64, 64)), cv2.COLOR_RGB2BGR)
    face = photometric(detector_view(face, rng, table, jitter=0.015), rng)
    width = int(rng.integers(70, 181))
    seen = cv2.resize(face, (width, round(width * FACE_SIZE[1] / FACE_SIZE[0])), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.2:  # the camera's own smear acts at the card's size in the frame
        seen = motion_blurred(seen, rng)
    return seen, face_corners(seen)


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, chunk, faces = args
    rng = np.random.default_rng([seed, chunk])
    xs, ys = [], []
    for _ in range(faces):
        label = int(rng.integers(len(PIP_LABELS)))
        patches, _ = pip_patches(*camera_card(rng, PIP_LABELS[label]))
        xs.append(patches)
        ys.append(np.full(len(patches), label, np.int32))
    return np.concatenate(xs), np.concatenate(ys)


def generate(faces: int, seed: int, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The pips of ``faces`` faces: patches (n, PIP_INPUT, PIP_INPUT, 1) and suit labels (n,)."""
    return pooled(_chunk, faces, seed, 256, workers)


@dataclass(frozen=True)
class Settings(RunSettings):
    """The pip model's run: faces rather than samples per class (a face gives 1 to 10 pips)."""

    epochs: int = 8
    faces: int = 12000
    val_faces: int = 1200


def train_pips(out: Path, s: Settings, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Build ``out/pips.tflite`` and its record ``out/pips.train.json``."""
    from kiosk.vision.train.export import export
    from kiosk.vision.train.model import build_pips

    start_tensorflow(s.workers, s.seed)
    started = time.monotonic()
    x, y = generate(s.faces, s.seed, s.workers)
    xv, yv = generate(s.val_faces, s.val_seed, s.workers)
    log(f"pips: {len(x)} training and {len(xv)} held-out pips in {time.monotonic() - started:.0f} s")
    model = build_pips(PIP_INPUT, len(PIP_LABELS))
    fit_classifier(model, x, y, xv, yv, s, log)
    rng = np.random.default_rng(s.seed)
    calib = x[rng.choice(len(x), size=min(500, len(x)), replace=False)]
    figures = export(model, PIP_LABELS, out, "pips", calib, xv, yv)
    head = {"model": "pips", "labels": len(PIP_LABELS), "input_wh": [PIP_INPUT, PIP_INPUT]}
    return write_record(out / "pips.train.json", head, model, len(x), len(xv), started, s, figures, log)
