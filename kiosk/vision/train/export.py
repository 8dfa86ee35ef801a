"""Write a trained Keras model as ``.tflite`` beside its labels, and measure what was written with
the kiosk runtime: int8 weights and activations when that keeps the accuracy, else int8 weights
with float activations (dynamic range), else float32."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.vision.members import member_stem
from kiosk.vision.runtime import TfliteModel

#: A quantized file is shipped unless it loses more than this much held-out accuracy against float32.
MAX_INT8_LOSS = 0.003
#: The quantized kinds, tried in this order before float32: ``int8`` (weights and activations,
#: calibrated: the smallest, and the kind ARM cores run fastest) and ``dynamic`` (int8 weights,
#: float activations that the runtime quantizes sample by sample: loses less where calibrated
#: activations cost accuracy; the index network reads 16 corners in 1.5 against 5.2 ms float32
#: on an x86 development machine; not measured on a Pi).
QUANTIZED = ("int8", "dynamic")


def convert(model: Any, kind: str, representative: np.ndarray | None = None) -> bytes:
    """``model`` as a ``.tflite`` file of ``kind``: ``float32``, ``dynamic``, or ``int8``
    (calibrated on ``representative``)."""
    import tensorflow as tf

    with tempfile.TemporaryDirectory() as tmp:
        model.export(tmp, verbose=False)
        conv = tf.lite.TFLiteConverter.from_saved_model(tmp)
        if kind != "float32":
            conv.optimizations = [tf.lite.Optimize.DEFAULT]
        if kind == "int8":
            if representative is None:
                raise ValueError("an int8 file needs representative samples to calibrate on")
            conv.representative_dataset = lambda: ([x[None]] for x in representative)
        return bytes(conv.convert())


def tflite_accuracy(path: Path, x: np.ndarray, y: np.ndarray, n_labels: int, batch: int = 256) -> float:
    """Top-1 accuracy of the written file through the kiosk's own runtime."""
    model = TfliteModel(path)
    hits = 0
    for i in range(0, len(x), batch):
        probs = next(o for o in model.run(x[i : i + batch]) if o.shape[-1] == n_labels)
        hits += int((probs.argmax(1) == y[i : i + batch]).sum())
    return hits / max(1, len(x))


def write_quantized(
    model: Any, path: Path, calib: np.ndarray, measure: Callable[[Path], dict[str, float]], key: str, max_loss: float
) -> dict[str, Any]:
    """Write ``model`` to ``path`` as the first of :data:`QUANTIZED` (int8 calibrated on ``calib``)
    that loses no more than ``max_loss`` of ``measure(path)[key]`` against float32, else as
    float32; the figures of each kind, measured on the written files, and which was shipped."""
    results: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    for kind in ("float32", *QUANTIZED):
        files[kind] = convert(model, kind, calib)
        path.write_bytes(files[kind])
        results[kind] = {**measure(path), "bytes": len(files[kind])}
    results["shipped"] = shipped_kind(results, key, max_loss)
    path.write_bytes(files[results["shipped"]])
    return results


def shipped_kind(results: dict[str, dict[str, float]], key: str, max_loss: float) -> str:
    """The first of :data:`QUANTIZED` whose ``key`` figure is within ``max_loss`` of float32's,
    else ``float32``."""
    return next((k for k in QUANTIZED if results[k][key] >= results["float32"][key] - max_loss), "float32")


def export(
    model: Any,
    labels: tuple[str, ...],
    out: Path,
    name: str,
    calib: np.ndarray,
    x_val: np.ndarray,
    y_val: np.ndarray,
    member: int = 1,
) -> dict[str, Any]:
    """Write ``out/<name>.tflite`` (or its ``member``-th member, :func:`.identify.member_stem`) and
    ``out/<name>.labels.txt``; returns the measured figures."""
    out.mkdir(parents=True, exist_ok=True)
    results = write_quantized(
        model,
        out / f"{member_stem(name, member)}.tflite",
        calib,
        lambda p: {"accuracy": tflite_accuracy(p, x_val, y_val, len(labels))},
        "accuracy",
        MAX_INT8_LOSS,
    )
    (out / f"{name}.labels.txt").write_text("\n".join(labels) + "\n", encoding="utf-8")
    return results
