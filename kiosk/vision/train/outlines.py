"""Data and training for the outline model (:mod:`kiosk.vision.outline`).

Each sample is a rendered scene on a training table (``split="train"``: the held-out tables of
the benchmarks are never seen) or, for :data:`BUSY_SHARE` of them, on a carpet or printed
matter, with every deck's looks, cards apart or in piles, hands and clutter, cropped and zoomed
so cards take 6 to 30 % of the frame width. The target comes from the renderer's pixel ownership
map: *card* where a card's visible face is, *outline* on a band along every border between a
card and anything else (the table, a hand, another card).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from kiosk.decks import DECK_IDS
from kiosk.render.scenes import render_empty, render_scene
from kiosk.vision.outline import INPUT_WH, MODEL_FILE, OutlineModel, fit_input, normalise
from kiosk.vision.train.dataset import pooled
from kiosk.vision.train.fit import RunSettings, start_tensorflow, write_record
from kiosk.vision.train.surfaces import carpet, printed, sunlit

_RENDER_WH = (640, 360)
#: Share of the scenes with cards laid on a carpet or printed matter (:mod:`.surfaces`), half of
#: those in a patch of sunlight: the surfaces real photos show and the training tables do not.
BUSY_SHARE = 0.3
MAX_INT8_IOU_LOSS = 0.005  # int8 is shipped unless its card IoU is this much below float32's
_KERNEL = np.ones((3, 3), np.uint8)


def outline_target(labels: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Class per pixel (0 table, 1 card, 2 outline) at ``size`` (w, h) from an ownership map
    (card index >= 0, anything else < 0) of a larger frame."""
    lab = labels.astype(np.int16)
    hi = cv2.dilate(lab, _KERNEL)
    lo = cv2.erode(lab, _KERNEL)
    border: np.ndarray = ((hi != lo) & (hi >= 0)).astype(np.float32)
    card: np.ndarray = (lab >= 0).astype(np.float32)
    border = cv2.resize(border, size, interpolation=cv2.INTER_AREA)
    card = cv2.resize(card, size, interpolation=cv2.INTER_AREA)
    target = (card >= 0.5).astype(np.uint8)
    target[border >= 0.3] = 2
    return target


