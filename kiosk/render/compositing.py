"""The reusable pieces of a camera view of a table: cards warped into place, their shadows, the
camera's faults (light gradient, glare, blur, noise), and hands and clutter.

Scenes, the empty-table generator and the virtual table all compose frames from these, so what
the vision is trained on and what the virtual camera shows are the same thing. Every function
works on BGR uint8 frames in place and only touches the bounding box of what it draws.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from kiosk.decks import Card
from kiosk.render.faces import corner_mask, render_face

#: Face widths kept in the cache; a card is warped from the smallest one at least its size.
FACE_WIDTHS: tuple[int, ...] = (96, 160, 256, 384, 512)
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (170, 200, 240),
    (140, 180, 225),
    (110, 150, 200),
    (80, 120, 170),
    (60, 90, 130),
    (45, 65, 100),
)  # BGR


@lru_cache(maxsize=1024)
def face_bgra(card: Card, style: str | None, width: int) -> np.ndarray:
    """The face of ``card`` as a BGRA array whose alpha is the rounded card outline.

    Cached on its own (not through ``render_face``'s cache) so a long training run keeps one
    copy of each face.
    """
    face = render_face.__wrapped__(card, style, width)
    rgba = np.dstack([np.asarray(face), np.asarray(corner_mask(face.size))])
    out = cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)
    out.setflags(write=False)
    return out


def face_width_for(short_side_px: float) -> int:
    """The cached face width to warp from for a card whose short side spans ``short_side_px``."""
    for w in FACE_WIDTHS:
        if w >= short_side_px * 1.2:
            return w
    return FACE_WIDTHS[-1]


def _pt(p: np.ndarray) -> tuple[int, int]:
    """A point as the int pair OpenCV's drawing functions want."""
    return int(p[0]), int(p[1])


def _bbox(points: np.ndarray, pad: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    h, w = shape[:2]
    x0 = max(0, int(np.floor(points[:, 0].min() - pad)))
    y0 = max(0, int(np.floor(points[:, 1].min() - pad)))
    x1 = min(w, int(np.ceil(points[:, 0].max() + pad)) + 1)
    y1 = min(h, int(np.ceil(points[:, 1].max() + pad)) + 1)
    return x0, y0, x1, y1


def composite_card(
    canvas: np.ndarray,
    face: np.ndarray,
    corners: np.ndarray,
    shadow: tuple[float, float, float, float] | None = None,
) -> tuple[int, int, np.ndarray]:
    """Warp the BGRA ``face`` onto ``canvas`` so its corners land on ``corners`` (TL, TR, BR, BL).

    ``shadow`` = (dx, dy, blur, strength) darkens the table under the card first. Returns the
    card's coverage: (x0, y0, alpha) with alpha uint8 over the box starting at (x0, y0).
    """
    corners = np.asarray(corners, np.float32)
    fh, fw = face.shape[:2]
    pad = 0.0 if shadow is None else abs(shadow[0]) + abs(shadow[1]) + 3 * shadow[2] + 2
    x0, y0, x1, y1 = _bbox(corners, pad, canvas.shape)
    if x1 <= x0 or y1 <= y0:
        return x0, y0, np.zeros((0, 0), np.uint8)
    # Pixel centres: the face's outer edge is at -0.5 and fw - 0.5.
    src = np.array([[-0.5, -0.5], [fw - 0.5, -0.5], [fw - 0.5, fh - 0.5], [-0.5, fh - 0.5]], np.float32)
    m = cv2.getPerspectiveTransform(src, corners - np.array([x0, y0], np.float32))
    warped = cv2.warpPerspective(
        face,
        m,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    alpha = warped[:, :, 3]
    roi = canvas[y0:y1, x0:x1]
    if shadow is not None:
        dx, dy, blur, strength = shadow
        shifted = cv2.warpAffine(alpha, np.array([[1, 0, dx], [0, 1, dy]], np.float32), (x1 - x0, y1 - y0))
        soft = cv2.GaussianBlur(shifted, (0, 0), max(0.5, blur)).astype(np.float32) * np.float32(strength / 255.0)
        roi[:] = cv2.blendLinear(roi, np.zeros_like(roi), 1.0 - soft, soft)
    a = alpha.astype(np.float32) * np.float32(1.0 / 255.0)
    roi[:] = cv2.blendLinear(np.ascontiguousarray(warped[:, :, :3]), roi, a, 1.0 - a)
    return x0, y0, alpha


NOISE_LEVELS: tuple[float, ...] = (1.5, 3.0, 5.0, 7.0)  # sensor noise sigmas, in grey levels


@lru_cache(maxsize=16)
def _noise_bank(h: int, w: int, sigma: float) -> np.ndarray:
    """A fixed int16 field of Gaussian noise, bigger than the frame, sliced at random offsets:
    drawing fresh noise for every frame would cost more than the rest of the scene."""
    rng = np.random.default_rng(12345)
    return np.round(rng.standard_normal((h + 64, w + 64, 3), dtype=np.float32) * sigma).astype(np.int16)


def lighting_gain(rng: np.random.Generator, size: tuple[int, int], strength: float) -> np.ndarray:
    """A smooth multiplicative light field (HxW float32 around 1): lamps, windows, vignetting."""
    grid = 1.0 + (rng.random((3, 4), dtype=np.float32) - 0.5) * np.float32(2 * strength)
    return smooth_field(np.clip(grid, 0.3, 1.6), size)


def smooth_field(grid: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A coarse grid blown up to ``size`` smoothly: cubic to 1/8 scale, then linear (cheap)."""
    w, h = size
    small = cv2.resize(grid, (w // 8 + 2, h // 8 + 2), interpolation=cv2.INTER_CUBIC)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def glare(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """An additive specular blob (HxW float32) where a lamp reflects off the table and cards."""
    w, h = size
    small = np.zeros((h // 8 + 1, w // 8 + 1), np.float32)
    cx, cy = int(rng.integers(small.shape[1])), int(rng.integers(small.shape[0]))
    axes = (
        int(rng.integers(3, max(4, small.shape[1] // 6))),
        int(rng.integers(2, max(3, small.shape[0] // 6))),
    )
    cv2.ellipse(small, (cx, cy), axes, float(rng.uniform(0, 180)), 0, 360, float(rng.uniform(60, 160)), -1)
    blurred = cv2.GaussianBlur(small, (0, 0), max(axes) * 0.6 + 1)
    return cv2.resize(blurred, (w, h), interpolation=cv2.INTER_LINEAR)


def motion_blurred(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``img`` smeared 3 to 7 pixels in a random direction: the table or a card moved while the
    camera exposed the frame."""
    length = int(rng.integers(3, 8))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), float(rng.uniform(0, 180)), 1.0)
    return cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (length, length)))


