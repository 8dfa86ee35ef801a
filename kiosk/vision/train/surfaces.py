"""Surfaces only the outline model trains on: the busy ones that real photos put cards on and
that its maps took for cards (`models/MODEL.md`): a loop-pile carpet and printed
matter (book pages, boxes, posters), and a patch of window sunlight over either.

They are neither texture family of :mod:`kiosk.render.textures`: the held-out tables of the
benchmarks stay unseen, and the other models' data are unchanged.
"""

from __future__ import annotations

import string

import cv2
import numpy as np

from kiosk.render.textures import value_noise

_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)


def carpet(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A speckled loop-pile carpet (w, h): loops of two or three yarn shades a pixel or two
    across, over a mottled base; beige, grey, brown or blue-grey."""
    w, h = size
    base = np.array(
        rng.choice([(150, 175, 195), (140, 140, 145), (70, 95, 120), (130, 115, 105), (185, 200, 210)]), np.float32
    ) * np.float32(rng.uniform(0.8, 1.2))
    grid = rng.random((h // 2 + 1, w // 2 + 1), dtype=np.float32)
    loops = cv2.resize(grid, (w, h), interpolation=cv2.INTER_NEAREST if rng.random() < 0.5 else cv2.INTER_LINEAR)
    dark, light = rng.uniform(0.45, 0.75), rng.uniform(1.05, 1.3)
    loop_shade = np.where(loops < rng.uniform(0.2, 0.4), dark, np.where(loops > rng.uniform(0.75, 0.9), light, 1.0))
    shade = loop_shade.astype(np.float32) * (0.85 + 0.3 * value_noise(rng, size, 8, 2))
    img = base[None, None, :] * shade[..., None]
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.6), 0, 255).astype(np.uint8)


def printed(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """Printed matter (w, h): a paper or coloured ground with colour blocks, big letters, rules
    and lines of small text, as on a book page, a box or a poster."""
    w, h = size
    paper = rng.random() < 0.6
    ground = rng.uniform(215, 250, 3) if paper else rng.uniform(30, 220, 3)
    img = np.full((h, w, 3), ground.astype(np.uint8), np.uint8)
    unit = w * 0.1  # about a card's short side at the renderer's sizes
    for _ in range(int(rng.integers(0, 5))):  # colour blocks
        x, y = int(rng.uniform(-0.2, 1) * w), int(rng.uniform(-0.2, 1) * h)
        bw, bh = int(unit * rng.uniform(0.5, 4)), int(unit * rng.uniform(0.3, 3))
        cv2.rectangle(img, (x, y), (x + bw, y + bh), _colour(rng), -1)
    for _ in range(int(rng.integers(0, 4))):  # big letters
        text = "".join(rng.choice(list(string.ascii_uppercase + string.digits), int(rng.integers(1, 6))))
        scale = unit * rng.uniform(0.4, 1.5) / 22
        org = (int(rng.uniform(-0.1, 0.9) * w), int(rng.uniform(0.1, 1.1) * h))
        cv2.putText(
            img,
            text,
            org,
            _FONTS[int(rng.integers(len(_FONTS)))],
            scale,
            _colour(rng),
            max(1, int(scale * rng.uniform(1, 4))),
            cv2.LINE_AA,
        )
    ink = tuple(float(v) for v in rng.uniform(0, 90, 3)) if paper else _colour(rng)
    for _ in range(int(rng.integers(0, 3))):  # columns of text lines
        x0, line_y = int(rng.uniform(-0.1, 0.8) * w), float(rng.uniform(-0.1, 0.6) * h)
        width, step = unit * rng.uniform(1.5, 5), unit * rng.uniform(0.07, 0.16)
        scale = step / 40
        for _ in range(int(rng.integers(4, 30))):
            words = " ".join(
                "".join(rng.choice(list(string.ascii_lowercase), int(rng.integers(1, 9))))
                for _ in range(int(width / (step * 2.5)) + 1)
            )
            cv2.putText(
                img, words, (x0, int(line_y)), _FONTS[int(rng.integers(len(_FONTS)))], scale, ink, 1, cv2.LINE_AA
            )
            line_y += step
    for _ in range(int(rng.integers(0, 4))):  # rules and frames
        p0 = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        p1 = (int(rng.uniform(0, w)), p0[1]) if rng.random() < 0.5 else (p0[0], int(rng.uniform(0, h)))
        cv2.line(img, p0, p1, ink, int(rng.integers(1, 4)), cv2.LINE_AA)
    return img


def _colour(rng: np.random.Generator) -> tuple[float, float, float]:
    return tuple(float(v) for v in rng.uniform(0, 255, 3))  # type: ignore[return-value]


def sunlit(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` with a patch of sunlight through a window: everything inside one wide band, half
    the time crossed by a window bar's shadow, 1.5 to 2 times as bright, its edges a few pixels
    soft, white paper in it saturating."""
    h, w = image.shape[:2]
    angle = rng.uniform(0, np.pi)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    across = (xs - w / 2) * np.float32(np.cos(angle)) + (ys - h / 2) * np.float32(np.sin(angle))
    centre, half = rng.uniform(-0.4, 0.4) * w, rng.uniform(0.1, 0.35) * w
    lit = (np.abs(across - centre) < half).astype(np.float32)
    if rng.random() < 0.5:  # a window bar's shadow across the patch
        bar = rng.uniform(-0.5, 0.5) * half
        lit[np.abs(across - centre - bar) < rng.uniform(0.03, 0.1) * half] = 0
    lit = cv2.GaussianBlur(lit, (0, 0), float(rng.uniform(1, 4)))
    gain = 1 + lit * np.float32(rng.uniform(0.5, 1.0))
    return cv2.convertScaleAbs(image.astype(np.float32) * gain[..., None])
