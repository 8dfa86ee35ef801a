"""The suit signs on an enrolled printing's faces, read against that printing's own pips.

Enrolment keeps the compact signs of each face (:func:`face_signs`: the index's suit, an emblem
in the court art, a pip), on the paper or in a ring of paper cut out of solid ink (a court's
emblem in a silhouette), each normalised to its box
(:func:`~kiosk.vision.pips.sign_patches`). The number cards' pips that the pip model reads as
their suit (:func:`pip_signs`) are the printing's own suit templates; a court's suit spots are
the places where it shows a sign those templates read as its suit and the other court of its
rank and colour, at the same place either way up, one read as its own (:func:`court_spots`).
The enrolled reader (:mod:`kiosk.vision.enrolled`) reads the signs it finds at those places
again, either way up (:func:`spot_suits`), and by the pip model too at the spots where that model
read both courts' signs as their suits (:func:`pip_spots`, :func:`pip_spot_suits`): a blurred
club or spade that the printing's few sharp templates no longer part, the model trained on many
pip families and blurs still reads. A number card's enrolled pips are also the places its rank's
pips lie at: the signs found there on a card partly covered say its suit (:func:`placed_suit`).
"""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.vision.face import FACE_SIZE
from kiosk.vision.gallery import as_face
from kiosk.vision.glyphs import signs
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import PIP_INPUT, PIP_LABELS, PipReader, face_ink, sign_patches
from kiosk.vision.suit_glyphs import SUIT_DIM, SUIT_PATCH, SuitGlyphs

#: A sign as kept: its centre x, y and longer side (face pixels), 1.0 where it lies in a ring of
#: paper cut out of solid ink (0.0 on the paper), then its normalised patch (:data:`SUIT_DIM`).
SIGN_DIM = 4 + SUIT_DIM
RED_SUITS = ("D", "H")
BLACK_SUITS = ("C", "S")
E = PARAMS.enrolled
G = PARAMS.glyphs


def face_signs(face: np.ndarray, most: int, printed: bool = True, ringed: bool = True) -> np.ndarray:
    """The signs of the rectified ``face`` (n x :data:`SIGN_DIM`, up to ``most``): the compact
    components of its ink (:func:`~kiosk.vision.glyphs.signs`; unless not ``printed``), then the
    ink ringed by paper inside solid ink (a sign in a disc cut out of a court's art,
    :func:`_ringed`; unless not ``ringed``)."""
    ink = face_ink(as_face(face))
    empty = np.empty((0, SIGN_DIM), np.float32)
    return np.concatenate([_printed(ink) if printed else empty, _ringed(ink) if ringed else empty])[:most]


def _printed(ink: np.ndarray) -> np.ndarray:
    """The signs (n x SIGN_DIM, on the paper) of :func:`~kiosk.vision.glyphs.signs` on ``ink``."""
    spots = signs(ink)
    return np.hstack([spots, np.zeros((len(spots), 1), np.float32), _patches(ink, spots)]).astype(np.float32)


def _patches(ink: np.ndarray, spots: np.ndarray) -> np.ndarray:
    """The normalised patches (n x SUIT_DIM) of the signs at ``spots`` of ``ink``."""
    if not len(spots):
        return np.empty((0, SUIT_DIM), np.float32)
    return sign_patches(ink, spots, SUIT_PATCH).reshape(len(spots), SUIT_DIM)


