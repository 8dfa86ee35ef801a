"""``kiosk train --requantize``: the index network rebuilt from an exported float32 file answers
as the file does, and a file that is not a float32 index member is refused with its reason.
Needs the ``train`` extra (TensorFlow); skipped without it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from kiosk.errors import KioskError

tf = pytest.importorskip("tensorflow")

from kiosk.vision.train import requantize as rq  # noqa: E402
from kiosk.vision.train.dataset import INDEX_INPUT, INDEX_LABELS, generate, index_sample  # noqa: E402
from kiosk.vision.train.export import convert, tflite_accuracy  # noqa: E402
from kiosk.vision.train.model import build_index  # noqa: E402
from kiosk.vision.train.requantize import rebuild_index, requantize  # noqa: E402
from kiosk.vision.train.synth import font_paths  # noqa: E402

MODELS = Path(__file__).resolve().parents[1] / "models"


def test_the_rebuilt_network_answers_as_the_float32_file_does(tmp_path: Path) -> None:
    """Batch norms with statistics of their own, folded into the convolutions by the export,
    come back as the folded network's biases."""
    model = build_index((64, 32))
    rng = np.random.default_rng(3)
    for layer in model.layers:
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            n = layer.gamma.shape[0]
            layer.set_weights(
                [rng.uniform(0.5, 1.5, n), rng.normal(0, 0.3, n), rng.normal(0, 0.3, n), rng.uniform(0.5, 2.0, n)]
            )
    path = tmp_path / "index.tflite"
    path.write_bytes(convert(model, "float32"))
    rebuilt = rebuild_index(path)
    x = rng.normal(size=(16, 64, 32, 3)).astype(np.float32)
    assert np.abs(rebuilt.predict(x, verbose=0) - model.predict(x, verbose=0)).max() < 1e-4


def test_a_file_not_float32_or_without_its_record_is_refused(tmp_path: Path) -> None:
    shutil.copy(MODELS / "index.2.tflite", tmp_path / "index.2.tflite")
    with pytest.raises(KioskError, match="training record"):
        requantize(tmp_path / "index.2.tflite")
    shutil.copy(MODELS / "index.2.train.json", tmp_path / "index.2.train.json")
    with pytest.raises(KioskError, match="not a float32 index member"):
        requantize(tmp_path / "index.2.tflite")  # its record says int8
    before = (tmp_path / "index.2.tflite").read_bytes()
    record = json.loads((tmp_path / "index.2.train.json").read_text())
    (tmp_path / "index.2.train.json").write_text(json.dumps({**record, "shipped": "float32"}))
    with pytest.raises(KioskError, match="not a float32 index network"):
        requantize(tmp_path / "index.2.tflite")  # an int8 file holds no float weights to rebuild
    assert (tmp_path / "index.2.tflite").read_bytes() == before


def test_the_file_is_written_again_as_the_rule_ships_it_and_its_record_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rebuilt network must score what the record says the file scored on the held-out set
    drawn again from the record's seeds; then the kinds the record lacks are measured, and the
    one the rule ships (the loss allowed is widened for an untrained network) replaces the file."""
    path = tmp_path / "index.tflite"
    path.write_bytes(convert(build_index((64, 32)), "float32"))
    settings = {"val_per_class": 1, "val_seed": 1001, "workers": 1}
    xv, yv = generate(index_sample, INDEX_LABELS, INDEX_INPUT, 1, 1001, 1)
    accuracy = tflite_accuracy(path, xv, yv, len(INDEX_LABELS))
    record = {
        "model": "index",
        "rank_fonts": len(font_paths()),
        "settings": settings,
        "float32": {"accuracy": accuracy + 0.1},
        "int8": {"accuracy": accuracy - 0.5},
        "shipped": "float32",
    }
    (tmp_path / "index.train.json").write_text(json.dumps(record))
    float_file = path.read_bytes()
    with pytest.raises(KioskError, match="not the network the record describes"):
        requantize(path)
    assert path.read_bytes() == float_file
    record["float32"]["accuracy"] = accuracy
    (tmp_path / "index.train.json").write_text(json.dumps(record))
    monkeypatch.setattr(rq, "MAX_INT8_LOSS", 0.4)
    written = requantize(path, log=lambda line: None)
    assert written["shipped"] == "dynamic" and written["requantized"]["kinds_added"] == ["dynamic"]
    assert written["int8"] == {"accuracy": accuracy - 0.5} and 0.0 <= written["dynamic"]["accuracy"] <= 1.0
    assert json.loads((tmp_path / "index.train.json").read_text()) == written
    assert path.stat().st_size == written["dynamic"]["bytes"] < len(float_file) / 3
