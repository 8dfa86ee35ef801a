"""Train one shipped model end to end: data, fit, held-out check, export, a JSON record.

The record (``<name>.train.json`` beside the model) holds the settings, the sizes and the
measured accuracies, so ``models/MODEL.md`` quotes what the command really produced.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.decks import RANKS, SUITS, load_deck
from kiosk.vision.members import member_stem, model_name
from kiosk.vision.train.dataset import (
    INDEX_INPUT,
    INDEX_LABELS,
    Sampler,
    generate,
    index_sample,
    real_folder,
)
from kiosk.vision.train.export import export
from kiosk.vision.train.faces import FACE_INPUT, face_labels, face_sample
from kiosk.vision.train.model import build_face, build_index
from kiosk.vision.train.synth import font_paths


@dataclass(frozen=True)
class RunSettings:
    """What every training run is decided by (recorded in the JSON next to the model)."""

    epochs: int = 14
    batch: int = 128
    learning_rate: float = 2e-3
    seed: int = 1
    val_seed: int = 1001  # the held-out data's seed
    workers: int = 2


@dataclass(frozen=True)
class Settings(RunSettings):
    """An identification model's run: synthetic samples per class, optional real photos."""

    per_class: int = 500
    val_per_class: int = 60
    real: str | None = None
    real_repeats: int = 4


def fit_classifier(
    model: Any,
    x: np.ndarray,
    y: np.ndarray,
    xv: np.ndarray,
    yv: np.ndarray,
    s: RunSettings,
    log: Callable[[str], None],
) -> None:
    """Fit ``model`` on (x, y) for ``s.epochs``, logging the held-out (xv, yv) accuracy each epoch."""
    import tensorflow as tf

    steps = s.epochs * int(np.ceil(len(x) / s.batch))
    schedule = tf.keras.optimizers.schedules.CosineDecay(s.learning_rate, steps)
    outputs = model.outputs
    losses: Any = "sparse_categorical_crossentropy" if len(outputs) == 1 else ["sparse_categorical_crossentropy", None]
    model.compile(
        tf.keras.optimizers.Adam(schedule),
        loss=losses,
        metrics=["accuracy"] if len(outputs) == 1 else [["accuracy"], []],
    )
    for epoch in range(s.epochs):
        hist = model.fit(x, y, batch_size=s.batch, epochs=1, verbose=0, shuffle=True)
        loss = hist.history["loss"][-1]
        probs = model.predict(xv, batch_size=512, verbose=0)
        probs = probs[0] if isinstance(probs, list) else probs
        line = f"epoch {epoch + 1}/{s.epochs}: loss {loss:.4f}, held-out accuracy {(probs.argmax(1) == yv).mean():.4f}"
        if probs.shape[1] == len(INDEX_LABELS):
            line += f", clubs and spades told apart {black_suit_accuracy(probs, yv):.3f}"
        log(line)


def black_suit_accuracy(probs: np.ndarray, y: np.ndarray) -> float:
    """Of the held-out clubs and spades, the share whose likelier suit is right.

    The index model's hardest step (a few pixels tell a club from a spade): a run that has not
    parted them sits near 0.5 here while its overall accuracy looks merely mediocre."""
    cards = len(SUITS) * len(RANKS)  # INDEX_LABELS starts with them, suit by suit
    suits = probs[:, :cards].reshape(-1, len(SUITS), len(RANKS)).sum(axis=2).argmax(axis=1)
    black = [SUITS.index("C"), SUITS.index("S")]
    is_black = (y < cards) & np.isin(y // len(RANKS), black)
    return float((suits[is_black] == y[is_black] // len(RANKS)).mean()) if is_black.any() else float("nan")


def start_tensorflow(workers: int, seed: int) -> Any:
    """TensorFlow on ``workers`` threads with every random generator seeded; the module."""
    import tensorflow as tf

    tf.config.threading.set_intra_op_parallelism_threads(workers)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.keras.utils.set_random_seed(seed)
    return tf


def train(deck_id: str, out: Path, s: Settings, log: Callable[[str], None] = print, member: int = 1) -> dict[str, Any]:
    """Build the model that identifies ``deck_id``'s cards and write it to ``out``: as its
    ``member``-th member (``index.2.tflite``, another seed), whose answers the kiosk averages
    with the first's."""
    start_tensorflow(s.workers, s.seed)
    deck = load_deck(deck_id)
    name = model_name(deck)
    if deck.identify_by == "index":
        labels, size = INDEX_LABELS, INDEX_INPUT
        sampler: Sampler = index_sample
        model = build_index((size[1], size[0]))
    else:
        labels, size = face_labels(deck), FACE_INPUT
        sampler = partial(face_sample, deck.id)
        model = build_face((size[1], size[0]), len(labels))
    started = time.monotonic()
    x, y = generate(sampler, labels, size, s.per_class, s.seed, s.workers)
    xv, yv = generate(sampler, labels, size, s.val_per_class, s.val_seed, s.workers)
    if s.real:
        xr, yr = real_folder(Path(s.real), labels, size, s.real_repeats, s.seed)
        x, y = np.concatenate([x, xr]), np.concatenate([y, yr])
    log(f"{name}: {len(x)} training and {len(xv)} held-out samples in {time.monotonic() - started:.0f} s")
    fit_classifier(model, x, y, xv, yv, s, log)
    rng = np.random.default_rng(s.seed)
    calib = x[rng.choice(len(x), size=min(500, len(x)), replace=False)]
    figures = export(model, labels, out, name, calib, xv, yv, member)
    head = {"model": name, "member": member, "deck": deck_id, "labels": len(labels), "input_wh": list(size)}
    if deck.identify_by == "index":  # its data depends on the fonts installed (models/MODEL.md)
        head["rank_fonts"] = len(font_paths())
    record = out / f"{member_stem(name, member)}.train.json"
    return write_record(record, head, model, len(x), len(xv), started, s, figures, log)


def write_record(
    path: Path,
    head: dict[str, Any],
    model: Any,
    n_train: int,
    n_held_out: int,
    started: float,
    s: RunSettings,
    figures: dict[str, Any],
    log: Callable[[str], None],
) -> dict[str, Any]:
    """The JSON record beside a trained model (what MODEL.md quotes); returned and logged."""
    import tensorflow as tf

    record = {
        **head,
        "parameters": int(model.count_params()),
        "training_samples": n_train,
        "held_out_samples": n_held_out,
        "seconds": round(time.monotonic() - started),
        "settings": asdict(s),
        "tensorflow": tf.__version__,
        **figures,
    }
    path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    log(json.dumps(record, indent=2))
    return record
