"""The outline model: per pixel of a downscaled frame, how likely it is card, and card outline.

Hand-set cues (whiteness, edges) fail where the table is as white as the paper or striped like
it; a small fully-convolutional network trained on rendered scenes sees the faint shadow line
and the card's layout instead. Its *card* map gives the regions, its *outline* map the borders
that part touching and overlapping cards. The network has a fixed input (:data:`INPUT_WH`); a
frame of another shape is scaled to fit and the rest padded by repeating its edge.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from kiosk.vision.identify import default_models_dir
from kiosk.vision.runtime import TfliteModel, optional_model

MODEL_FILE = "outline.tflite"
INPUT_WH: tuple[int, int] = (320, 192)  # a 16:9 frame at 320 px, cards 25 to 50 px wide


def normalise(images: np.ndarray) -> np.ndarray:
    """Model input for uint8 BGR ``images`` (N, H, W, 3): each image's channel means removed and
    its contrast scaled to one, so exposure and colour casts do not matter. Training uses it."""
    out = np.empty(images.shape, np.float32)
    levels = np.arange(256, dtype=np.float32)[:, None]
    for i, img in enumerate(images):  # cv2's statistics: a tenth of numpy's time on a frame
        img = np.ascontiguousarray(img)
        mean, std = (v.ravel() for v in cv2.meanStdDev(img))
        spread = float(np.sqrt(np.mean(std**2 + mean**2) - np.mean(mean) ** 2))
        # each channel's 256 levels mapped once, then looked up: a fifth of the arithmetic's time
        scaled = (levels - mean.astype(np.float32)) * np.float32(1 / (spread + 4.0))
        out[i] = cv2.LUT(img, scaled.reshape(256, 1, 3))
    return out


def fit_input(img: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """``img`` scaled to fit :data:`INPUT_WH` and padded by repeating its last rows and columns
    (more table, not a black frame that would look like an edge); with the scaled (w, h)."""
    h, w = img.shape[:2]
    iw, ih = INPUT_WH
    scale = min(iw / w, ih / h)
    sw, sh = min(iw, max(1, round(w * scale))), min(ih, max(1, round(h * scale)))
    small = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    return cv2.copyMakeBorder(small, 0, ih - sh, 0, iw - sw, cv2.BORDER_REPLICATE), (sw, sh)


class OutlineModel:
    """Runs ``outline.tflite`` on one BGR uint8 frame."""

    def __init__(self, path: Path, num_threads: int = 1) -> None:
        self._model = TfliteModel(path, num_threads)

    def maps(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(card, outline) probabilities, float32 maps of ``bgr``'s height and width."""
        h, w = bgr.shape[:2]
        inp, (sw, sh) = fit_input(bgr)
        probs = self._model.run(normalise(inp[None]))[0][0, :sh, :sw]
        return tuple(
            cv2.resize(np.ascontiguousarray(probs[..., k]), (w, h), interpolation=cv2.INTER_LINEAR) for k in (1, 2)
        )  # type: ignore[return-value]


def load_outline_model(directory: Path | None = None, num_threads: int = 1) -> OutlineModel | None:
    """The shipped outline model run on ``num_threads``, or None when there is none (the
    detector's own cues then work alone) or no TFLite runtime is installed."""
    return optional_model(OutlineModel, (directory or default_models_dir()) / MODEL_FILE, num_threads)
