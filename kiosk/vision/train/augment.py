"""Turn clean rendered faces into what the camera and the detector really hand over.

Geometry: the detector's corners are a few pixels off (perspective jitter, a margin of table, a
card slightly cut), and the corner crop may be larger or smaller than the index. Photometry:
colour casts, uneven light, glare, shadows, low resolution, blur, sensor noise, JPEG. All
functions take and return BGR uint8 and draw every random number from the given generator.
"""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.vision.face import FACE_SIZE, INDEX_BOX, face_homography


def detector_view(
    face: np.ndarray, rng: np.random.Generator, background: np.ndarray, jitter: float = 0.025
) -> np.ndarray:
    """The face as a detector with imprecise corners would warp it (table shows at the edges)."""
    w, h = FACE_SIZE
    pad = int(0.25 * h)
    canvas = cv2.resize(background, (w + 2 * pad, h + 2 * pad))
    canvas[pad : pad + h, pad : pad + w] = face
    true = np.array([[pad, pad], [pad + w - 1, pad], [pad + w - 1, pad + h - 1], [pad, pad + h - 1]], np.float32)
    quad = true + rng.normal(0, jitter, size=(4, 2)).astype(np.float32) * np.array([w, h], np.float32)
    return cv2.warpPerspective(canvas, face_homography(quad), (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def corner_view(
    face: np.ndarray,
    rng: np.random.Generator,
    scale: tuple[float, float] = (0.8, 1.45),
    shift: float = 0.1,
) -> np.ndarray:
    """An index crop, its box scaled and shifted around :data:`INDEX_BOX` (the detector's slack)."""
    h, w = face.shape[:2]
    bw, bh = (INDEX_BOX[2] - INDEX_BOX[0]) * w, (INDEX_BOX[3] - INDEX_BOX[1]) * h
    s = float(rng.uniform(*scale))
    x0 = INDEX_BOX[0] * w + rng.uniform(-shift, shift) * bw
    y0 = INDEX_BOX[1] * h + rng.uniform(-shift, shift) * bh
    out_w, out_h = int(round(bw)), int(round(bh))
    # Output pixel (u, v) samples the face at (x0 + u * s, y0 + v * s).
    inv = np.array([[s, 0, x0], [0, s, y0]], np.float32)
    return cv2.warpAffine(
        face,
        inv,
        (out_w, out_h),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, colour, optics and compression of a cheap camera in a café."""
    h, w = img.shape[:2]
    out: np.ndarray = img.astype(np.float32)
    # Uneven light: a linear gradient of brightness, sometimes a shadow band.
    gx, gy = rng.uniform(-0.5, 0.5, size=2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    if rng.random() < 0.25:
        a, b = rng.uniform(-1, 1, size=2)
        band = (a * (xx / w - 0.5) + b * (yy / h - 0.5)) > rng.uniform(-0.3, 0.3)
        light = light * np.where(band, rng.uniform(0.45, 0.8), 1.0)
    out *= light[..., None] * rng.uniform(0.5, 1.25)
    out *= rng.uniform(0.7, 1.2, size=3)[None, None, :]  # colour cast (white balance)
    out += rng.uniform(-30, 30)
    if rng.random() < 0.2:  # glare
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.5) * max(w, h)
        d = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (r * r)))
        out += (d * rng.uniform(60, 200))[..., None]
    if rng.random() < 0.4:  # contrast loss (haze, washed-out webcam)
        k = rng.uniform(0.4, 0.9)
        out = out * k + out.mean() * (1 - k)
    out = np.clip(out, 0, 255)
    gamma = rng.uniform(0.6, 1.6)
    out = 255 * (out / 255) ** gamma
    img = out.astype(np.uint8)
    if rng.random() < 0.6:  # low resolution: the card was small in the frame
        f = rng.uniform(1.2, 3.5)
        small = cv2.resize(img, (max(4, int(w / f)), max(4, int(h / f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        k = float(rng.uniform(0.3, 1.6))
        img = cv2.GaussianBlur(img, (0, 0), k)
    elif rng.random() < 0.2:  # motion blur
        n = int(rng.integers(3, 8))
        kernel = np.zeros((n, n), np.float32)
        kernel[n // 2, :] = 1 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (n, n)))
    noise = rng.normal(0, rng.uniform(0, 12), size=img.shape)
    img = np.clip(img + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(20, 90))])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        img = img if decoded is None else decoded
    return img


def washed_out(img: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """With probability ``share``, most of the colour drained (a tired camera, dim light).

    The index model tells suits by colour first; a poster card has no pips to check it by, so
    without such samples a washed-out camera turns diamonds into spades.
    """
    return img if rng.random() >= share else desaturated(img, float(rng.uniform(0, 0.6)))


def desaturated(img: np.ndarray, saturation: float) -> np.ndarray:
    """``img`` (BGR) with its colour scaled by ``saturation`` towards its grey (1: unchanged)."""
    if saturation >= 1.0:
        return img
    grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    return cv2.addWeighted(img, saturation, grey, 1.0 - saturation, 0.0)
