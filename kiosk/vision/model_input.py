"""The input of the reading models: images resized, paper-balanced and contrast-normalised
(:func:`prepare`, which training uses too)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Any image-like array as BGR uint8; a malformed one becomes a black pixel (answered None)."""
    arr = np.asarray(image)
    if arr.size == 0 or arr.ndim not in (2, 3):
        return np.zeros((1, 1, 3), np.uint8)
    if arr.dtype != np.uint8:
        arr = np.clip(np.nan_to_num(arr.astype(np.float32)), 0, 255).astype(np.uint8)
    if arr.ndim == 2:
        return cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR)
    if arr.shape[2] < 3:
        return cv2.cvtColor(np.ascontiguousarray(arr[:, :, 0]), cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(arr[:, :, :3])


def prepare(images: Sequence[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    """Model input for ``images``: resized to ``size`` (w, h), paper-balanced, contrast-normalised.

    Subtracting each channel's median (the paper, most of a card) cancels colour casts; dividing
    by the spread cancels exposure. Training uses this very function.
    """
    small = _resized([as_bgr(img) for img in images], size)
    med, spread = _levels(small)
    out = np.subtract(small, med.astype(np.float32)[:, None, None, :], dtype=np.float32)
    out /= spread.astype(np.float32)[:, None, None, None] + np.float32(4.0)
    return out


def _resized(images: list[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    """BGR ``images`` shrunk to ``size`` (w, h) by INTER_AREA, as one uint8 array (N, h, w, 3).
    Those of one shape are shrunk in one call, stacked one above the other (a frame's sixteen
    index crops: 0.14 ms less). Where ``h`` is a power of two each output row's source rows lie
    at the same offsets within its own image in the stack as alone (the scale is exact in
    binary), so each image gets the same pixels as shrunk on its own."""
    w, h = size
    out = np.empty((len(images), h, w, 3), np.uint8)
    shapes: dict[tuple[int, ...], list[int]] = {}
    for i, img in enumerate(images):
        shapes.setdefault(img.shape, []).append(i)
    for (ih, iw, _), which in shapes.items():
        if len(which) > 1 and ih >= h and iw >= w and h & (h - 1) == 0:
            stack = np.concatenate([images[i] for i in which])
            out[which] = cv2.resize(stack, (w, h * len(which)), interpolation=cv2.INTER_AREA).reshape(-1, h, w, 3)
        else:
            for i in which:
                out[i] = cv2.resize(images[i], (w, h), interpolation=cv2.INTER_AREA)
    return out


def _levels(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per image of uint8 ``small`` (N, H, W, 3): each channel's median as ``np.median`` gives
    it (the mean of the two middle values) and the standard deviation of all its values, both
    read off per-channel histograms (a third of ``np.median``'s time; the deviation from exact
    integer sums, where ``np.std`` took 0.2 ms a frame; on the crops of real frames a partial
    sort, ``np.partition``, took a quarter longer)."""
    n = len(small)
    flat = small.reshape(n, -1, 3)
    m = flat.shape[1]
    keys = (flat + np.arange(n * 3, dtype=np.int64).reshape(n, 1, 3) * 256).ravel()
    hist = np.bincount(keys, minlength=n * 3 * 256).reshape(n, 3, 256)
    cum = hist.cumsum(axis=2)
    medians = ((cum <= (m - 1) // 2).sum(axis=2) + (cum <= m // 2).sum(axis=2)) / 2
    counts = hist.sum(axis=1)  # (n, 256): every channel's values together
    values = np.arange(256, dtype=np.int64)
    mean = (counts @ values) / (3 * m)
    return medians, np.sqrt((counts @ (values * values)) / (3 * m) - mean * mean)
