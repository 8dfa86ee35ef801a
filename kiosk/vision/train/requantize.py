"""``kiosk train --requantize models/index.tflite``: write a shipped float32 index member again as
today's export rule writes it, from the file's own weights, without training it again.

The export rule (:func:`.export.shipped_kind`) ships the first quantized kind that keeps the
held-out accuracy, ``dynamic`` (int8 weights, float activations) among them; a member exported
as float32 by a rule without that kind is written again by it here. Training that member
again on another CPU does not give its weights back (TensorFlow's kernels sum in another order:
``models/MODEL.md``), so the rule is applied to the weights in the file: the network
is rebuilt from it (:func:`rebuild_index`), its held-out set is drawn again from the seeds in
the record beside it, the rebuilt network must score what the record says the file scored,
and each quantized kind the record lacks is written and measured. Where one is shipped by the
rule, it replaces the file and the record says so."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.errors import KioskError
from kiosk.vision.runtime import TfliteModel, interpreter_class
from kiosk.vision.train.dataset import INDEX_INPUT, INDEX_LABELS, generate, index_sample
from kiosk.vision.train.export import MAX_INT8_LOSS, QUANTIZED, convert, shipped_kind, tflite_accuracy
from kiosk.vision.train.model import build_index
from kiosk.vision.train.synth import font_paths

#: The rebuilt network must answer as the file does, up to float rounding.
SAME_OUTPUT = 1e-4


def rebuild_index(path: Path) -> Any:
    """The Keras network of the float32 index file ``path`` (:func:`.model.build_index`, folded),
    holding the file's weights; it answers random inputs as the file does, or a
    :class:`KioskError` says the file is not such a network."""
    import tensorflow as tf

    interpreter = interpreter_class()(model_path=str(path))
    interpreter.allocate_tensors()
    weights = {name: _kernels(interpreter, name) for name in ("CONV_2D", "FULLY_CONNECTED")}
    kinds = {w.dtype.name for pairs in weights.values() for w, _ in pairs}
    if kinds != {"float32"}:
        raise KioskError(f"{path}: not a float32 index network (its weights are {', '.join(sorted(kinds))})")
    model = build_index((INDEX_INPUT[1], INDEX_INPUT[0]), folded=True)
    convs = [layer for layer in model.layers if isinstance(layer, tf.keras.layers.Conv2D)]
    dense = {tuple(w.shape): (w, b) for w, b in weights["FULLY_CONNECTED"]}
    try:
        for layer, (w, b) in zip(convs, weights["CONV_2D"], strict=True):
            layer.set_weights([np.transpose(w, (1, 2, 3, 0)), b])  # OHWI -> HWIO
        for layer in (la for la in model.layers if isinstance(la, tf.keras.layers.Dense)):
            w, b = dense[tuple(layer.kernel.shape[::-1])]
            layer.set_weights([w.T, b])
    except (ValueError, KeyError) as exc:
        raise KioskError(f"{path}: not a float32 index network ({exc})") from exc
    probe = np.random.default_rng(0).normal(size=(8, INDEX_INPUT[1], INDEX_INPUT[0], 3)).astype(np.float32)
    gap = float(np.abs(model.predict(probe, verbose=0) - TfliteModel(path).run(probe)[0]).max())
    if gap > SAME_OUTPUT:
        raise KioskError(f"{path}: the rebuilt network answers up to {gap:.2g} away from the file")
    return model


def _kernels(interpreter: Any, op_name: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """The kernel and bias of each ``op_name`` op of the file, in the graph's order (the op list
    has no public API); a bias the converter left out (index -1) is all zero."""
    out = []
    for op in interpreter._get_ops_details():  # noqa: SLF001
        if op["op_name"] == op_name:
            kernel, bias = interpreter.get_tensor(op["inputs"][1]), op["inputs"][2]
            out.append((kernel, interpreter.get_tensor(bias) if bias >= 0 else np.zeros(len(kernel), kernel.dtype)))
    return out


def requantize(path: Path, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Apply the export rule to the float32 index file ``path`` (see the module); returns the
    record as written."""
    record_path = path.with_name(f"{path.stem}.train.json")
    if not path.is_file() or not record_path.is_file():
        raise KioskError(f"{path}: needs the file and its training record {record_path.name} beside it")
    record = json.loads(record_path.read_text(encoding="utf-8"))
    if record.get("model") != "index" or record.get("shipped") != "float32":
        raise KioskError(f"{record_path}: not a float32 index member (shipped: {record.get('shipped')})")
    missing = [k for k in QUANTIZED if k not in record]
    if "int8" in missing:
        raise KioskError(
            f"{record_path}: no int8 figure, and an int8 file needs the run's calibration samples: train again"
        )
    started = time.monotonic()
    model = rebuild_index(path)
    if record.get("rank_fonts") != len(font_paths()):
        raise KioskError(
            f"{record_path}: trained with {record.get('rank_fonts')} rank fonts, "
            f"{len(font_paths())} installed: the held-out set would differ (models/MODEL.md)"
        )
    s = record["settings"]
    xv, yv = generate(index_sample, INDEX_LABELS, INDEX_INPUT, s["val_per_class"], s["val_seed"], s["workers"])
    files = {kind: convert(model, kind) for kind in ("float32", *missing)}
    results: dict[str, Any] = {k: record[k] for k in ("float32", *QUANTIZED) if k in record}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, data in files.items():
            (Path(tmp) / f"{kind}.tflite").write_bytes(data)
            measured = {
                "accuracy": tflite_accuracy(Path(tmp) / f"{kind}.tflite", xv, yv, len(INDEX_LABELS)),
                "bytes": len(data),
            }
            if kind == "float32":
                if abs(measured["accuracy"] - record["float32"]["accuracy"]) > 0.5 / len(xv):
                    raise KioskError(
                        f"{path}: rebuilt, it scores {measured['accuracy']:.4f} held-out, its record "
                        f"{record['float32']['accuracy']:.4f}: not the network the record describes"
                    )
                continue
            results[kind] = measured
    shipped = shipped_kind(results, "accuracy", MAX_INT8_LOSS)
    if shipped not in files:
        raise KioskError(f"{record_path}: by its own figures the rule ships {shipped}, yet it says float32")
    record.update(results)
    record["shipped"] = shipped
    record["requantized"] = {"from": "float32", "kinds_added": missing, "seconds": round(time.monotonic() - started)}
    if shipped != "float32":
        path.write_bytes(files[shipped])
    record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    figures = ", ".join(f"{k} {results[k]['accuracy']:.4f}" for k in ("float32", *QUANTIZED))
    log(f"{path}: held-out {figures}; shipped {shipped}")
    return record
