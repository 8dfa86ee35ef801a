"""Random tables and the "not a card" patches the index and face models must refuse: what a
detector may hand over by mistake (a table's texture, a hand, a card's back, paper with writing,
strokes, a phone or a coin)."""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from kiosk.vision.face import FACE_SIZE
from kiosk.vision.train.synth import _font, _ink, _paper, font_paths


def table_texture(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A random table: plain, felt noise, wood grain or a checked cloth (RGB uint8, size = w, h)."""
    w, h = size
    base = rng.uniform(0, 255, size=3)
    kind = int(rng.integers(4))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 0:
        field = np.zeros((h, w), np.float32)
    elif kind == 1:
        small = rng.normal(0, 1, size=(max(2, h // 8), max(2, w // 8))).astype(np.float32)
        field = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * rng.uniform(5, 30)
    elif kind == 2:
        freq, phase = rng.uniform(0.05, 0.4), rng.uniform(0, 6)
        wobble = cv2.resize(rng.normal(0, 1, size=(4, 4)).astype(np.float32), (w, h)) * 6
        field = np.sin((yy + wobble) * freq + phase).astype(np.float32) * rng.uniform(10, 40)
    else:
        cell = rng.uniform(8, 40)
        field = (((xx // cell) + (yy // cell)) % 2).astype(np.float32) * rng.uniform(30, 120)
    out = base[None, None, :] + field[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _hand(rng: np.random.Generator, img: np.ndarray) -> None:
    h, w = img.shape[:2]
    skin = np.array([rng.uniform(150, 240), rng.uniform(100, 190), rng.uniform(80, 160)])
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    cv2.ellipse(
        img,
        (int(cx), int(cy)),
        (int(w * rng.uniform(0.3, 0.8)), int(h * rng.uniform(0.2, 0.5))),
        float(rng.uniform(0, 180)),
        0,
        360,
        skin.tolist(),
        -1,
    )
    for _ in range(int(rng.integers(0, 5))):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        cv2.line(
            img,
            (int(cx), int(cy)),
            (int(x), int(y)),
            (skin * 0.95).tolist(),
            int(w * rng.uniform(0.08, 0.18)),
        )


def _back(rng: np.random.Generator, img: np.ndarray) -> None:
    h, w = img.shape[:2]
    colour = [(180, 30, 30), (30, 50, 160), (20, 90, 40), (20, 20, 20)][int(rng.integers(4))]
    img[:] = colour
    step = int(rng.uniform(5, 16))
    light = tuple(int(min(255, c + 120)) for c in colour)
    for k in range(-h, w + h, step):
        cv2.line(img, (k, 0), (k + h, h), light, 1)
        if rng.random() < 0.7:
            cv2.line(img, (k, h), (k + h, 0), light, 1)


def _writing(rng: np.random.Generator, img: np.ndarray) -> None:
    h, w = img.shape[:2]
    img[:] = np.array(_paper(rng), np.uint8)
    fonts = font_paths()
    pil = Image.fromarray(img)
    draw = ImageDraw.Draw(pil)
    size = int(rng.uniform(8, 30))
    f = _font(fonts[int(rng.integers(len(fonts)))], size)
    chars = "abcdefghijklmnopqrstuvwxyz0123456789 +-=x"
    for y in range(0, h, int(size * rng.uniform(1.1, 1.8))):
        text = "".join(chars[int(i)] for i in rng.integers(len(chars), size=int(rng.integers(3, 20))))
        draw.text((rng.uniform(-10, 10), y), text, font=f, fill=_ink(rng, rng.random() < 0.2))
    img[:] = np.asarray(pil)


def _strokes(rng: np.random.Generator, img: np.ndarray) -> None:
    """Straight strokes on paper or table: ruled paper, a barcode, a grid, stripes, a ruler. Seen
    through a corner box they are bars and strokes, which a rank glyph is made of too."""
    h, w = img.shape[:2]
    if rng.random() < 0.7:
        img[:] = np.array(_paper(rng), np.uint8)
    ink = _ink(rng, rng.random() < 0.2)
    angle = rng.uniform(0, np.pi) if rng.random() < 0.5 else rng.choice([0.0, np.pi / 2])
    d = np.array([np.cos(angle), np.sin(angle)])
    n = np.array([-d[1], d[0]])
    centre = np.array([w / 2, h / 2]) + rng.uniform(-0.3, 0.3, 2) * (w, h)
    gap = rng.uniform(0.04, 0.25) * w
    barcode = rng.random() < 0.3
    reach = float(np.hypot(w, h))
    for k in range(-int(reach / gap), int(reach / gap) + 1):
        offset = k * gap + (rng.uniform(-0.4, 0.4) * gap if barcode else 0.0)
        half = reach if rng.random() < 0.6 else rng.uniform(0.2, 1.0) * reach / 2
        mid = centre + n * offset + d * rng.uniform(-0.3, 0.3) * reach
        a, b = mid - d * half, mid + d * half
        thick = int(rng.integers(1, 3 if not barcode else 8))
        cv2.line(img, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), ink, thick, cv2.LINE_AA)
    if rng.random() < 0.3:  # a grid: the same again across
        d, n = n, d
        for k in range(-int(reach / gap), int(reach / gap) + 1):
            mid = centre + n * k * gap
            a, b = mid - d * reach, mid + d * reach
            cv2.line(img, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), ink, 1, cv2.LINE_AA)


def _phone_or_coin(rng: np.random.Generator, img: np.ndarray) -> None:
    h, w = img.shape[:2]
    if rng.random() < 0.5:
        v = int(rng.uniform(0, 60))
        cv2.rectangle(
            img,
            (int(rng.uniform(-w, w / 2)), int(rng.uniform(-h, h / 2))),
            (int(rng.uniform(w / 2, 2 * w)), int(rng.uniform(h / 2, 2 * h))),
            (v, v, v + 10),
            -1,
        )
        cv2.line(
            img,
            (0, int(rng.uniform(0, h))),
            (w, int(rng.uniform(0, h))),
            (200, 200, 220),
            int(rng.uniform(1, 8)),
        )
    else:
        for _ in range(int(rng.integers(1, 4))):
            c = [(200, 160, 60), (180, 180, 180), (160, 110, 60)][int(rng.integers(3))]
            r = int(w * rng.uniform(0.15, 0.5))
            cv2.circle(img, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), r, c, -1)


def synth_negative(rng: np.random.Generator, size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    """A "not a card" image (RGB, ``size`` = w, h): table, hand, back, writing, phone, coin, or
    straight strokes (ruled paper, barcode, stripes)."""
    img = table_texture(rng, size).copy()
    kind = int(rng.integers(6))
    if kind == 1:
        _hand(rng, img)
    elif kind == 2:
        _back(rng, img)
    elif kind == 3:
        _writing(rng, img)
    elif kind == 4:
        _phone_or_coin(rng, img)
    elif kind == 5:
        _strokes(rng, img)
    return img
