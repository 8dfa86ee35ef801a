"""Write a trained Keras model as ``.tflite`` (int8 weights and activations when that keeps the
accuracy, else float32) beside its labels, and measure what was written with the kiosk runtime."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.vision.identify import member_stem
from kiosk.vision.runtime import TfliteModel

#: int8 is shipped unless it loses more than this much held-out accuracy against float32.
MAX_INT8_LOSS = 0.003


def convert(model: Any, representative: np.ndarray | None) -> bytes:
    import tensorflow as tf

    with tempfile.TemporaryDirectory() as tmp:
        model.export(tmp, verbose=False)
        conv = tf.lite.TFLiteConverter.from_saved_model(tmp)
        if representative is not None:
            conv.optimizations = [tf.lite.Optimize.DEFAULT]
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


def write_quantized(model: Any, path: Path, calib: np.ndarray, measure: Callable[[Path], dict[str, float]],
                    key: str, max_loss: float) -> dict[str, Any]:
    """Write ``model`` to ``path`` as int8 (weights and activations, calibrated on ``calib``)
    unless that loses more than ``max_loss`` of ``measure(path)[key]`` against float32; the
    figures of both, measured on the written files, and which was shipped."""
    results: dict[str, Any] = {}
    for kind, rep in (("float32", None), ("int8", calib)):
        path.write_bytes(convert(model, rep))
        results[kind] = {**measure(path), "bytes": path.stat().st_size}
    chosen = "int8" if results["int8"][key] >= results["float32"][key] - max_loss else "float32"
    if chosen == "float32":
        path.write_bytes(convert(model, None))
    results["shipped"] = chosen
    return results


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
    results = write_quantized(model, out / f"{member_stem(name, member)}.tflite", calib,
                              lambda p: {"accuracy": tflite_accuracy(p, x_val, y_val, len(labels))},
                              "accuracy", MAX_INT8_LOSS)
    (out / f"{name}.labels.txt").write_text("\n".join(labels) + "\n", encoding="utf-8")
    return results
