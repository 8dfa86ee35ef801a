"""Labelled arrays for the index model, built from :mod:`.synth` and :mod:`.augment`.

Each sample goes through the same :func:`kiosk.vision.model_input.prepare` as at run time. A seed
fixes the whole dataset; the validation set uses another seed, so its designs, tables and
distortions were never seen in training. Generation is spread over worker processes because it
costs more than the training itself on two cores.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from kiosk.decks import RANKS, SUITS, Card, load_deck
from kiosk.render.faces import face_styles, render_face
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.members import JOKER_LABEL, NONE_LABEL
from kiosk.vision.model_input import prepare
from kiosk.vision.train.augment import corner_view, detector_view, misplaced_view, photometric, washed_out
from kiosk.vision.train.negatives import synth_negative, table_texture
from kiosk.vision.train.synth import synth_face

INDEX_LABELS: tuple[str, ...] = tuple(f"{r}{s}" for s in SUITS for r in RANKS) + (
    JOKER_LABEL,
    NONE_LABEL,
)
#: Share of card samples drawn by the kiosk's own renderer (its looks and the posters); the rest
#: are random brands from :mod:`.synth`.
RENDERED_SHARE = 0.35
#: Share of index samples washed out to 0-60 % of their colour (see :func:`.augment.washed_out`).
WASHED_OUT_SHARE = 0.25
INDEX_INPUT: tuple[int, int] = (32, 64)  # w, h: the index box (0.22 x 0.32 of the face) is ~1:2
_IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


#: Share of "none" samples cut through an outline that missed its card (:func:`.augment.misplaced_view`);
#: the rest are clutter and card backs (:func:`.negatives.synth_negative`). A trial at 0.35 named more real
#: clutter (models/MODEL.md): fewer clutter samples.
MISPLACED_SHARE = 0.25


def _index_none(rng: np.random.Generator) -> np.ndarray:
    """A corner crop that holds no index: a card's pips, picture or edge through an outline that
    missed it, clutter or a back."""
    if rng.random() < MISPLACED_SHARE:
        label = INDEX_LABELS[int(rng.integers(len(INDEX_LABELS) - 1))]  # any card, the joker too
        return corner_view(misplaced_view(_card_face(rng, label), rng, _table(rng)), rng)
    neg = cv2.cvtColor(synth_negative(rng), cv2.COLOR_RGB2BGR)
    return corner_view(neg, rng, scale=(0.6, 2.0), shift=0.5)


@cache
def _rendered_cards(label: str) -> tuple[Card, ...]:
    """The kiosk's own cards that carry the index ``label`` (standard looks and posters)."""
    decks = (load_deck("standard-52"), load_deck("affiche-belge"))
    if label == JOKER_LABEL:
        return tuple(c for d in decks for c in d if c.kind == "joker")
    return tuple(d[label] for d in decks if label in d)


def _card_face(rng: np.random.Generator, label: str) -> np.ndarray:
    """A clean face (BGR) that carries the index ``label``: one of the kiosk's own looks or a
    random brand."""
    rendered = _rendered_cards(label)
    if rendered and rng.random() < RENDERED_SHARE:
        card = rendered[int(rng.integers(len(rendered)))]
        styles = face_styles(card.deck)
        face = np.asarray(render_face(card, styles[int(rng.integers(len(styles)))], FACE_SIZE[0]))
    else:
        rank, suit = ("JK", "*") if label == JOKER_LABEL else (label[:-1], label[-1])
        face = synth_face(rng, rank, suit)
    return cv2.cvtColor(face, cv2.COLOR_RGB2BGR)


def _table(rng: np.random.Generator) -> np.ndarray:
    return cv2.cvtColor(table_texture(rng, (64, 64)), cv2.COLOR_RGB2BGR)


def _index_card(rng: np.random.Generator, label: str) -> np.ndarray:
    return corner_view(detector_view(_card_face(rng, label), rng, _table(rng)), rng)


def index_sample(rng: np.random.Generator, label: str) -> np.ndarray:
    """One camera-like corner crop (BGR) of ``label`` for the index model."""
    crop = _index_none(rng) if label == NONE_LABEL else _index_card(rng, label)
    return washed_out(photometric(crop, rng), rng, WASHED_OUT_SHARE)


Sampler = Callable[[np.random.Generator, str], np.ndarray]


def _chunk(
    args: tuple[Sampler, tuple[str, ...], tuple[int, int], int, int, list[int]],
) -> tuple[np.ndarray, np.ndarray]:
    sampler, labels, size, seed, chunk, classes = args
    rng = np.random.default_rng([seed, chunk])
    return prepare([sampler(rng, labels[c]) for c in classes], size), np.asarray(classes, np.int32)


def generate(
    sampler: Sampler,
    labels: tuple[str, ...],
    size: tuple[int, int],
    per_class: int,
    seed: int,
    workers: int = 2,
    none_factor: int = 3,
) -> tuple[np.ndarray, np.ndarray]:
    """``per_class`` samples of each label (``none_factor`` times as many "none"), shuffled.

    ``sampler`` must be picklable (a module-level function or a partial of one): chunks of 512
    samples are drawn in worker processes, each from its own seeded generator.
    """
    classes = [c for c, lab in enumerate(labels) for _ in range(per_class * (none_factor if lab == NONE_LABEL else 1))]
    np.random.default_rng(seed).shuffle(classes)
    step = 512
    jobs = [
        (sampler, labels, size, seed, i, classes[i * step : (i + 1) * step])
        for i in range((len(classes) + step - 1) // step)
    ]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(_chunk, jobs))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def pooled(
    chunk: Callable[[tuple[int, int, int]], tuple[np.ndarray, np.ndarray]], n: int, seed: int, step: int, workers: int
) -> tuple[np.ndarray, np.ndarray]:
    """``chunk((seed, i, size))`` over ``n`` samples in chunks of ``step``, spread over ``workers``
    processes (``chunk`` is a module-level function drawing from its own generator seeded with
    ``[seed, i]``, so the result does not depend on the workers), the pairs of arrays joined."""
    jobs = [(seed, i, min(step, n - i * step)) for i in range((n + step - 1) // step)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(chunk, jobs))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def real_folder(
    root: Path, labels: tuple[str, ...], size: tuple[int, int], repeats: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Real labelled photos: ``root/<label>/*.jpg`` (``none`` or ``NONE`` for no card).

    For the index model each photo is a corner crop, for a face model a whole face; each is
    used ``repeats`` times with fresh photometric augmentation. Unknown folders are an error.
    """
    rng = np.random.default_rng(seed)
    images, ys = [], []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        label = NONE_LABEL if folder.name.lower() == NONE_LABEL else folder.name
        if label not in labels:
            raise ValueError(f"{folder}: {label!r} is not a label of this model ({len(labels)} labels)")
        for path in sorted(folder.iterdir()):
            img = cv2.imread(str(path)) if path.suffix.lower() in _IMAGE_SUFFIXES else None
            if img is None:
                continue
            for _ in range(repeats):
                images.append(photometric(img, rng))
                ys.append(labels.index(label))
    if not images:
        return np.zeros((0, size[1], size[0], 3), np.float32), np.zeros((0,), np.int32)
    return prepare(images, size), np.asarray(ys, np.int32)