def camera_effects(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """What a cheap camera does to the table: light gradient, colour cast, glare, blur, noise, JPEG.

    Returns a new BGR uint8 frame; ``strength`` 0 returns a copy, 1 is the training range.
    """
    h, w = img.shape[:2]
    if strength <= 0:
        return img.copy()
    out = img
    if rng.random() < 0.6 * strength:
        k = float(rng.uniform(0.4, 1.6))
        out = cv2.GaussianBlur(out, (0, 0), k)
    elif rng.random() < 0.2 * strength:
        out = motion_blurred(out, rng)
    level = float(rng.uniform(1 - 0.3 * strength, 1 + 0.15 * strength))
    grid = 1.0 + (rng.random((3, 4, 1), dtype=np.float32) - 0.5) * np.float32(0.7 * strength)
    cast = 1.0 + rng.uniform(-0.08, 0.08, 3).astype(np.float32) * np.float32(strength)
    gain = smooth_field(np.clip(grid * cast * np.float32(level), 0.3, 1.6), (w, h))
    f = cv2.multiply(out, gain, dtype=cv2.CV_32F)
    if rng.random() < 0.35 * strength:
        f += glare(rng, (w, h))[..., None]
    out = cv2.convertScaleAbs(f)  # saturating float -> uint8
    sigma = NOISE_LEVELS[int(rng.integers(len(NOISE_LEVELS)))]
    if strength < 1:
        sigma = NOISE_LEVELS[0]
    oy, ox = int(rng.integers(64)), int(rng.integers(64))
    out = cv2.add(out, _noise_bank(h, w, sigma)[oy : oy + h, ox : ox + w], dtype=cv2.CV_8U)
    if rng.random() < 0.3 * strength:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 90))])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out


