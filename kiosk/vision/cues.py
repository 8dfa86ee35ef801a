"""Candidate card outlines from a frame's downscaled copy, cue by cue (:mod:`kiosk.vision.propose`
makes quads of them and :mod:`kiosk.vision.select` lets them compete).

No single threshold works on every table, so several cues run:

* *whiteness* (the darkest channel: white paper is high in all three) above a level set between
  the local table and the local paper white, loosely and strictly, so it follows uneven light;
* the same foreground with the *edge map* cut out, which parts cards that touch or overlap;
* *regions enclosed by edges* (a coarse and a fine Canny map), which find a white card on a
  white table where whiteness says nothing;
* the *outline model* (:mod:`kiosk.vision.outline`, when its file is there): the regions a small
  network calls card, parted along what it calls outline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import cv2
import numpy as np

from kiosk.vision.outline import OutlineModel
from kiosk.vision.params import PARAMS


class Cue(NamedTuple):
    """Outlines from one cue, the solid foreground they were cut from (None for a cue whose
    partial outlines are not completed), and whether its outlines are soft (rounded corners: a
    probability map's, not a threshold's)."""

    contours: Sequence[np.ndarray]
    solid: np.ndarray | None
    soft: bool = False


class ModelPass(NamedTuple):
    """One run of the outline model on a frame: its cue, its outline map as edges (what the
    completions' sides are checked on) and the pixels it calls card (``card`` 0.5 or more:
    what a glance must account for; the cue's ``solid`` adds the outline pixels, which the
    completions must lie on but which gaps between cards and glare fill as well)."""

    cue: Cue
    edges: np.ndarray
    card: np.ndarray


_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


def paper_and_table(white: np.ndarray, median: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel, the local paper level (the brightest nearby, over about a card's reach) and
    the local table level (mean over an eighth of the frame): both follow uneven light. With
    ``median``, the table level is the larger of that mean and the local median, which a court
    card's dark picture on a white table does not pull down."""
    h, w = white.shape
    q = cv2.resize(white, (max(2, w // 4), max(2, h // 4)), interpolation=cv2.INTER_AREA)
    k = max(3, round(max(q.shape) / 10)) | 1
    paper = cv2.dilate(q, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    table = cv2.blur(q, (2 * k + 1, 2 * k + 1))
    if median:
        table = cv2.max(table, cv2.medianBlur(q, 2 * k + 1))
    up = (w, h)
    return (
        cv2.resize(paper, up, interpolation=cv2.INTER_LINEAR),
        cv2.resize(table, up, interpolation=cv2.INTER_LINEAR),
    )


def _whiter_than_surroundings(
    white: np.ndarray, paper: np.ndarray, table: np.ndarray, share: float = 0.5
) -> np.ndarray:
    """Pixels whiter than ``share`` of the way from the local table level to the local paper
    white: a light table raises the bar with it, so pale wood grain or a grey cloth stays
    background, and a card in the shade is judged against its own paper."""
    level = cv2.addWeighted(table, 1 - share, paper, share, 0)
    level = cv2.max(level, cv2.add(table, np.full_like(table, 8)))
    return cv2.compare(white, level, cv2.CMP_GT)


def _enclosed(edges: np.ndarray, lo: float, hi: float) -> list[np.ndarray]:
    """Outlines of the card-sized regions that ``edges`` enclose.

    The regions are traced in one pass: the (dilated) edges keep them apart, and a region lying
    in another's hole (a card on a printed zone of the mat) is still an outer boundary."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(edges), connectivity=4)
    box = stats[:, cv2.CC_STAT_WIDTH] * stats[:, cv2.CC_STAT_HEIGHT]
    # a card's margin alone (court cards: a thin ring round the picture) is a region too
    plausible = (box >= lo) & (box <= 2 * hi) & (stats[:, cv2.CC_STAT_AREA] >= 0.08 * box)
    # label 0 is the edges themselves: the outer outlines of the edge map are card outlines too
    # (a card whose inside the pips and picture break into many small regions)
    outer: list[np.ndarray] = []
    if plausible[0]:
        outer += cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]
        plausible[0] = False
    mask = np.where(plausible, 255, 0).astype(np.uint8)[labels]
    if mask.any():
        cnts, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
        outer += [c for c, h in zip(cnts, hierarchy[0], strict=True) if h[3] < 0]
    return outer


def hand_cues(small: np.ndarray, white: np.ndarray, paper: float, lo: float, hi: float) -> tuple[list[Cue], np.ndarray]:
    """Candidate outlines from two cues; the whiteness ones come with the solid foreground they
    were cut from, on which partial outlines may be completed (only whiteness is trusted for that).

    * *whiteness minus edges*: pixels whiter than their neighbourhood (adaptive threshold on the
      darkest channel, a quarter of the frame wide) or than the frame (Otsu), with the edge map
      cut out so that touching and overlapping cards separate along their outlines;
    * *regions closed by edges*: connected areas of the non-edge map, which finds a white card
      on a white table where whiteness says nothing.
    """
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    paper_map, table_map = paper_and_table(white)
    fg = _whiter_than_surroundings(white, paper_map, table_map, 0.35)
    strict = _whiter_than_surroundings(white, paper_map, table_map, 0.8)  # near-white tables
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    high, _ = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    edges = cv2.dilate(cv2.Canny(blur, max(6.0, 0.12 * high), max(15.0, 0.3 * high)), _KERNEL)
    out = []

    solid = cv2.dilate(fg, _KERNEL)
    for mask in (fg, strict, cv2.morphologyEx(cv2.bitwise_and(fg, cv2.bitwise_not(edges)), cv2.MORPH_OPEN, _KERNEL)):
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        contours = [c for c in contours if lo <= cv2.contourArea(c) <= 1.5 * hi]
        cv2.drawContours(solid, contours, -1, 255, cv2.FILLED)
        out.append(Cue(contours, solid))
    _fill_holes(solid, hi)

    # regions closed by edges, also on a fine edge map: a card on a pale table has a faint outline
    for outline in (edges, cv2.dilate(cv2.Canny(blur, 4, 12), _KERNEL)):
        out.append(Cue(_enclosed(outline, lo, hi), None))  # never completed: only whiteness is trusted
    return out, edges


def _fill_holes(mask: np.ndarray, most: float) -> None:
    """Fill, in place, the holes of ``mask`` smaller than ``most`` pixels: a court card's
    picture or a big pip is no paper white, and a card completed from its corners over it would
    otherwise fall short of the foreground it must lie on (the covered card of a fan)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return
    holes = [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0 and cv2.contourArea(c) < most]
    cv2.drawContours(mask, holes, -1, 255, cv2.FILLED)


def _at_least(a: np.ndarray, level: float) -> np.ndarray:
    """255 where ``a`` is ``level`` or more, else 0 (uint8): a fifth of ``np.where``'s time."""
    return cv2.compare(a, level, cv2.CMP_GE)  # type: ignore[call-overload]  # a scalar: cv2's stubs omit it


def outline_cue(
    model: OutlineModel, small: np.ndarray, lo: float, hi: float, card_like: Callable[[np.ndarray], bool]
) -> ModelPass:
    """Candidate outlines from the outline model: the regions it calls card, parted along the
    pixels it calls outline, and the parts of those that are not ``card_like`` (two cards
    merged); with their mask (card or outline: completions of covered cards must lie on it),
    its outline map as edges and the pixels it calls card (:class:`ModelPass`)."""
    card, edge = model.maps(small)
    border = cv2.dilate(_at_least(edge, 0.3), _KERNEL)
    solid = _at_least(cv2.add(card, edge), 0.5)
    called_card = _at_least(card, 0.5)
    if cv2.countNonZero(solid) > PARAMS.propose.max_card_share * solid.size:  # noise, a blank wall: not a table
        return ModelPass(Cue([], solid, True), border, called_card)
    inner = cv2.bitwise_and(called_card, cv2.bitwise_not(border))
    # give back the pixel the dilated border took: regions still part where cards touch
    inner = cv2.bitwise_and(cv2.dilate(cv2.morphologyEx(inner, cv2.MORPH_OPEN, _KERNEL), _KERNEL), solid)
    contours = list(cv2.findContours(inner, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0])
    contours += _split_regions(inner, [c for c in contours if not card_like(c)], lo)
    return ModelPass(
        Cue([c for c in contours if lo <= cv2.contourArea(c) <= 1.5 * hi], solid, True), border, called_card
    )


_CORE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))
_MARGIN = 8  # pixels round the regions :func:`_split_regions` works on: _CORE's reach and more


def _split_regions(inner: np.ndarray, regions: list[np.ndarray], lo: float) -> list[np.ndarray]:
    """Outlines of the parts of ``regions`` (of the mask ``inner``) joined only by thin bridges
    (neighbouring cards on a white cloth, which the outline model merges): the regions are
    eroded until the bridges break, and each core grows back within its region (where two meet,
    they stay apart)."""
    if not regions:
        return []
    # the work is done round the regions only (a margin of zeros wider than the kernels; the
    # corner at even pixels, so that labels are numbered as on the whole mask)
    x, y, w, h = cv2.boundingRect(np.concatenate(regions))
    x0, y0 = max(0, x - _MARGIN) & ~1, max(0, y - _MARGIN) & ~1
    x1, y1 = min(inner.shape[1], x + w + _MARGIN), min(inner.shape[0], y + h + _MARGIN)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(mask, regions, -1, 255, cv2.FILLED, offset=(-x0, -y0))
    inner = cv2.bitwise_and(inner[y0:y1, x0:x1], mask)
    cores = cv2.erode(inner, _CORE)
    n, labels = cv2.connectedComponents(cores, connectivity=4)
    if n <= 2:
        return []
    grown = cv2.dilate(labels.astype(np.float32), _CORE)
    grown[inner == 0] = 0
    meet = cv2.dilate(grown, _KERNEL) != cv2.erode(grown, _KERNEL)
    parts = np.where((grown > 0) & ~meet, 255, 0).astype(np.uint8)
    contours = cv2.findContours(parts, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=(x0, y0))[0]
    return [c for c in contours if cv2.contourArea(c) >= lo]
