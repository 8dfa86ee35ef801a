"""Procedural table surfaces, in two disjoint families so benchmarks measure generalisation.

``train`` and ``heldout`` never share a texture family nor, for the plain surfaces both need
(light grey, white, dark), a parameter range: a model trained on ``train`` tables is measured on
tables it has never seen. Everything is built from low-resolution random grids upsampled by
OpenCV, so a 1280x720 table costs a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

SPLITS: tuple[str, ...] = ("train", "heldout")
BGR = tuple[float, float, float]


def value_noise(rng: np.random.Generator, size: tuple[int, int], cells: int, octaves: int = 3) -> np.ndarray:
    """Smooth fractal noise in [0, 1] of ``size`` (w, h), ``cells`` blobs across at the coarsest."""
    w, h = size
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        n = cells * 2**o
        grid = rng.random((max(2, round(n * h / w)) + 1, n + 1), dtype=np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
    out /= total
    lo, hi = float(out.min()), float(out.max())
    return (out - lo) / max(hi - lo, 1e-6)


def _coords(size: tuple[int, int], angle: float) -> np.ndarray:
    """x' of every pixel along direction ``angle`` (radians), for grains and stripes."""
    w, h = size
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    return xs * np.float32(np.cos(angle)) + ys * np.float32(np.sin(angle))


def _mix(a: BGR, b: BGR, t: np.ndarray) -> np.ndarray:
    ca, cb = np.array(a, np.float32), np.array(b, np.float32)
    return ca + (cb - ca) * t.astype(np.float32)[..., None]


def _jitter(rng: np.random.Generator, colour: BGR, amount: float) -> BGR:
    return tuple(float(np.clip(c + rng.uniform(-amount, amount), 0, 255)) for c in colour)  # type: ignore[return-value]


def _wood(
    rng: np.random.Generator,
    size: tuple[int, int],
    light: BGR,
    dark: BGR,
    rings: tuple[float, float],
) -> np.ndarray:
    n = value_noise(rng, size, 4)
    x = _coords(size, rng.uniform(-0.2, 0.2) + rng.choice([0.0, np.pi / 2]))
    freq = np.float32(rng.uniform(*rings) * 2 * np.pi / size[0])
    grain = 0.5 + 0.5 * np.sin(x * freq + n * np.float32(rng.uniform(6, 14)))
    fine = value_noise(rng, size, 60, 1)
    t = np.clip(grain**2 * 0.7 + fine * 0.3, 0, 1)
    return _mix(_jitter(rng, light, 15), _jitter(rng, dark, 15), t)


def _cloth(rng: np.random.Generator, size: tuple[int, int], base: BGR, grain: float) -> np.ndarray:
    n = value_noise(rng, size, 120, 1) * 0.6 + value_noise(rng, size, 6, 2) * 0.4
    return _mix(_jitter(rng, base, 20), tuple(c * (1 - grain) for c in base), n)  # type: ignore[arg-type]


def _marble(rng: np.random.Generator, size: tuple[int, int], base: BGR, vein: BGR) -> np.ndarray:
    n = value_noise(rng, size, 3, 4)
    x = _coords(size, rng.uniform(0, np.pi))
    freq = np.float32(rng.uniform(3, 7) * np.pi / size[0])
    v = np.abs(np.sin(x * freq + n * np.float32(rng.uniform(8, 14))))
    return _mix(_jitter(rng, base, 8), vein, (1 - v) ** 8)


def _pattern(rng: np.random.Generator, size: tuple[int, int], a: BGR, b: BGR, check: bool) -> np.ndarray:
    period = np.float32(size[0] * rng.uniform(0.03, 0.08))
    angle = rng.uniform(-0.3, 0.3)
    u = (np.sin(_coords(size, angle) / period * np.pi) > 0).astype(np.float32)
    if check:
        v = (np.sin(_coords(size, angle + np.pi / 2) / period * np.pi) > 0).astype(np.float32)
        t: np.ndarray = (u + v) / 2
    else:
        t = u
    return _mix(_jitter(rng, a, 10), _jitter(rng, b, 10), cv2.GaussianBlur(t, (0, 0), 1.2))


