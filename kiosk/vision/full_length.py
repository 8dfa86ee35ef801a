"""A completed outline named by one corner, drawn again at a whole card's length.

An outline completed from part of a card (its far end on a table as pale as the card, or over a
band of a striped cloth) may stop short of the card's end: its one corner index names the card,
the other crop lies in the card's middle. Where the frame's view (:class:`~kiosk.vision.tilt.Tilt`)
says the card reaching on from the named end is longer, that outline is read; it replaces the
short one where both its corners read the same card: the name is kept, only its outline grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from kiosk.vision.detect import Detector
from kiosk.vision.geometry import CARD_ASPECT, order_corners
from kiosk.vision.look_rules import Named
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import CardReader
from kiosk.vision.tilt import Tilt


def at_full_length(
    identifier: CardReader, detector: Detector, frame: np.ndarray, pairs: Sequence[Named], tilt: Tilt | None
) -> list[Named]:
    """``pairs`` with each completed outline named by one corner replaced by a whole card at
    that corner (:func:`whole_cards`) that both its corners read as the same card, in the view
    ``tilt``, or where the frame has none the view fitted over the cards named by both corners
    (seen from above where they fit none)."""
    out = list(pairs)
    short = {
        k: a.read_by[0]
        for k, (d, a) in enumerate(pairs)
        if a.card_id is not None and d.partial and a.corners == 1 and a.read_by is not None
    }
    if not short:
        return out
    if tilt is None:
        both = [order_corners(d.corners) for d, a in pairs if a.card_id is not None and a.corners == 2]
        tilt = Tilt.fitted(np.stack(both), frame.shape, detector.config.aspect_tolerance) if both else Tilt.flat()
    todo = [(k, whole) for k, top in short.items() for whole in whole_cards(pairs[k][0].corners, top, tilt)]
    found = detector.look_again(frame, [whole for _, whole in todo])
    if len(found) != len(todo):
        return out
    for (k, _), card, answer in zip(todo, found, identifier.identify_cards(found), strict=True):
        d, a = pairs[k]
        if answer.card_id == a.card_id and answer.corners == 2 and out[k][0] is d:
            out[k] = (replace(card, score=d.score, alternates=d.alternates, tilt=d.tilt), answer)
    return out


def whole_cards(corners: np.ndarray, top: bool, view: Tilt) -> list[np.ndarray]:
    """The cards at the outline ``corners``' first corner (TL; else, not ``top``, its third), the
    index corner the reader read: its short side (to the next corner) kept and its long side run
    on, or its long side kept and its short side run on, as far as a card's aspect in ``view`` at
    the outline's centre says; those from ``lengthen[0]`` to ``lengthen[1]`` times as long as the
    outline's side, each from that corner round its short side first, as a reader takes them."""
    c = np.asarray(corners, np.float64)
    if not top:
        c = np.roll(c, -2, axis=0)
    flat = view.flattening(c.mean(axis=0)[None])[0]
    low, high = PARAMS.looks.lengthen
    out = []
    for kept, run, aspect in ((c[1] - c[0], c[3] - c[0], CARD_ASPECT), (c[3] - c[0], c[1] - c[0], 1 / CARD_ASPECT)):
        stretch = aspect * float(np.linalg.norm(flat @ kept)) / max(float(np.linalg.norm(flat @ run)), 1e-6)
        if low <= stretch <= high:
            short, long = (kept, stretch * run) if aspect == CARD_ASPECT else (stretch * run, kept)
            out.append(np.array([c[0], c[0] + short, c[0] + short + long, c[0] + long], np.float32))
    return out