def _ringed(ink: np.ndarray) -> np.ndarray:
    """The signs (n x SIGN_DIM, in a ring) that paper rings inside solid ink: per compact
    paper component at each of ``sign_levels`` (as :func:`~kiosk.vision.glyphs.signs` takes
    ink; paper that a sign touching its ring parts into pieces joined again across each of
    ``ring_joins``), the largest ink component within its convex hull, where it covers
    ``min_sign_area`` pixels; the sign's patch holds it alone."""
    h, w = ink.shape
    out: list[np.ndarray] = []
    for level, join in ((level, join) for level in G.sign_levels for join in E.ring_joins):
        inked = ink > level
        paper = (~inked).astype(np.uint8)
        joined = cv2.dilate(paper, np.ones((3, 3), np.uint8), iterations=join)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=4)
        for k in range(1, count):
            x, y, bw, bh, _area = stats[k]
            if not (G.rim < min(x, y) and x + bw < w - G.rim and y + bh < h - G.rim and max(bw, bh) <= G.max_sign_side):
                continue
            box = slice(y, y + bh), slice(x, x + bw)
            inner = _inside(((labels[box] == k) & (paper[box] > 0)).astype(np.uint8), inked[box])
            if inner.sum() < G.min_sign_area:
                continue
            ys, xs = np.nonzero(inner)
            side = max(np.ptp(xs), np.ptp(ys)) + 1
            spot = np.array([[x + (xs.min() + xs.max() + 1) / 2, y + (ys.min() + ys.max() + 1) / 2, side]], np.float32)
            alone = np.zeros_like(ink)
            alone[box] = np.where(inner, ink[box], 0.0)
            out.append(np.hstack([spot, [[1.0]], _patches(alone, spot)]).astype(np.float32))
    return np.concatenate(out) if out else np.empty((0, SIGN_DIM), np.float32)


def _inside(paper: np.ndarray, inked: np.ndarray) -> np.ndarray:
    """The largest component of ``inked`` within the convex hull of ``paper`` (uint8 masks of
    one box), kept two pixels off the hull's edge, the ring's own."""
    hull = np.zeros_like(paper)
    cv2.fillConvexPoly(hull, cv2.convexHull(cv2.findNonZero(paper)), 1)
    hull = cv2.erode(hull, np.ones((3, 3), np.uint8), iterations=2)
    return _largest((hull > 0) & inked)


def _largest(mask: np.ndarray) -> np.ndarray:
    """The largest 8-connected component of the boolean ``mask`` (all False where it has none)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if count < 2:
        return np.zeros_like(mask)
    return labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))


def pip_signs(face: np.ndarray, suit: str, pips: PipReader, most: int) -> np.ndarray:
    """The printed signs of a number card's ``face`` that the pip model reads as its ``suit``
    (n x :data:`SIGN_DIM`, up to ``most``): its pips, not its rank's digits."""
    ink = face_ink(as_face(face))
    found = _printed(ink)
    if not len(found):
        return found
    probs = pips.suit_probs(sign_patches(ink, found[:, :3], upright=True))
    return found[probs[:, PIP_LABELS.index(suit)] >= E.min_pip_confidence][:most]


def placed_suit(
    face: np.ndarray, places: np.ndarray, pair: tuple[str, str], pips: PipReader, rivals: list[np.ndarray]
) -> str | None:
    """The suit of ``pair`` the pip model surely reads on every printed sign of ``face`` lying at
    one of a number card's enrolled pip ``places`` (the :func:`pip_signs` of its rank's cards),
    either way up, where ``min_placed_pips`` places or more hold one: the card's own pips, where
    its printing puts them, whatever a card over part of the face adds elsewhere; else None. None
    too where the places of one of ``rivals`` (the other ranks') hold more of the signs read as
    that suit: a card whose index was misread (a six read as a nine), not one partly covered."""
    ink = face_ink(as_face(face))
    found = _printed(ink)
    at = _there(found, np.concatenate([places, turned(places)]), E.place_offset).any(axis=1)
    held = _held(found[at])
    if held < E.min_placed_pips:
        return None
    probs = pips.suit_probs(sign_patches(ink, found[:, :3], upright=True))
    read = np.array([PIP_LABELS[int(p.argmax())] if p.max() >= E.min_pip_confidence else "" for p in probs])
    suits = set(read[at].tolist())
    if len(suits) != 1 or not suits <= set(pair):
        return None
    suit = suits.pop()  # every sign at the places reads it
    signs = found[read == suit]
    return None if any(_held(near_spots(signs, r, E.place_offset)) > held for r in rivals) else suit


def _held(signs: np.ndarray) -> int:
    """How many places the ``signs`` hold: one sign may be found at several ink levels."""
    centres: list[np.ndarray] = []
    for row in signs:
        if all(np.hypot(*(row[:2] - c)) > E.min_spot_offset for c in centres):
            centres.append(row[:2])
    return len(centres)