def _plain(rng: np.random.Generator, size: tuple[int, int], levels: tuple[float, float]) -> np.ndarray:
    level = rng.uniform(*levels)
    tint = rng.uniform(-6, 6, 3)
    n = value_noise(rng, size, 80, 1) * rng.uniform(4, 12)
    return np.float32(level) + tint.astype(np.float32) + n[..., None]


def _glossy(rng: np.random.Generator, size: tuple[int, int], levels: tuple[float, float]) -> np.ndarray:
    base = _plain(rng, size, levels)
    w, h = size
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    r = rng.uniform(0.2, 0.5) * w
    spec = np.exp(-(((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * r * r))) * rng.uniform(30, 80)
    return base + spec[..., None]


def _terrazzo(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    img = _plain(rng, size, (150, 200))
    w, h = size
    chips = np.zeros((h, w, 3), np.float32)
    for _ in range(int(w * h / 900)):
        c = tuple(float(v) for v in rng.uniform(40, 230, 3))
        cv2.circle(chips, (int(rng.integers(w)), int(rng.integers(h))), int(rng.integers(1, 5)), c, -1)
    mask = (chips.sum(axis=2) > 0)[..., None]
    return np.where(mask, chips, img)


Texture = Callable[[np.random.Generator, tuple[int, int]], np.ndarray]
# Colours are BGR. Families and plain-surface levels are disjoint between the two splits.
FAMILIES: dict[str, dict[str, Texture]] = {
    "train": {
        "wood": lambda r, s: _wood(r, s, (90, 140, 190), (30, 60, 110), (8, 20)),
        "felt": lambda r, s: _cloth(r, s, tuple(r.permutation([40.0, 120.0, 50.0])), 0.25),  # type: ignore[arg-type]
        "marble": lambda r, s: _marble(r, s, (225, 228, 230), (120, 120, 125)),
        "gingham": lambda r, s: _pattern(r, s, (245, 245, 245), tuple(r.uniform(40, 200, 3)), True),  # type: ignore[arg-type]
        "grey": lambda r, s: _plain(r, s, (160, 192)),
        "white": lambda r, s: _plain(r, s, (222, 238)),
        "dark": lambda r, s: _plain(r, s, (25, 55)),
        "glossy": lambda r, s: _glossy(r, s, (15, 45)),
    },
    "heldout": {
        "oak": lambda r, s: _wood(r, s, (150, 190, 220), (80, 120, 170), (25, 40)),
        "baize": lambda r, s: _cloth(r, s, (110.0, 40.0, 30.0) if r.random() < 0.5 else (30.0, 30.0, 120.0), 0.4),
        "terrazzo": _terrazzo,
        "stripes": lambda r, s: _pattern(r, s, (235, 240, 240), tuple(r.uniform(60, 180, 3)), False),  # type: ignore[arg-type]
        "grey": lambda r, s: _plain(r, s, (193, 215)),
        "white": lambda r, s: _plain(r, s, (239, 252)),
        "dark": lambda r, s: _plain(r, s, (56, 85)),
        "glossy": lambda r, s: _glossy(r, s, (90, 130)),
    },
}


def texture_families(split: str) -> tuple[str, ...]:
    if split not in FAMILIES:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    return tuple(FAMILIES[split])


def table_family(seed: int, split: str = "train") -> str:
    """The texture family :func:`table_background` draws for ``seed`` when none is named (the
    same first draw of the same generator)."""
    families = texture_families(split)
    return families[int(np.random.default_rng([seed, SPLITS.index(split)]).integers(len(families)))]


def table_background(
    seed: int, size: tuple[int, int] = (1280, 720), split: str = "train", family: str | None = None
) -> np.ndarray:
    """A BGR uint8 table of ``size`` (w, h); deterministic for (seed, size, split, family)."""
    families = texture_families(split)
    rng = np.random.default_rng([seed, SPLITS.index(split)])
    name = family if family is not None else families[int(rng.integers(len(families)))]
    if name not in families:
        raise ValueError(f"split {split!r} has no texture family {name!r}; families: {families}")
    w, h = int(size[0]), int(size[1])
    # Built at half resolution: the camera blurs finer detail anyway, and it is 4x cheaper.
    half = FAMILIES[split][name](rng, (max(2, (w + 1) // 2), max(2, (h + 1) // 2)))
    img = np.clip(half, 0, 255).astype(np.uint8)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)
