"""The corner index of a card, found wherever the printing puts it.

A standard card carries its index in the top-left corner and, turned half round, in the bottom
right. :func:`find_index` looks at the top-left corner region of an upright face (the caller
turns the face to read the other corner), marks the ink against the paper round it, splits it
into connected components, and takes as the rank the component nearest the card's side edge and
top that is not the rim, joined with the components on its line (a 10's digits, a suit printed
against it). The index then starts at the rank's top-left corner, whatever size, position and
font the printing gives it; what follows it (a suit beside or under the rank) is measured too,
so a reader knows how far the index of a printing reaches. :func:`rank_alone` tells, from the
fixed crop the index model reads, an index that is its rank and nothing else: a printing that
shows its suit only in the card's body.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from kiosk.vision.face import FACE_SIZE
from kiosk.vision.params import PARAMS

Box = tuple[int, int, int, int]  # x, y, w, h in face pixels

G = PARAMS.glyphs


@dataclass(frozen=True)
class CornerIndex:
    """The index found in a face's top-left corner: the blurred ink map of the corner region
    (0 paper, up to 1; float32), the rank's box, how far the index reaches right and down from
    the rank's top-left corner (a suit beside or under it included), the redness of its ink
    (:func:`_redness`: about 0 black, 0.4 to 1 red, whatever the light), and the box of the
    glyph that may be its suit (:func:`_suit_glyph`; None where the index has one glyph only)."""

    ink: np.ndarray
    rank: Box
    reach: tuple[int, int]
    redness: float
    suit: Box | None = None


def ink(region: np.ndarray) -> np.ndarray:
    """How dark each pixel of the BGR ``region`` is against the paper round it: 0 paper, up to 1
    (float32). The darkest channel is used, so red and black ink both show whatever the light."""
    low = _darkest(region).astype(np.float32)
    paper = cv2.dilate(low, cv2.getStructuringElement(cv2.MORPH_RECT, (G.paper_window, G.paper_window)))
    return np.clip(1.0 - low / np.maximum(paper, 1.0), 0.0, 1.0)


def _darkest(region: np.ndarray) -> np.ndarray:
    """The darkest channel of the BGR ``region``, where red and black ink both show (uint8)."""
    return cv2.min(cv2.min(region[:, :, 0], region[:, :, 1]), region[:, :, 2])


def find_index(face: np.ndarray) -> CornerIndex | None:
    """The index in the top-left corner of the upright BGR ``face``; None where it shows none."""
    h, w = face.shape[:2]
    return index_in(face[: round(G.corner[1] * h), : round(G.corner[0] * w)], (w, h))


def index_in(region: np.ndarray, face_size: tuple[int, int]) -> CornerIndex | None:
    """The index in ``region``, the top-left corner of a face of ``face_size`` (BGR, face pixels):
    the corner :func:`find_index` looks at, or a smaller crop of it."""
    dark = ink(region)
    boxes, frame = _components(dark, face_size)
    if not boxes:
        return None
    first = min(boxes, key=lambda b: b[0] + G.down_weight * b[1])
    rank = _joined(first, boxes)
    x, y, rw, rh = rank
    right, bottom = x + rw, y + rh
    suit = _suit(rank, [b for b in boxes if b != rank and not _inside(b, rank)])
    glyph = suit or _suit_glyph(first, [b for b in boxes if b != first and _inside(b, rank)])
    if glyph is not None and _against(frame, glyph):
        glyph = None  # cut by a frame line: no template of its suit, nor read as one
    if suit is not None:
        right, bottom = max(right, suit[0] + suit[2]), max(bottom, suit[1] + suit[3])
    redness = _redness(region, dark, (x, y, right - x, bottom - y))
    blurred = cv2.GaussianBlur(dark, (0, 0), G.ink_blur)
    return CornerIndex(blurred, rank, (right - x, bottom - y), redness, glyph)


def _redness(region: np.ndarray, dark: np.ndarray, box: Box) -> float:
    """How red the ink in ``box`` of the BGR ``region`` is, per unit of ink (``dark``, :func:`ink`):
    each channel taken against the paper round it (white balance: a tinted or dim light moves
    paper and ink alike), red less the mean of green and blue, divided by the pixel's ink so that
    a glyph's blurred rim counts as its core, and averaged with the ink's square as weight (the
    core, where colour is surest, counts most)."""
    x, y, w, h = box
    window = cv2.getStructuringElement(cv2.MORPH_RECT, (G.paper_window, G.paper_window))
    paper = cv2.dilate(region, window)[y : y + h, x : x + w].astype(np.float32)
    rel = region[y : y + h, x : x + w].astype(np.float32) / np.maximum(paper, 1.0)
    red = rel[:, :, 2] - (rel[:, :, 0] + rel[:, :, 1]) / 2
    weight = dark[y : y + h, x : x + w] ** 2
    return float((red * weight).sum() / ((weight * dark[y : y + h, x : x + w]).sum() + 1e-6))


def rank_alone(crop: np.ndarray) -> bool:
    """Whether the upright corner-index ``crop`` (BGR, face pixels: the fixed crop the index model
    reads) shows a rank and nothing else. The rank is the first glyph from the corner, with the
    glyphs of its height beside it (a 10's digits). It is alone where it lies whole inside the
    crop, no other ink shows past the card's rim (no component of ``min_area`` pixels but lines
    and bands along the crop's top and left sides, :func:`_edge_line`), and every row across its
    middle has ink ``gap_ink`` of the way from the paper to its darkest (a paler row parts a rank
    from a suit that blur ran into it). Anything else (nothing found, a rank cut by the crop, a
    suit under it or beside it, a frame, a pip) is not a rank alone.

    Ink is darker than ``alone_ink`` of the crop's palest pixel: paler than a glyph's ink, so that
    a thin rank printed pale beside a bold suit shows, and against one level, not the paper round
    each pixel (:func:`ink`, four times the cost): shade or glare then only mark more ink, which
    says "not alone". Most indices show a suit under the rank, so the rows with ink below the
    ``edge`` are looked at first: two runs of them apart, each of ``min_area`` pixels or more,
    are not one rank."""
    low = _darkest(crop)
    paper = cv2.minMaxLoc(low)[1]
    # 1 where darker than alone_ink of the paper (OpenCV's threshold keeps what is at most its level)
    inked = cv2.threshold(low, math.ceil(G.alone_ink * paper) - 1, 1, cv2.THRESH_BINARY_INV)[1]
    inked[: G.rim + 1], inked[:, : G.rim + 1] = 0, 0  # the card's rim, or the table past a loose outline
    if sum(run >= G.min_area for run in _row_runs(inked[G.edge :])) > 1:
        return False
    found = [b for b in _boxes(inked) if not _edge_line(b, inked.shape)]
    # ink against both sides at the corner is the table past a loose outline, not a glyph
    glyphs = [b for b in found if max(b[0], b[1]) > G.rim + 1 and _glyph_sized(b, FACE_SIZE)]
    if not glyphs:
        return False
    x, y, bw, bh = _with_digits(min(glyphs, key=lambda b: b[0] + G.down_weight * b[1]), glyphs)
    if x + bw >= inked.shape[1] or y + bh >= inked.shape[0]:
        return False
    if any(not _inside(b, (x, y, bw, bh)) for b in found):
        return False
    rank = low[y : y + bh, x : x + bw]
    band = round(G.gap_band * bh)
    darkest_in_row = rank[band : bh - band].min(axis=1)
    return bool(darkest_in_row.max() <= paper - G.gap_ink * (paper - float(rank.min())))


def _row_runs(mask: np.ndarray) -> list[int]:
    """The pixels of ``mask`` (uint8, 0 or 1) in each run of rows that hold some, top to bottom."""
    runs: list[int] = []
    run = 0
    for count in cv2.reduce(mask, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel().tolist():
        if count:
            run += int(count)
        elif run:
            runs.append(run)
            run = 0
    return [*runs, run] if run else runs


def _edge_line(box: Box, shape: tuple[int, ...]) -> bool:
    """Whether the ink component at ``box`` of an index crop of ``shape`` is a line along its top
    or left side: within ``edge`` of it, at most half that thick and at least twice as long, or
    a band against it no thicker than ``edge`` running half its length. That is the card's edge,
    its shadow or the side of a card over it past a loose outline, not a glyph (one cut by the
    crop is thicker or shorter)."""
    x, y, w, h = box
    line = min(x + w, y + h) <= G.edge and 2 * min(w, h) <= min(G.edge, max(w, h))
    side = G.rim + 1
    band = (x <= side and w <= G.edge and 2 * h >= shape[0]) or (y <= side and h <= G.edge and 2 * w >= shape[1])
    return line or band


def _with_digits(first: Box, boxes: list[Box]) -> Box:
    """``first`` joined with the glyphs of its height (within ``digit_height``) that follow it
    on its line no further off than half that height: the digits of one rank."""
    x, y, w, h = first
    for bx, by, bw, bh in sorted(boxes):
        overlap = min(y + h, by + bh) - max(y, by)
        if overlap > 0.6 * h and abs(bh - h) <= G.digit_height * h and 0 <= bx - (x + w) <= 0.5 * h:
            w = bx + bw - x
    return x, y, w, h


def found_indices(face: np.ndarray) -> list[tuple[int, CornerIndex]]:
    """The indices found in the upright ``face``'s top-left corner (0) and, turned half round,
    its bottom-right one (1), each with its place (either may be missing: covered, cut)."""
    found = (find_index(face), find_index(np.ascontiguousarray(face[::-1, ::-1])))
    return [(k, i) for k, i in enumerate(found) if i is not None]


def signs(ink_map: np.ndarray) -> np.ndarray:
    """Where suit signs may sit on a face (n x 3: centre x, y and longer side, face pixels): the
    compact ink components of ``ink_map`` (0 paper, 1 darkest ink) at each of ``sign_levels``
    once its :func:`thin_lines` (at the lowest level, where blur makes them widest) are taken
    out, clear of the face's rim, each place once."""
    h, w = ink_map.shape
    out: list[tuple[float, float, float]] = []
    apart = 1 - thin_lines((ink_map > min(G.sign_levels)).astype(np.uint8), (w, h))  # the lines at their widest
    for level in G.sign_levels:
        stats = cv2.connectedComponentsWithStats((ink_map > level).astype(np.uint8) & apart, connectivity=4)[2][1:]
        for x, y, bw, bh, area in stats:
            side = max(bw, bh)
            if (
                area >= G.min_sign_area
                and side <= G.max_sign_side
                and side <= G.sign_aspect * min(bw, bh)
                and area >= G.sign_fill * bw * bh
                and min(x, y) > G.rim
                and x + bw < w - G.rim
                and y + bh < h - G.rim
            ):
                spot = (x + bw / 2, y + bh / 2, float(side))
                if not any(abs(spot[0] - o[0]) + abs(spot[1] - o[1]) < 4 and abs(side - o[2]) < 4 for o in out):
                    out.append(spot)
    return np.array(out, np.float32).reshape(-1, 3)


def _boxes(mask: np.ndarray) -> list[Box]:
    """The boxes of the components of ``mask`` that cover ``min_area`` pixels or more."""
    stats = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_16U, cv2.CCL_DEFAULT)[2][1:]
    return [(int(x), int(y), int(bw), int(bh)) for x, y, bw, bh, area in stats if area >= G.min_area]