def pip_templates(signs_of: dict[str, np.ndarray]) -> SuitGlyphs:
    """The printing's own suit templates: the :func:`pip_signs` of its number cards (card id:
    its signs), each labelled with its card's suit, and each blurred by ``sign_blurs`` too (a
    small sign seen from further off is blurred to a blob that a sharp pip of the other suit of
    its colour may match better than its own)."""
    kept = [
        (
            cv2.GaussianBlur(row[4:].reshape(SUIT_PATCH, SUIT_PATCH), (0, 0), blur).ravel() if blur else row[4:],
            card_id[-1],
            k,
        )
        for k, (card_id, rows) in enumerate(signs_of.items())
        for row in rows
        for blur in (0.0, *E.sign_blurs)
    ]
    patches = np.array([p for p, _, _ in kept], np.float32).reshape(-1, SUIT_DIM)
    return SuitGlyphs(patches, [s for _, s, _ in kept], [k for _, _, k in kept])


def court_spots(own: np.ndarray, suit: str, mate: np.ndarray, templates: SuitGlyphs) -> np.ndarray:
    """The signs of a court's ``own`` (:func:`face_signs`) that ``templates`` read as its ``suit``
    where its ``mate`` (the other court of the rank and colour) has a sign at the same place,
    either way up, that they read as the mate's suit: the places that tell the two apart."""
    pair = colour_pair(suit)
    mates = np.concatenate([mate, turned(mate)])
    mates = mates[[templates.suit_of(row[4:], pair) == other_suit(suit) for row in mates]]
    keep = [templates.suit_of(row[4:], pair) == suit and len(at_spot(mates, row)) > 0 for row in own]
    return own[keep]


def spot_suits(found: np.ndarray, spots: np.ndarray, pair: tuple[str, str], templates: SuitGlyphs) -> set[str]:
    """The suits of ``pair`` that ``templates`` read on the ``found`` signs (:func:`face_signs`)
    lying at the court's ``spots``, either way up: none unless one sign reads its suit clearly;
    then every suit a sign there leans to by half the lead a reading needs (a blurred or partly
    found sign leaning to the other suit makes it two suits, and the court is refused)."""
    leans = [templates.lean_of(row[4:], pair) for row in near_spots(found, spots, E.spot_offset)]
    if not any(lead >= E.min_suit_margin for _, lead in leans):
        return set()
    return {suit for suit, lead in leans if suit is not None and lead >= E.min_suit_margin / 2}


def sign_suit_probs(rows: np.ndarray, pips: PipReader, flip: bool) -> np.ndarray:
    """The pip model's probabilities (n x 4, :data:`~kiosk.vision.pips.PIP_LABELS` order) for the
    signs ``rows`` (:data:`SIGN_DIM` each): each kept patch turned where its sign lies below the
    face's middle, as the model reads a pip (with ``flip``, where it lies above it: a court's
    emblem may be printed upright in the face's lower half), and scaled to the model's input."""
    if not len(rows):
        return np.zeros((0, len(PIP_LABELS)), np.float32)
    patches = rows[:, 4:].reshape(-1, SUIT_PATCH, SUIT_PATCH)
    turn = (rows[:, 1] > FACE_SIZE[1] / 2) != flip
    upright = np.where(turn[:, None, None], patches[:, ::-1, ::-1], patches)
    scaled = [cv2.resize(p, (PIP_INPUT, PIP_INPUT), interpolation=cv2.INTER_LINEAR) for p in upright]
    return pips.suit_probs(np.array(scaled, np.float32)[..., None])


def _model_reads(
    rows: np.ndarray, pair: tuple[str, str], pips: PipReader, templates: SuitGlyphs, flip: bool
) -> list[str | None]:
    """Per sign of ``rows``, the suit of ``pair`` the pip model surely (``min_pip_confidence``)
    reads (:func:`sign_suit_probs`, turned as ``flip`` says) where the printing's ``templates``
    lean to it too, by any lead (a sign they match none of is no sign of this printing: the pip
    of a card lying over a court), or tell no suits apart at all; else None."""
    out: list[str | None] = []
    for row, probs in zip(rows, sign_suit_probs(rows, pips, flip), strict=True):
        suit = PIP_LABELS[int(probs.argmax())]
        sure = suit in pair and probs.max() >= E.min_pip_confidence
        out.append(suit if sure and (not templates.usable or templates.lean_of(row[4:], pair)[0] == suit) else None)
    return out


