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

#: How far a detector's corners stray (standard deviation, fractions of the card's width and height).
DETECTOR_JITTER = 0.025


def detector_view(
    face: np.ndarray, rng: np.random.Generator, background: np.ndarray, jitter: float = DETECTOR_JITTER
) -> np.ndarray:
    """The face as a detector with imprecise corners would warp it (table shows at the edges)."""
    return _warped(face, background, (0.0, 0.0), 1.0, rng.normal(0, jitter, size=(4, 2)))


#: How far an outline that missed its card lies off it (fractions of the card's width and
#: height) and how much larger or smaller it is: a second look's runner-up or a completion
#: guessed across its neighbour.
MISPLACED_SHIFT = (-0.2, 0.8)
MISPLACED_SCALE = (0.75, 1.3)
#: The most of any of the card's four index boxes (some brands print four) that a misplaced
#: corner crop may hold: more would show part of an index, which a crop must still read.
MISPLACED_OVERLAP = 0.05


def misplaced_view(face: np.ndarray, rng: np.random.Generator, background: np.ndarray) -> np.ndarray:
    """The face as warped through an outline that missed the card: shifted and sized so that
    its index box falls on the pips, the picture, across the card's edge or on the table, but
    never on one of the card's own indices. Read as an index, such a crop named a card where
    none lay (a seven of hearts' pips read as QH from a runner-up outline on held-out scenes)."""
    w, h = FACE_SIZE
    while True:
        s = float(rng.uniform(*MISPLACED_SCALE))
        dx, dy = rng.uniform(*MISPLACED_SHIFT, size=2) * np.array([w, h])
        if _clear_of_indices(dx, dy, s):
            break
    return _warped(face, background, (float(dx), float(dy)), s, rng.normal(0, DETECTOR_JITTER, size=(4, 2)))


def _clear_of_indices(dx: float, dy: float, scale: float) -> bool:
    """Whether the largest crop :func:`corner_view` may cut through an outline shifted by
    (dx, dy) face pixels and scaled by ``scale`` keeps clear of the card's four index boxes."""
    w, h = FACE_SIZE
    bw, bh = INDEX_BOX[2] * w * scale, INDEX_BOX[3] * h * scale
    x0, y0 = dx - 0.1 * bw, dy - 0.1 * bh
    x1, y1 = dx + 1.55 * bw, dy + 1.55 * bh
    box_w, box_h = INDEX_BOX[2] * w, INDEX_BOX[3] * h
    for bx in (0.0, w - box_w):
        for by in (0.0, h - box_h):
            ix = max(0.0, min(x1, bx + box_w) - max(x0, bx))
            iy = max(0.0, min(y1, by + box_h) - max(y0, by))
            if ix * iy > MISPLACED_OVERLAP * box_w * box_h:
                return False
    return True


def _warped(
    face: np.ndarray, background: np.ndarray, shift: tuple[float, float], scale: float, noise: np.ndarray
) -> np.ndarray:
    """``face`` laid on ``background`` and warped to FACE_SIZE through its outline moved by
    ``shift`` (face pixels), scaled by ``scale`` and its corners moved by ``noise`` (fractions
    of the face's width and height, (4, 2))."""
    w, h = FACE_SIZE
    pad = int(0.25 * h) if shift == (0.0, 0.0) and scale == 1.0 else h
    canvas = cv2.resize(background, (w + 2 * pad, h + 2 * pad))
    canvas[pad : pad + h, pad : pad + w] = face
    rect = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32) * scale
    quad = rect + np.array([pad + shift[0], pad + shift[1]], np.float32)
    quad += noise.astype(np.float32) * np.array([w, h], np.float32)
    return cv2.warpPerspective(
        canvas, face_homography(quad), (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


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
