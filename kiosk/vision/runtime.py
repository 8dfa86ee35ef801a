"""The one place that imports a TFLite interpreter, so the kiosk never needs TensorFlow.

Tried in order: ``ai_edge_litert`` (LiteRT, the current wheel on x86-64 and aarch64),
``tflite_runtime`` (the older wheel, still the one for 32-bit Raspberry Pi OS), then full
``tensorflow.lite`` (a training machine). None present: :class:`RuntimeMissing`, one line.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from kiosk.errors import KioskError

_CANDIDATES: tuple[str, ...] = (
    "ai_edge_litert.interpreter",
    "tflite_runtime.interpreter",
    "tensorflow.lite",
)


M = TypeVar("M")


def optional_model(make: Callable[[Path, int], M], path: Path, num_threads: int) -> M | None:
    """``make(path, num_threads)``, or None where there is no such file or no TFLite runtime is
    installed (the caller then works without that model)."""
    if not path.is_file():
        return None
    try:
        return make(path, num_threads)
    except RuntimeMissing:
        return None


class RuntimeMissing(KioskError):
    """No TFLite interpreter package is installed."""


def interpreter_class() -> Any:
    """The first importable ``Interpreter`` class of :data:`_CANDIDATES`."""
    for name in _CANDIDATES:
        try:
            return importlib.import_module(name).Interpreter
        except ImportError:
            continue
    raise RuntimeMissing("no TFLite runtime found: install 'ai-edge-litert' (or 'tflite-runtime' on 32-bit Pi OS)")


@contextlib.contextmanager
def _without_runtime_info() -> Iterator[None]:
    """Hold back the runtime's own ``INFO:`` lines on stderr (the XNNPACK banner it writes from
    C++ on every allocation) and pass every other line through: warnings and errors still show."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            for line in caught.read().decode(errors="replace").splitlines(keepends=True):
                if not line.startswith("INFO: "):
                    sys.stderr.write(line)


class TfliteModel:
    """A loaded ``.tflite`` file run on batches, single-threaded by default.

    The vision worker calls it for every frame, so the interpreter is resized only when the
    batch size changes and outputs are copied out once per call.
    """

    def __init__(self, path: Path, num_threads: int = 1) -> None:
        if not path.is_file():
            raise KioskError(f"model file not found: {path}")
        self.path = path
        self.num_threads = num_threads
        self._interp = interpreter_class()(model_path=str(path), num_threads=num_threads)
        with _without_runtime_info():
            self._interp.allocate_tensors()
        self._input = self._interp.get_input_details()[0]
        self._outputs = sorted(self._interp.get_output_details(), key=lambda d: d["name"])
        self._batch = int(self._input["shape"][0])

    @property
    def input_shape(self) -> tuple[int, ...]:
        """Per-sample input shape (height, width, channels)."""
        return tuple(int(x) for x in self._input["shape"][1:])

    @property
    def output_sizes(self) -> tuple[int, ...]:
        """Per-sample size of each output (sorted by tensor name)."""
        return tuple(int(np.prod(d["shape"][1:])) for d in self._outputs)

    @property
    def output_names(self) -> tuple[str, ...]:
        return tuple(d["name"] for d in self._outputs)

    def run(self, batch: np.ndarray) -> list[np.ndarray]:
        """Outputs (sorted by tensor name) for a float32 batch shaped ``(n, *input_shape)``."""
        n = int(batch.shape[0])
        if n == 0:
            return [np.zeros((0, *d["shape"][1:]), np.float32) for d in self._outputs]
        if n != self._batch:
            self._interp.resize_tensor_input(self._input["index"], [n, *self.input_shape])
            self._interp.allocate_tensors()
            self._batch = n
            self._outputs = sorted(self._interp.get_output_details(), key=lambda d: d["name"])
        self._interp.set_tensor(self._input["index"], np.ascontiguousarray(batch, dtype=np.float32))
        self._interp.invoke()
        return [self._interp.get_tensor(d["index"]).copy() for d in self._outputs]