def _components(dark: np.ndarray, face_size: tuple[int, int]) -> tuple[list[Box], np.ndarray]:
    """The boxes of the ink components of the ink map ``dark`` that can be glyphs (large enough,
    not too long, clear of the region's sides) once its frame lines are taken out, and those
    lines (:func:`_frame_lines`)."""
    mask = (dark > 1.0 - G.ink_ratio).astype(np.uint8)
    frame = _frame_lines(mask, face_size)
    rh, rw = mask.shape
    return [
        (x, y, bw, bh)
        for x, y, bw, bh in _boxes(mask & (1 - frame))
        if x >= G.rim and y >= G.rim and x + bw < rw and y + bh < rh and _glyph_sized((x, y, bw, bh), face_size)
    ], frame


def _frame_lines(mask: np.ndarray, face_size: tuple[int, int]) -> np.ndarray:
    """The frame lines of ``mask`` (uint8, 0 or 1): its :func:`thin_lines` that reach its bottom
    or right side. A court's frame running past the index joins its glyphs into one component cut
    by the region's side, which no glyph is: only components so cut lose ink to them (the side
    of a card or a shadow over the corner is no thin stroke, and stays)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    reaching = (stats[1:, 0] + stats[1:, 2] >= mask.shape[1]) | (stats[1:, 1] + stats[1:, 3] >= mask.shape[0])
    if not reaching.any():
        return np.zeros_like(mask)
    cut = np.isin(labels, np.flatnonzero(reaching) + 1).astype(np.uint8)
    return thin_lines(cut, face_size, to_side=True)


def thin_lines(mask: np.ndarray, face_size: tuple[int, int], to_side: bool = False) -> np.ndarray:
    """The strokes of ``mask`` (uint8, 0 or 1) no thicker than ``frame_line[1]`` of the face's
    width that run straight down or across for ``frame_line[0]`` of the face (in pieces of half
    that, in line across gaps; with ``to_side``, only those reaching the mask's bottom or right
    side), grown by a pixel: a frame's or a border's lines, which join a sign printed against
    them to themselves."""
    run, thick = G.frame_line
    width = max(2, round(thick * face_size[0])) + 1
    thin = (mask > cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((width, width), np.uint8))).astype(np.uint8)
    lines_of = np.zeros_like(mask)
    for axis in (0, 1):  # down, across
        length = max(3, round(run * face_size[1 - axis]))
        lines = cv2.morphologyEx(thin, cv2.MORPH_OPEN, _line(axis, length // 2))
        # a glyph against the line breaks its thin stroke: the pieces in line are one line
        _, labels, stats, _ = cv2.connectedComponentsWithStats(
            cv2.morphologyEx(lines, cv2.MORPH_CLOSE, _line(axis, length)), connectivity=8
        )
        start, extent = stats[1:, 1 - axis], stats[1:, 3 - axis]
        whole = (extent >= length) & ((start + extent >= mask.shape[axis]) if to_side else True)
        lines_of |= lines & np.isin(labels, np.flatnonzero(whole) + 1).astype(np.uint8)
    return cv2.dilate(lines_of, np.ones((3, 3), np.uint8))


def _line(axis: int, length: int) -> np.ndarray:
    """A straight structuring element ``length`` long, down (``axis`` 0) or across (1)."""
    return cv2.getStructuringElement(cv2.MORPH_RECT, (1, length) if axis == 0 else (length, 1))


def _against(frame: np.ndarray, box: Box) -> bool:
    """Whether the frame lines ``frame`` reach into ``box``, one pixel round it included."""
    x, y, w, h = box
    return bool(frame[max(y - 1, 0) : y + h + 1, max(x - 1, 0) : x + w + 1].any())


def _glyph_sized(box: Box, face_size: tuple[int, int]) -> bool:
    """Whether ``box`` spans no more of a face of ``face_size`` than a glyph (``max_glyph``)."""
    return box[2] <= G.max_glyph[0] * face_size[0] and box[3] <= G.max_glyph[1] * face_size[1]


def _inside(box: Box, outer: Box) -> bool:
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return x >= ox and y >= oy and x + w <= ox + ow and y + h <= oy + oh


def _joined(first: Box, boxes: list[Box]) -> Box:
    """``first`` joined with the components of its height on its line no further off than half
    that height, and with those that touch it within its lines."""
    x, y, w, h = first
    grown = True
    while grown:
        grown = False
        for bx, by, bw, bh in boxes:
            overlap = min(y + h, by + bh) - max(y, by)
            gap = max(bx - (x + w), x - (bx + bw))
            beside = overlap > 0.6 * min(h, bh) and gap <= 0.5 * h and 0.6 * h <= bh <= 1.6 * h
            touching = gap <= G.touch * h and by >= y - G.touch * h and by + bh <= y + h + G.touch * h
            if beside or touching:
                nx, ny = min(x, bx), min(y, by)
                joined = nx, ny, max(x + w, bx + bw) - nx, max(y + h, by + bh) - ny
                grown = grown or joined != (x, y, w, h)
                x, y, w, h = joined
    return x, y, w, h


def _suit_glyph(first: Box, members: list[Box]) -> Box | None:
    """Of the components joined into the rank after its ``first``, the last along the index (the
    furthest from the rank's top-left corner): a suit printed beside the rank, or a 10's 0 (a
    reader tells which by the printing's enrolled glyphs)."""
    x, y = first[:2]
    return max(members, key=lambda b: (b[0] - x) + (b[1] - y), default=None)


def _suit(rank: Box, others: list[Box]) -> Box | None:
    """The component nearest the rank, beside it or under it, within half its height of it and
    no taller than it."""
    x, y, w, h = rank
    near = []
    for bx, by, bw, bh in others:
        dx, dy = max(bx - (x + w), 0), max(by - (y + h), 0)
        if bx + bw > x and by + bh > y and max(dx, dy) <= 0.5 * h and bh <= h:
            near.append((dx + dy, (bx, by, bw, bh)))
    return min(near)[1] if near else None


def glyph_patch(ink_map: np.ndarray, box: Box, side: int) -> np.ndarray:
    """The glyph at ``box`` of ``ink_map`` scaled into a ``side`` x ``side`` patch (float32), its
    longer side four fifths of the patch and its box centred: the same patch whatever size and
    place the printing and the camera give it."""
    x, y, w, h = box
    scale = 0.8 * side / max(w, h, 1)
    mid = (side - 1) / 2  # pixel centres lie at whole coordinates: the box's middle is x + (w - 1) / 2
    to_patch = np.array([[scale, 0, mid - (x + (w - 1) / 2) * scale], [0, scale, mid - (y + (h - 1) / 2) * scale]])
    return cv2.warpAffine(ink_map, to_patch, (side, side), flags=cv2.INTER_LINEAR, borderValue=0)