def outline_sample(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One (BGR uint8 image, class map) pair of :data:`INPUT_WH`."""
    seed = int(rng.integers(2**31))
    if rng.random() < 0.06:  # no card at all: hands, phones, paper
        image = render_empty(seed, _RENDER_WH, "train")
        labels: np.ndarray = np.full(image.shape[:2], -1, np.int16)
    else:
        deck = DECK_IDS[int(rng.integers(len(DECK_IDS)))]
        busy = rng.random() < BUSY_SHARE
        surface = (carpet if rng.random() < 0.5 else printed)(rng, _RENDER_WH) if busy else None
        scene = render_scene(
            deck,
            int(rng.integers(1, 13)),
            seed,
            _RENDER_WH,
            split="train",
            overlap=bool(rng.random() < 0.5),
            hand=bool(rng.random() < 0.3),
            distractors=bool(rng.random() < 0.4),
            surface=surface,
        )
        assert scene.labels is not None
        image, labels = scene.image, scene.labels
        if busy and rng.random() < 0.5:
            image = sunlit(image, rng)
    w, h = _RENDER_WH
    aspect = (16 / 9, 16 / 9, 320 / 192, 4 / 3)[int(rng.integers(4))]  # frame shapes cameras give
    zoom = float(rng.uniform(1.0, 2.0)) if rng.random() < 0.6 else 1.0
    ch = int(min(h, w / aspect) / zoom)
    cw = int(ch * aspect)
    x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
    image, labels = image[y0 : y0 + ch, x0 : x0 + cw], labels[y0 : y0 + ch, x0 : x0 + cw]
    if rng.random() < 0.5:
        image, labels = image[:, ::-1], labels[:, ::-1]
    small, size = fit_input(np.ascontiguousarray(image))  # as the runtime sees a frame
    target = outline_target(np.ascontiguousarray(labels), size)
    iw, ih = INPUT_WH
    target = cv2.copyMakeBorder(target, 0, ih - size[1], 0, iw - size[0], cv2.BORDER_REPLICATE)
    return small, target


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, chunk, n = args
    rng = np.random.default_rng([seed, chunk])
    pairs = [outline_sample(rng) for _ in range(n)]
    return np.stack([p[0] for p in pairs]), np.stack([p[1] for p in pairs])


def generate(n: int, seed: int, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``n`` samples: images (n, H, W, 3) uint8 and class maps (n, H, W) uint8."""
    return pooled(_chunk, n, seed, 64, workers)


@dataclass(frozen=True)
class Settings(RunSettings):
    """The outline model's run: rendered scenes rather than samples per class."""

    epochs: int = 10
    batch: int = 16
    samples: int = 8600  # as many on the training tables as 6,000 gave before BUSY_SHARE
    val_samples: int = 300
    outline_weight: float = 3.0  # outline pixels are few and decide where cards part


def _weighted_loss(weight: float) -> Callable[[Any, Any], Any]:
    import tensorflow as tf

    weights = tf.constant([1.0, 1.0, weight])

    def loss(y_true: Any, y_pred: Any) -> Any:
        y = tf.cast(tf.reshape(y_true, tf.shape(y_pred)[:-1]), tf.int32)
        ce = tf.keras.losses.sparse_categorical_crossentropy(y, y_pred)
        return tf.reduce_mean(ce * tf.gather(weights, y))

    return loss


def class_iou(pred: np.ndarray, truth: np.ndarray) -> list[float]:
    """Intersection over union of each class between predicted and true class maps."""
    return [float(((pred == c) & (truth == c)).sum() / max(1, ((pred == c) | (truth == c)).sum())) for c in range(3)]


def _tflite_iou(path: Path, x: np.ndarray, y: np.ndarray) -> list[float]:
    model = OutlineModel(path)
    preds = []
    for img in x:
        card, edge = model.maps(img)
        preds.append(np.where(edge >= 0.5, 2, np.where(card >= 0.5, 1, 0)))
    return class_iou(np.stack(preds), y)


def train_outlines(out: Path, s: Settings, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Build ``out/outline.tflite`` and its record ``out/outline.train.json``."""
    from kiosk.vision.train.export import write_quantized
    from kiosk.vision.train.model import build_outline

    tf = start_tensorflow(s.workers, s.seed)
    started = time.monotonic()
    x, y = generate(s.samples, s.seed, s.workers)
    xv, yv = generate(s.val_samples, s.val_seed, s.workers)
    log(f"outline: {len(x)} training and {len(xv)} held-out scenes in {time.monotonic() - started:.0f} s")
    model = build_outline()
    steps = s.epochs * int(np.ceil(len(x) / s.batch))
    model.compile(
        tf.keras.optimizers.Adam(tf.keras.optimizers.schedules.CosineDecay(s.learning_rate, steps)),
        loss=_weighted_loss(s.outline_weight),
    )
    xv_in = normalise(xv)
    for epoch in range(s.epochs):
        order = np.random.default_rng([s.seed, epoch]).permutation(len(x))
        losses = []
        for i in range(0, len(x), s.batch):
            idx = order[i : i + s.batch]
            losses.append(float(model.train_on_batch(normalise(x[idx]), y[idx][..., None])))
        iou = class_iou(model.predict(xv_in, batch_size=32, verbose=0).argmax(-1), yv)
        log(
            f"epoch {epoch + 1}/{s.epochs}: loss {np.mean(losses):.4f}, held-out IoU card {iou[1]:.3f} "
            f"outline {iou[2]:.3f} ({time.monotonic() - started:.0f} s)"
        )
    out.mkdir(parents=True, exist_ok=True)
    weights = out / "outline.weights.h5"
    model.save_weights(weights)  # kept until the conversion has worked
    fixed = build_outline(INPUT_WH)  # TFLite gets fixed shapes: its resize ops need them
    fixed.set_weights(model.get_weights())
    model = fixed
    calib = normalise(x[np.random.default_rng(s.seed).choice(len(x), min(200, len(x)), replace=False)])

    def measure(path: Path) -> dict[str, float]:
        iou = _tflite_iou(path, xv, yv)
        return {"iou_card": round(iou[1], 4), "iou_outline": round(iou[2], 4)}

    figures = write_quantized(model, out / MODEL_FILE, calib, measure, "iou_card", MAX_INT8_IOU_LOSS)
    weights.unlink()
    head = {"model": "outline", "input_wh": list(INPUT_WH)}
    return write_record(out / "outline.train.json", head, model, len(x), len(xv), started, s, figures, log)
