"""The suit and number of a card's pips, read from the middle of its warped face.

The corner index is small: at a card's usual size in the frame, its suit sign is a blob of a
dozen pixels, and a club and a spade there differ by one or two (the index model's commonest
misreading on held-out scenes). A number card repeats its suit two to ten times in the middle,
each pip two to three times larger than the index's, so :func:`pip_patches` cuts those out and
``models/pips.tflite`` (a small network, ``kiosk train --pips``) names each one's suit. The
identifier uses the reading to check a number card's index (``Identifier``, ``models/MODEL.md``).

Only faces that show a group of like-sized blobs give a reading, and the identifier acts on it
only when there are as many as the rank: a court card, a poster or a face cut by a hand then
says nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from kiosk.vision.face import darkest_channel, face_homography
from kiosk.vision.runtime import TfliteModel, optional_model

MODEL_FILE = "pips.tflite"
#: The suits the model tells apart, in the order of its output.
PIP_LABELS: tuple[str, ...] = ("C", "D", "H", "S")
PIP_INPUT = 20  # side of the square patch one pip is scaled into
#: The face size pips are found at (w, h): half the identifier's (a pip is 8 to 15 pixels there),
#: where warping and cutting cost a quarter; each pip is then cut from the frame at full detail.
PIP_FACE: tuple[int, int] = (100, 140)
#: A blob centred this near a side (fraction of the width) and an end (of the height) is a glyph
#: of a corner index (some brands print four), not a pip. Real decks set their outer pips from
#: about a quarter of the width in, their edges reaching into the index's box: boxes cut out of
#: the mask instead cut those pips short (a nine of spades counted as seven on `edje-tfod`).
_INDEX_COLUMN = (0.18, 0.32)
_MARGIN = 0.05  # the face's rim: table where the outline is a little off
#: A pip covers 0.2 % (a ten's pips on a small face) to 20 % (an ace's big one) of the face,
#: is no more than 1.8 times as long as wide, and fills a third of its box (a thin line does not).
_AREA = (0.002, 0.2)
_ASPECT = 1.8
_FILL = 0.35
_SAME_SIZE = 1.6  # pips of one card are alike: within this factor of their median area
_MIN_CONTRAST = 40  # grey levels between the paper and the darkest ink; less is no print at all
#: Pips read per card at most (a ten's): more blobs of one size are clutter, not a card's pips.
MAX_PIPS = 10
#: Pips whose centres spread no wider than this share of the face stand in one column.
ONE_COLUMN = 0.15


@dataclass(frozen=True)
class PipReading:
    """What the pips of one face say: how many there are, and their suit with the mean
    probability the model gave it over the pips (``probs`` in :data:`PIP_LABELS` order)."""

    count: int
    suit: str
    confidence: float
    probs: tuple[float, ...]


def _levels(grey: np.ndarray) -> tuple[float, float]:
    """(paper, darkest ink): the 90th and 1st percentiles of a uint8 image, from its histogram."""
    cum = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    paper, dark = np.searchsorted(cum, (0.9 * cum[-1], 0.01 * cum[-1]))
    return float(paper), float(dark)


def _pip_mask(grey: np.ndarray, paper: float, dark: float) -> np.ndarray:
    """Where the ink is darker than half-way to the paper, inside the rim."""
    mask = cv2.threshold(grey, (paper + dark) / 2, 1, cv2.THRESH_BINARY_INV)[1]
    m = int(_MARGIN * grey.shape[1])
    mask[:m], mask[-m:], mask[:, :m], mask[:, -m:] = 0, 0, 0, 0
    return mask


def pip_patches(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, int]:
    """The pips of the card at ``corners`` in ``image`` (:func:`_pips`) and how many there are."""
    patches, columns = _pips(image, corners)
    return patches, len(columns)


def _pips(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pips of the card at ``corners`` (TL, TR, BR, BL, either way up) in the BGR ``image``
    (a frame, or a face with its own corners): up to :data:`MAX_PIPS` float32 ink patches
    ``(n, PIP_INPUT, PIP_INPUT, 1)`` (0 paper, 1 the darkest ink), each pip centred and scaled
    to fill four fifths of its patch, and each pip's centre across the face (0 its left edge, 1
    its right); none where the face shows no group of like-sized pips. Training cuts its samples
    with this very function.

    The pips are found on a small warp of the face (:data:`PIP_FACE`, a quarter of the pixels)
    and each is then cut from ``image`` itself, so its patch has every pixel the camera gave.
    Ink is measured on the darkest channel (black and red pips both lie low there, paper of any
    tint is high), scaled between the face's paper level and its darkest ink: the same patch
    whatever the light, the cast or the ink colour. A deck prints the pips of a face's lower
    half upside down (a card reads the same either way up), so those patches are turned: every
    pip reaches the model upright whichever way the card lies, and a blurred spade, its stem
    lost, is no upside-down heart (only a pip on the middle row may come either way)."""
    empty = np.zeros((0, PIP_INPUT, PIP_INPUT, 1), np.float32), np.zeros(0, np.float32)
    if image.ndim != 3 or image.shape[2] < 3 or min(image.shape[:2]) < 16 or image.dtype != np.uint8:
        return empty
    low, corners = _darkest_round(image, np.asarray(corners, np.float32))
    to_face = face_homography(corners, PIP_FACE)
    grey = cv2.warpPerspective(low, to_face, PIP_FACE, borderMode=cv2.BORDER_REPLICATE)
    paper, dark = _levels(grey)
    if paper - dark < _MIN_CONTRAST:
        return empty
    stats = cv2.connectedComponentsWithStats(_pip_mask(grey, paper, dark), connectivity=8)[2][1:]
    x, y, w, h, a = (stats[:, k].astype(np.float32) for k in range(5))
    fw, fh = PIP_FACE
    side = np.abs((x + w / 2) / fw - 0.5) > 0.5 - _INDEX_COLUMN[0]
    end = np.abs((y + h / 2) / fh - 0.5) > 0.5 - _INDEX_COLUMN[1]
    blobs = stats[
        (a >= _AREA[0] * fw * fh)
        & (a <= _AREA[1] * fw * fh)
        & (w <= _ASPECT * h)
        & (h <= _ASPECT * w)
        & (a >= _FILL * w * h)
        & ~(side & end)
    ]
    if not len(blobs):
        return empty
    areas = np.sort(blobs[:, 4])  # their median as np.median gives it, in a seventh of its time
    median = (float(areas[(len(areas) - 1) // 2]) + float(areas[len(areas) // 2])) / 2
    pips = blobs[(blobs[:, 4] >= median / _SAME_SIZE) & (blobs[:, 4] <= median * _SAME_SIZE)]
    out = np.empty((min(len(pips), MAX_PIPS), PIP_INPUT, PIP_INPUT, 1), np.float32)
    turn = _upright(pips[:, 1] + pips[:, 3] / 2, fh)
    for k, (x, y, bw, bh, _) in enumerate(pips[:MAX_PIPS]):
        scale = PIP_INPUT / (1.25 * max(bw, bh)) * float(turn[k])
        face_to_patch = np.array(
            [
                [scale, 0, PIP_INPUT / 2 - (x + bw / 2) * scale],
                [0, scale, PIP_INPUT / 2 - (y + bh / 2) * scale],
                [0, 0, 1],
            ]
        )
        out[k, :, :, 0] = cv2.warpPerspective(
            low, face_to_patch @ to_face, (PIP_INPUT, PIP_INPUT), borderMode=cv2.BORDER_REPLICATE
        )
    np.clip((paper - out) / (paper - dark), 0, 1, out=out)
    return out, (pips[:, 0] + pips[:, 2] / 2).astype(np.float32) / fw


def _upright(centre_y: np.ndarray, height: float) -> np.ndarray:
    """-1 where a sign centred at ``centre_y`` lies below the middle of a face ``height`` high
    (printed upside down there: its patch is cut turned), else 1."""
    return np.where(centre_y > height / 2, -1.0, 1.0).astype(np.float32)


def face_ink(face: np.ndarray) -> np.ndarray:
    """How inked each pixel of the BGR ``face`` is (float32, 0 its paper level, 1 its darkest ink,
    on the darkest channel): the scale :func:`_pips` gives a pip's patch."""
    low = darkest_channel(face)
    paper, dark = _levels(low)
    return np.clip((paper - low.astype(np.float32)) / max(paper - dark, 1.0), 0.0, 1.0)


def sign_patches(ink: np.ndarray, spots: np.ndarray, side: int = PIP_INPUT, upright: bool = False) -> np.ndarray:
    """The patches ``(n, side, side, 1)`` of the suit signs at ``spots`` (n x 3: centre x, y and
    longer side, pixels of the :func:`face_ink` map ``ink``), each sign centred and filling four
    fifths of its patch as a pip does; ink beyond the map is paper. With ``upright``, a sign below
    the middle of a face's ``ink`` is turned, as :func:`_pips` turns a pip for the model."""
    spots = np.asarray(spots, np.float32).reshape(-1, 3)
    step = (np.arange(side, dtype=np.float32) + 0.5 - side / 2) / (0.8 * side)
    shape = (len(spots), side, side)
    reach = spots[:, 2] * (_upright(spots[:, 1], ink.shape[0]) if upright else 1.0)
    xs = np.broadcast_to(spots[:, 0, None, None] + reach[:, None, None] * step[None, None, :] - 0.5, shape)
    ys = np.broadcast_to(spots[:, 1, None, None] + reach[:, None, None] * step[None, :, None] - 0.5, shape)
    flat = (len(spots), side * side)  # one patch a row: cv2.remap takes at most 32767 rows
    out = cv2.remap(
        ink,
        np.ascontiguousarray(xs.reshape(flat)),
        np.ascontiguousarray(ys.reshape(flat)),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    return out.reshape(*shape, 1)


def _darkest_round(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The darkest channel of each pixel (where black and red ink both lie low) of the part of
    ``image`` round the card, and the corners in that part. A tenth of the card's box is kept
    round it, more than a pip's patch reaches past the face; on a whole frame, computing it
    everywhere took three quarters of a card's pip reading."""
    h, w = image.shape[:2]
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    pad = 0.1 * max(x1 - x0, y1 - y0) + 2
    left, top = int(np.clip(x0 - pad, 0, w - 1)), int(np.clip(y0 - pad, 0, h - 1))
    right, bottom = int(np.clip(np.ceil(x1 + pad), left + 1, w)), int(np.clip(np.ceil(y1 + pad), top + 1, h))
    part = image[top:bottom, left:right]
    low = darkest_channel(part)
    return low, corners - np.array([left, top], np.float32)


class PipReader:
    """Runs ``pips.tflite`` on the pips of a batch of faces."""

    def __init__(self, path: Path, num_threads: int = 1) -> None:
        self._model = TfliteModel(path, num_threads)

    def suit_probs(self, patches: np.ndarray) -> np.ndarray:
        """The model's probabilities ``(n, 4)``, in :data:`PIP_LABELS` order, for ``patches``
        (:func:`sign_patches`, ``upright``)."""
        if not len(patches):
            return np.zeros((0, len(PIP_LABELS)), np.float32)
        return self._model.run(patches)[0]

    def read(self, cards: Sequence[tuple[np.ndarray, np.ndarray]]) -> list[PipReading | None]:
        """One reading per (image, corners) of a card (:func:`_pips`); None where its face shows
        no pips, or pips that do not lie as their count's layout does (:func:`_laid_out_as`)."""
        found = [_pips(image, corners) for image, corners in cards]
        if not any(len(columns) for _, columns in found):
            return [None] * len(cards)
        probs = self._model.run(np.concatenate([p for p, _ in found]))[0]
        out: list[PipReading | None] = []
        start = 0
        for patches, columns in found:
            scores = probs[start : start + len(patches)]
            start += len(patches)
            count = len(columns)
            if not count or not _laid_out_as(columns):
                out.append(None)
                continue
            mean = scores.mean(axis=0)
            best = int(mean.argmax())
            out.append(PipReading(count, PIP_LABELS[best], float(mean[best]), tuple(float(v) for v in mean)))
        return out


def _laid_out_as(columns: np.ndarray) -> bool:
    """Whether pips across the face at ``columns`` (0-1) lie as their count's layout does: a two
    and a three in one column, four and more in two columns or three (their spread against
    :data:`ONE_COLUMN`). A face cut short by its outline counts fewer pips in the wrong layout
    (a four of clubs cut to three pips in two columns, named 3C by them on a pile)."""
    spread = float(columns.max() - columns.min())
    return spread <= ONE_COLUMN if len(columns) <= 3 else spread > ONE_COLUMN


def load_pip_reader(directory: Path, num_threads: int = 1) -> PipReader | None:
    """The shipped pip model run on ``num_threads``, or None when there is none or no TFLite
    runtime (the index is then read alone)."""
    return optional_model(PipReader, directory / MODEL_FILE, num_threads)