def _paint(canvas: np.ndarray, mask: np.ndarray, colour: np.ndarray, shade: np.ndarray | None = None) -> None:
    """Blend ``colour`` (BGR) into ``canvas`` where ``mask`` (uint8) is set; ``shade`` is a coarse
    grid of brightness factors spread smoothly over the painted area."""
    x0, y0, bw, bh = cv2.boundingRect(mask)
    if bw == 0 or bh == 0:
        return
    y1, x1 = y0 + bh, x0 + bw
    a = mask[y0:y1, x0:x1].astype(np.float32) * np.float32(1 / 255)
    grid = np.ones((2, 2), np.float32) if shade is None else shade.astype(np.float32)
    tint = grid[..., None] * colour.astype(np.float32)
    paint = np.clip(smooth_field(tint, (bw, bh)), 0, 255).astype(np.uint8)
    roi = canvas[y0:y1, x0:x1]
    roi[:] = cv2.blendLinear(paint, roi, a, 1.0 - a)


def _soft_shadow(mask: np.ndarray, offset: tuple[int, int], blur: float, strength: float) -> np.ndarray:
    """``mask`` shifted by ``offset`` and blurred, scaled to ``strength``; blurred at 1/4 scale."""
    h, w = mask.shape
    dx, dy = offset
    small = cv2.resize(mask, (w // 4 + 1, h // 4 + 1), interpolation=cv2.INTER_AREA)
    small = cv2.warpAffine(small, np.array([[1, 0, dx / 4], [0, 1, dy / 4]], np.float32), small.shape[::-1])
    small = cv2.GaussianBlur(small, (0, 0), max(0.5, blur / 4))
    return cv2.resize((small * strength).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)


def draw_hand(
    canvas: np.ndarray,
    rng: np.random.Generator,
    scale: float | None = None,
    at: tuple[float, float] | None = None,
    angle: float | None = None,
    shadow: bool = True,
) -> np.ndarray:
    """Draw a hand and forearm reaching in from outside the frame; returns its uint8 mask.

    ``at`` is the palm centre in pixels, ``angle`` the direction the fingers point (radians),
    ``scale`` the palm width in pixels; each is drawn at random when not given. ``shadow``
    darkens the table under the hand.
    """
    h, w = canvas.shape[:2]
    palm = float(scale if scale is not None else w * rng.uniform(0.1, 0.17))
    cx, cy = at if at is not None else (rng.uniform(0.15, 0.85) * w, rng.uniform(0.2, 0.8) * h)
    theta = float(angle if angle is not None else rng.uniform(0, 2 * np.pi))
    d = np.array([np.cos(theta), np.sin(theta)])
    n = np.array([-d[1], d[0]])
    c = np.array([cx, cy])
    mask = np.zeros((h, w), np.uint8)
    arm_end = c - d * (w + h)
    cv2.line(mask, _pt(c), _pt(arm_end), 255, int(palm * 0.8), cv2.LINE_AA)
    cv2.ellipse(
        mask,
        _pt(c),
        (int(palm * 0.55), int(palm * 0.5)),
        float(np.degrees(theta)),
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
    )
    spread = rng.uniform(0.05, 0.25)
    for i, frac in enumerate((-0.36, -0.12, 0.12, 0.36)):
        base = c + d * palm * 0.35 + n * palm * frac
        direction = d + n * (frac * spread * 2)
        length = palm * (0.75, 0.9, 0.85, 0.65)[i] * rng.uniform(0.8, 1.1)
        tip = base + direction / np.linalg.norm(direction) * length
        cv2.line(
            mask,
            _pt(base),
            _pt(tip),
            255,
            max(2, int(palm * 0.2)),
            cv2.LINE_AA,
        )
    side = 1 if rng.random() < 0.5 else -1
    thumb_base = c + n * side * palm * 0.4
    thumb_tip = thumb_base + (d * 0.5 + n * side * 0.8) * palm * 0.6
    cv2.line(
        mask,
        _pt(thumb_base),
        _pt(thumb_tip),
        255,
        max(2, int(palm * 0.24)),
        cv2.LINE_AA,
    )
    if shadow:
        _paint(
            canvas,
            _soft_shadow(mask, (int(palm * 0.1), int(palm * 0.15)), palm * 0.1, 0.45),
            np.zeros(3),
        )
    tone = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32) * rng.uniform(0.85, 1.1)
    shade = 1.0 + (rng.random((3, 3), dtype=np.float32) - 0.5) * np.float32(0.4)
    _paint(canvas, mask, np.clip(tone, 0, 255), shade)
    if rng.random() < 0.6:  # a sleeve over the forearm: any colour, white included
        sleeve = np.zeros_like(mask)
        cuff = c - d * palm * rng.uniform(1.2, 2.2)
        cv2.line(sleeve, _pt(cuff), _pt(arm_end), 255, int(palm * 1.0), cv2.LINE_AA)
        cloth = rng.uniform(20, 245, 3).astype(np.float32)
        _paint(canvas, sleeve, cloth, 1.0 + (rng.random((3, 3), dtype=np.float32) - 0.5) * 0.5)
        mask = np.maximum(mask, sleeve)
    return mask


def _rotated_rect(
    canvas: np.ndarray,
    rng: np.random.Generator,
    size: tuple[float, float],
    colour: tuple[float, ...],
    mask: np.ndarray,
) -> np.ndarray:
    h, w = canvas.shape[:2]
    box = cv2.boxPoints(((float(rng.uniform(0, w)), float(rng.uniform(0, h))), size, float(rng.uniform(0, 180))))
    pts = box.astype(np.int32)
    cv2.fillConvexPoly(canvas, pts, colour, cv2.LINE_AA)
    cv2.fillConvexPoly(mask, pts, 255, cv2.LINE_AA)
    return box


def draw_distractor(canvas: np.ndarray, rng: np.random.Generator, kind: str | None = None) -> np.ndarray:
    """Draw one thing that is not a card (phone, paper sheet, receipt, note, coin, pen, mug) and
    return its uint8 mask; paper and notes are the hard negatives: light, flat, rectangular."""
    h, w = canvas.shape[:2]
    kinds = ("phone", "paper", "receipt", "note", "coin", "pen", "mug")
    kind = kind or kinds[int(rng.integers(len(kinds)))]
    mask = np.zeros((h, w), np.uint8)
    u = w * 0.1  # about a card's short side
    if kind == "phone":
        box = _rotated_rect(canvas, rng, (u * 1.0, u * 2.0), (20, 20, 25), mask)
        inner = (box - box.mean(axis=0)) * 0.88 + box.mean(axis=0)
        cv2.fillConvexPoly(
            canvas,
            inner.astype(np.int32),
            tuple(float(v) for v in rng.uniform(20, 120, 3)),
            cv2.LINE_AA,
        )
    elif kind in ("paper", "receipt", "note"):
        size = {
            "paper": (u * 3.0, u * 4.2),
            "receipt": (u * 0.8, u * 3.0),
            "note": (u * 1.0, u * 1.0),
        }[kind]
        colour = (120.0, 235.0, 250.0) if kind == "note" else tuple(float(v) for v in rng.uniform(225, 250, 3))
        box = _rotated_rect(canvas, rng, size, colour, mask)
        across, down = box[1] - box[0], box[3] - box[0]
        lines = int(rng.integers(3, 12))
        for i in range(lines):  # printed text lines
            p0 = box[0] + down * (i + 1) / (lines + 1) + across * 0.1
            p1 = p0 + across * rng.uniform(0.3, 0.8)
            cv2.line(
                canvas,
                _pt(p0),
                _pt(p1),
                (90, 90, 90),
                max(1, int(u * 0.02)),
                cv2.LINE_AA,
            )
    elif kind == "coin":
        r = int(u * rng.uniform(0.12, 0.22))
        centre = (int(rng.integers(w)), int(rng.integers(h)))
        metal = (60.0, 150.0, 190.0) if rng.random() < 0.5 else (170.0, 170.0, 170.0)
        cv2.circle(canvas, centre, r, metal, -1, cv2.LINE_AA)
        cv2.circle(canvas, centre, int(r * 0.8), tuple(m * 0.8 for m in metal), max(1, r // 8), cv2.LINE_AA)
        cv2.circle(mask, centre, r, 255, -1)
    elif kind == "pen":
        p0 = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        p1 = p0 + rng.normal(size=2) / 1.4 * u * 1.4
        colour = tuple(float(v) for v in rng.uniform(0, 200, 3))
        cv2.line(
            canvas,
            _pt(p0),
            _pt(p1),
            colour,
            max(2, int(u * 0.08)),
            cv2.LINE_AA,
        )
        cv2.line(mask, _pt(p0), _pt(p1), 255, max(2, int(u * 0.08)))
    elif kind == "mug":
        r = int(u * rng.uniform(0.4, 0.55))
        centre = (int(rng.integers(w)), int(rng.integers(h)))
        colour = tuple(float(v) for v in rng.uniform(30, 240, 3))
        cv2.circle(canvas, centre, r, colour, -1, cv2.LINE_AA)
        cv2.circle(canvas, centre, int(r * 0.82), (30, 50, 70), -1, cv2.LINE_AA)
        cv2.circle(mask, centre, r, 255, -1)
    else:
        raise ValueError(f"unknown distractor {kind!r}; expected one of {kinds}")
    return mask