def pip_spots(
    own: np.ndarray, suit: str, mate: np.ndarray, pips: PipReader, templates: SuitGlyphs
) -> tuple[np.ndarray, np.ndarray]:
    """The signs of a court's ``own`` (:func:`face_signs`) read as its ``suit``
    (:func:`_model_reads`) where its ``mate`` (the other court of its rank and colour) has a sign
    at the same place, either way up, read as the mate's suit, both turned as a pip is or else
    both the other way (``flip``, per spot: a court's emblem may be printed upright low on the
    face): the places where the pip model tells the two courts apart, also where the
    printing's few templates lean too little to. Returns the spots and their flips."""
    pair = colour_pair(suit)
    kept, flips = np.zeros(len(own), bool), np.zeros(len(own), bool)
    for flip in (False, True):
        mates = mate[np.array([s == other_suit(suit) for s in _model_reads(mate, pair, pips, templates, flip)], bool)]
        mates = np.concatenate([mates, turned(mates)])
        read = _model_reads(own, pair, pips, templates, flip)
        at = np.array([s == suit and len(at_spot(mates, row)) > 0 for s, row in zip(read, own, strict=True)], bool)
        flips |= at & ~kept & flip
        kept |= at
    return own[kept], flips[kept]


def pip_spot_suits(
    found: np.ndarray,
    spots: np.ndarray,
    flips: np.ndarray,
    pair: tuple[str, str],
    pips: PipReader,
    templates: SuitGlyphs,
) -> set[str]:
    """The suits of ``pair`` read (:func:`_model_reads`) on the ``found`` signs lying at the
    court's ``spots`` (:func:`pip_spots`), either way up, each turned as its spot's ``flips`` say."""
    said: set[str] = set()
    for flip in (False, True):
        near = near_spots(found, spots[flips == flip], E.spot_offset)
        said |= {s for s in _model_reads(near, pair, pips, templates, flip) if s is not None}
    return said


def near_spots(found: np.ndarray, spots: np.ndarray, offset: float) -> np.ndarray:
    """The ``found`` signs lying at any of ``spots`` (:func:`at_spot`; centres within ``offset``
    of its side), either way up, each once."""
    return found[_there(found, np.concatenate([spots, turned(spots)]), offset).any(axis=1)]


def turned(rows: np.ndarray) -> np.ndarray:
    """Signs (``rows`` of centre x, y, then anything) on the face turned half round."""
    w, h = FACE_SIZE
    out = rows.copy()
    out[:, 0], out[:, 1] = w - rows[:, 0], h - rows[:, 1]
    return out


def at_spot(found: np.ndarray, spot: np.ndarray) -> np.ndarray:
    """The signs of ``found`` of ``spot``'s kind (on the paper or in a ring) at its place: centres
    within ``spot_offset`` of its side (at least ``min_spot_offset``), sides within
    ``spot_size_ratio`` (the same sign found at several ink levels may be there more than once)."""
    return found[_there(found, spot[None], E.spot_offset)[:, 0]]


def _there(found: np.ndarray, spots: np.ndarray, offset: float) -> np.ndarray:
    """Whether each sign of ``found`` lies at each of ``spots`` (n x m; :func:`at_spot`)."""
    off = np.hypot(found[:, None, 0] - spots[None, :, 0], found[:, None, 1] - spots[None, :, 1])
    big, small = np.maximum(found[:, None, 2], spots[None, :, 2]), np.minimum(found[:, None, 2], spots[None, :, 2])
    near = off <= np.maximum(E.min_spot_offset, offset * spots[None, :, 2])
    return near & (big <= E.spot_size_ratio * small) & (found[:, None, 3] == spots[None, :, 3])


def colour_pair(suit: str) -> tuple[str, str]:
    """The two suits of ``suit``'s colour."""
    return RED_SUITS if suit in RED_SUITS else BLACK_SUITS


def other_suit(suit: str) -> str:
    """The other suit of ``suit``'s colour."""
    pair = colour_pair(suit)
    return pair[1 - pair.index(suit)]
