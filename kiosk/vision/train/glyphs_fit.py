"""``kiosk train --glyphs``: the glyph reader's network (:mod:`kiosk.vision.glyph_reader`), trained
on :mod:`.glyphs`' located glyphs and written as ``glyphs.tflite`` by the export rule.

One small CNN on a 32 x 32 ink patch with two heads, rank (13 + none) and suit (4 + none); the
written file outputs both softmaxes side by side (rank first), one output for the runtime. A
head's label ``-1`` (the patch holds part of a glyph) adds nothing to its loss.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.vision.glyph_reader import GLYPH_SIDE, MODEL_FILE, RANK_LABELS, SUIT_LABELS
from kiosk.vision.runtime import TfliteModel
from kiosk.vision.train.fit import RunSettings, start_tensorflow, write_record
from kiosk.vision.train.glyphs import generate
from kiosk.vision.train.synth import font_paths


@dataclass(frozen=True)
class Settings(RunSettings):
    """The glyph model's run: random faces (each gives 0 to 6 located glyphs)."""

    epochs: int = 12
    faces: int = 24000
    val_faces: int = 2000


def build_glyphs(side: int = GLYPH_SIDE) -> Any:
    """Three blocks of 3x3 convolutions (16, 32, 48 channels), a 96-unit layer, and the two heads;
    for training, a model with the two outputs apart."""
    import tensorflow as tf

    layers = tf.keras.layers
    inp = tf.keras.Input((side, side, 1), name="glyph")
    x = inp
    for filters, convs in ((16, 1), (32, 2), (48, 2)):
        for _ in range(convs):
            x = layers.Conv2D(filters, 3, padding="same", use_bias=False)(x)
            x = layers.ReLU()(layers.BatchNormalization()(x))
        x = layers.MaxPooling2D(2)(x)
    x = layers.Dense(96, activation="relu")(layers.Flatten()(x))
    rank = layers.Dense(len(RANK_LABELS), activation="softmax", name="rank")(x)
    suit = layers.Dense(len(SUIT_LABELS), activation="softmax", name="suit")(x)
    return tf.keras.Model(inp, [rank, suit])


def joined(model: Any) -> Any:
    """``model``'s two heads as one output, rank then suit (what the runtime reads)."""
    import tensorflow as tf

    both = tf.keras.layers.Concatenate(name="glyphs")(model.outputs)
    return tf.keras.Model(model.inputs, both)


def _masked_loss(y: Any, p: Any) -> Any:
    """Sparse cross-entropy where the label is a class; nothing where it is -1."""
    import tensorflow as tf

    y = tf.reshape(tf.cast(y, tf.int32), [-1])
    keep = tf.cast(y >= 0, p.dtype)
    loss = tf.keras.losses.sparse_categorical_crossentropy(tf.maximum(y, 0), p)
    return tf.reduce_sum(loss * keep) / tf.maximum(tf.reduce_sum(keep), 1.0)


def accuracies(probs: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Per head, the share of labelled held-out patches read right (``probs``: both heads side by side)."""
    out = {}
    for k, (name, lo, hi) in enumerate((("rank", 0, len(RANK_LABELS)), ("suit", len(RANK_LABELS), probs.shape[1]))):
        has = y[:, k] >= 0
        out[f"{name}_accuracy"] = float((probs[has, lo:hi].argmax(1) == y[has, k]).mean())
    out["accuracy"] = (out["rank_accuracy"] + out["suit_accuracy"]) / 2
    return out


def _tflite_figures(xv: np.ndarray, yv: np.ndarray) -> Callable[[Path], dict[str, float]]:
    def measure(path: Path) -> dict[str, float]:
        model = TfliteModel(path)
        probs = np.concatenate([model.run(xv[i : i + 512])[0] for i in range(0, len(xv), 512)])
        return accuracies(probs, yv)

    return measure


def train_glyphs(out: Path, s: Settings, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Build ``out/glyphs.tflite``, its labels and its record ``out/glyphs.train.json``."""
    from kiosk.vision.train.export import MAX_INT8_LOSS, write_quantized

    tf = start_tensorflow(s.workers, s.seed)
    started = time.monotonic()
    x, y = generate(s.faces, s.seed, s.workers)
    xv, yv = generate(s.val_faces, s.val_seed, s.workers)
    log(f"glyphs: {len(x)} training and {len(xv)} held-out patches in {time.monotonic() - started:.0f} s")
    model = build_glyphs()
    steps = s.epochs * int(np.ceil(len(x) / s.batch))
    model.compile(
        tf.keras.optimizers.Adam(tf.keras.optimizers.schedules.CosineDecay(s.learning_rate, steps)),
        loss=[_masked_loss, _masked_loss],
    )
    for epoch in range(s.epochs):
        loss = model.fit(x, [y[:, 0], y[:, 1]], batch_size=s.batch, epochs=1, verbose=0, shuffle=True).history["loss"][
            -1
        ]
        figures = accuracies(np.concatenate(model.predict(xv, batch_size=512, verbose=0), axis=1), yv)
        log(
            f"epoch {epoch + 1}/{s.epochs}: loss {loss:.4f}, held-out rank {figures['rank_accuracy']:.4f}, "
            f"suit {figures['suit_accuracy']:.4f}"
        )
    out.mkdir(parents=True, exist_ok=True)
    calib = x[np.random.default_rng(s.seed).choice(len(x), size=min(500, len(x)), replace=False)]
    written = write_quantized(
        joined(model), out / MODEL_FILE, calib, _tflite_figures(xv, yv), "accuracy", MAX_INT8_LOSS
    )
    labels = [f"rank:{r}" for r in RANK_LABELS] + [f"suit:{c}" for c in SUIT_LABELS]
    (out / "glyphs.labels.txt").write_text("\n".join(labels) + "\n", encoding="utf-8")
    head = {
        "model": "glyphs",
        "labels": len(labels),
        "input_wh": [GLYPH_SIDE, GLYPH_SIDE],
        "rank_fonts": len(font_paths()),
    }
    counts = {"rank_labelled": int((y[:, 0] >= 0).sum()), "suit_labelled": int((y[:, 1] >= 0).sum())}
    log(json.dumps(counts))
    return write_record(out / "glyphs.train.json", {**head, **counts}, model, len(x), len(xv), started, s, written, log)
