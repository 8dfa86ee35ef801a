"""Where else a card may lie, given an outline: the whole cards of which a quad may be the
visible end, the cards at the ends of a quad taken as a fan and the windows across it, and the
card round a court card's picture frame. Naming reads them where an outline is refused."""

from __future__ import annotations

import numpy as np

from kiosk.vision.geometry import CARD_ASPECT, order_corners, quad_aspect
from kiosk.vision.params import PARAMS


def card_ends(quad: np.ndarray, known: tuple[float, float] | None) -> list[np.ndarray]:
    """The two cards of which ``quad`` may be the visible end: a card whose other end lies under a
    hand shows a strip as wide as the card and about half as long, itself of card aspect turned
    a quarter (its long side is the card's width), so it is outlined as a card of its own and
    read crosswise. Each long side of ``quad`` taken as the card's far edge, the card runs its
    full length across the other; the one lying under the hand reads the index at its visible
    end. Only once the table's card size is ``known``, and for a quad whose long side is that
    width: a quad over two overlapping cards, run on, read a card's index a card away."""
    o = order_corners(quad)
    width = float(np.linalg.norm(o[2] - o[1]))
    if known is None or not 0.85 * known[0] <= width <= 1.15 * known[0]:
        return []
    out = []
    for edge, other in ((o[[1, 2]], o[[0, 3]]), (o[[3, 0]], o[[2, 1]])):
        across = (other - edge).mean(axis=0)
        step = across / max(float(np.linalg.norm(across)), 1e-6) * width * CARD_ASPECT
        out.append(np.array([edge[0], edge[1], edge[1] + step, edge[0] + step], np.float32))
    return out


def fan_ends(quad: np.ndarray) -> list[np.ndarray]:
    """The two cards at the ends of ``quad`` taken as a fan: cards held or laid fanned side by
    side, their top and bottom edges running on in one line, make one quad as long as the cards
    and wider than one, often of card aspect crosswise. Each short side of ``quad`` taken as a
    card's long side, the card runs that length over CARD_ASPECT into it: the top card of the fan,
    seen whole at one end, and the card under it at the other, its index in view. (A quad of one
    card gives two halves of it crosswise, which read as nothing.) Each corner steps along its own
    side of the quad, keeping its perspective, where :func:`card_ends` steps both corners one
    way: a fan's sides converge, a card's visible end does not. A card laid a quarter to a half
    of its width across another makes a quad near square (``pair_aspect``), either side of which
    may be the cards' long side: its ends are taken both ways round."""
    o = order_corners(quad)
    ends = _fan_ends(o)
    if quad_aspect(o) >= PARAMS.looks.pair_aspect:
        return ends
    return ends + _fan_ends(np.roll(o, -1, axis=0))


def _fan_ends(o: np.ndarray) -> list[np.ndarray]:
    """:func:`fan_ends` of the ordered quad ``o``, its sides TL-TR and BR-BL taken as the cards'
    long sides."""
    near, far = o[[0, 1]], o[[3, 2]]  # its two short sides, corner facing corner
    card = float(np.linalg.norm(near[1] - near[0]) + np.linalg.norm(far[1] - far[0])) / 2 / CARD_ASPECT
    step = card / max(float(np.linalg.norm(far - near, axis=1).mean()), 1e-6) * (far - near)
    return [
        np.array([near[0], near[1], near[1] + step[1], near[0] + step[0]], np.float32),
        np.array([far[0] - step[0], far[1] - step[1], far[1], far[0]], np.float32),
    ]


def fan_slices(quad: np.ndarray) -> list[np.ndarray]:
    """The cards between :func:`fan_ends` of ``quad`` taken as a fan of three or more: the
    middle cards show only a strip, their own long sides inside the fan's outline, where no
    outline or completion follows them. Windows of a card's size every ``fan_step`` of its width
    from one end to the other, for :meth:`~kiosk.vision.detect.Detector.look_again` to refine
    onto the edge nearest each side (its reach is about that step): a card under the top one
    shows its index at its own edge, and a window there reads it."""
    near, far = _fan_ends(order_corners(quad))
    width = float(np.linalg.norm(near[3] - near[0]))
    travel = float(np.linalg.norm((far - near).mean(axis=0)))
    n = int(travel / max(PARAMS.looks.fan_step * width, 1e-6))
    return [(near + t * (far - near)).astype(np.float32) for t in np.linspace(0, 1, n + 2)[1:-1]]


def frame_card(quad: np.ndarray) -> np.ndarray:
    """The card round ``quad`` taken as a court card's picture frame: card-shaped, centred in its
    card and ``frame_in_card`` of its size, so on a table as pale as the card it may be the
    only outline found, and its corners hold pictures, not indices. Grown about its centre
    along its own sides, for :meth:`~kiosk.vision.detect.Detector.look_again` to refine onto the
    card's edges."""
    o = order_corners(quad)
    centre = o.mean(axis=0)
    across = (o[1] - o[0] + o[2] - o[3]) / 2  # along its short sides (TL->TR is the short side)
    along = (o[3] - o[0] + o[2] - o[1]) / 2
    grown = np.tile(centre, (4, 1))
    for axis, share in zip((across, along), PARAMS.looks.frame_in_card, strict=True):
        unit = axis / max(float(np.linalg.norm(axis)), 1e-6)
        grown += ((o - centre) @ unit)[:, None] * unit / share
    return grown.astype(np.float32)
