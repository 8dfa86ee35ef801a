"""Second looks: where a card's first outline is refused, other outlines of its place are read,
best first, and the first named surely takes the place.

The detector's score says how card-like an outline is, not whether it is the card: a court
card's picture frame, two cards taken for one, a card cut short by a hand all make good quads.
Each kind of look (:class:`LookKind`) is a guess at where the card lies, with its own rule
for what a reading of it must show to be taken, beyond every second look's bar (named at
``confidence`` or surer, and not by its pips alone, which count what a guessed outline holds).
A refused outline offers, in order:

1. the card its print's symmetry shows there (:data:`PRINT`),
2. its first ``first_alternates`` alternates and itself refitted to edges further out
   (:data:`OUTLINE`); each refused outline's first look before any outline's second,
3. the two cards at its ends taken as a fan (:data:`FAN`), and the card round it taken as a
   court card's picture frame (:data:`OUTLINE`),
4. in looks left over, its other alternates, windows across it taken as a fan of three or more
   (:data:`SLICE`), and the completions from its corners that other places hold (:data:`UNDER`).

At most ``max_looks`` are read a frame; a look lying on a card named at first sight is not read
(but for :data:`UNDER`). Looks read by both corners are taken first. Once a refused outline is
named, a further look of it named as another card, lying on no card its looks named, is one
more card (the outline spanned two). A second look can turn a refusal into a name, never one
name into another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from kiosk.vision.detect import Detection, Detector
from kiosk.vision.face import card_sides
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.look_rules import Named, at_a_named_corner, close_up, lies_on, read_under_another, under_a_named_card
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import CardReader, Identification
from kiosk.vision.shapes import fan_ends, fan_slices, frame_card

#: A reading's acceptance rule: the look's refined quad, its answer, the cards named so far.
Rule = Callable[[np.ndarray, Identification, Sequence[np.ndarray]], bool]


@dataclass(frozen=True)
class LookKind:
    """A kind of second look and the rule its reading must pass (``accepts``); ``over_named``
    looks are read even where they lie on a card named at first sight."""

    name: str
    accepts: Rule
    over_named: bool = False


def _own_index(quad: np.ndarray, answer: Identification, named: Sequence[np.ndarray]) -> bool:
    """Not read by one corner whose index lies within a named card (that crop shows its face)."""
    return not read_under_another(quad, answer, named)


def _whole_print(quad: np.ndarray, answer: Identification, named: Sequence[np.ndarray]) -> bool:
    """A print's symmetric box shows both indices: one alone is text or a picture."""
    return _own_index(quad, answer, named) and (answer.corners is None or answer.corners >= 2)


def _fan_end(quad: np.ndarray, answer: Identification, named: Sequence[np.ndarray]) -> bool:
    """A fanned card's index lies on the card under it: there it is the top card's own."""
    return True


def _fan_window(quad: np.ndarray, answer: Identification, named: Sequence[np.ndarray]) -> bool:
    """A window is a guess among a dozen: named at ``slice_confidence``, and not at a named
    card's corner (there it reads that card's index, cut)."""
    return answer.confidence >= PARAMS.looks.slice_confidence and not at_a_named_corner(quad, named)


def _under_named(quad: np.ndarray, answer: Identification, named: Sequence[np.ndarray]) -> bool:
    """A card under a named one, named by the index that shows (:func:`under_a_named_card`)."""
    return _own_index(quad, answer, named) and under_a_named_card(quad, answer, named)


PRINT = LookKind("print", _whole_print)  # a card its print's symmetry shows (Detector.printed)
OUTLINE = LookKind("outline", _own_index)  # an alternate, a refit, the card round a picture frame
FAN = LookKind("fan", _fan_end)  # a card at an end of the outline taken as a fan
SLICE = LookKind("slice", _fan_window)  # a window across the outline taken as a fan
UNDER = LookKind("under", _under_named, over_named=True)  # a completion another place holds

#: A look: the refused outline's index, the quad to read, its kind.
_Look = tuple[int, np.ndarray, LookKind]


def second_looks(identifier: CardReader, detector: Detector, frame: np.ndarray, out: list[Named]) -> list[Named]:
    """``out`` with each refused detection replaced by its first look named surely, and after
    them the further cards the looks found (see the module's description)."""
    refused = [k for k, (d, a) in enumerate(out) if a.card_id is None and not close_up(d, detector)]
    if not refused:
        return out
    named = [d.corners for d, a in out if a.card_id is not None]  # and, below, those looks name
    iou = detector.config.nms_iou
    # a look lying on a card named at first sight could only be turned away below: it is not
    # read, nor does it take the place of one that may name a card
    looks = [
        lk
        for lk in _offered(detector, frame, [d for d, _ in out], refused)
        if lk[2].over_named or not lies_on(lk[1], named, iou)
    ]
    looks = looks[: PARAMS.looks.max_looks]
    alts = detector.look_again(frame, [quad for _, quad, _ in looks])
    if len(alts) != len(looks):
        return out  # the frame is not a picture: nothing to look at again
    read = [
        (k, alt, kind)
        for (k, _, kind), alt in zip(looks, alts, strict=True)
        if kind.over_named or not lies_on(alt.corners, named, iou)
    ]
    answers = identifier.identify_cards([alt for _, alt, _ in read])
    # an outline read by both its corners goes first: it is the card itself, where a look read
    # by one corner may lie across it (read there, it takes the card and turns the whole one away)
    order = sorted(range(len(read)), key=lambda i: answers[i].corners != 2)
    return _taken(out, [(read[i], answers[i]) for i in order], named, iou)


def _offered(detector: Detector, frame: np.ndarray, detections: list[Detection], refused: list[int]) -> list[_Look]:
    """The looks of the ``refused`` detections, in the order they are read: best-scored cards
    first, each outline's first look before the others' second ones (a busy frame's looks run
    out before the last outlines'), no more than a busy frame needs (each is a warp and a read)."""
    first = PARAMS.looks.first_alternates
    refits = detector.refit(frame, [detections[k].corners for k in refused])
    printed = detector.printed(frame, [d.corners for d in detections])
    offered: list[list[_Look]] = []
    for k, refit in zip(refused, refits, strict=True):
        # refitted last: an alternate that reads is the better outline
        outlines = (*detections[k].alternates[:first], *(() if refit is None else (refit,)))
        offered.append([(k, quad, PRINT) for quad in printed[k]] + [(k, quad, OUTLINE) for quad in outlines])
    looks = [each[0] for each in offered if each] + [look for each in offered for look in each[1:]]
    looks += [(k, quad, FAN) for k in refused for quad in fan_ends(detections[k].corners)]
    looks += [(k, frame_card(detections[k].corners), OUTLINE) for k in refused]
    looks += [(k, quad, OUTLINE) for k in refused for quad in detections[k].alternates[first:]]
    for k in refused:  # (a busy frame's looks are used up long before: no windows are cut for it)
        if len(looks) >= PARAMS.looks.max_looks:
            break
        looks += [(k, quad, SLICE) for quad in fan_slices(detections[k].corners)]
    looks += [(k, quad, UNDER) for k, quad in _from_their_corners(refused, detections)]
    return looks


def _taken(
    out: list[Named],
    read: list[tuple[tuple[int, Detection, LookKind], Identification]],
    named: list[np.ndarray],
    iou: float,
) -> list[Named]:
    """``out`` with the looks ``read`` (in order) that pass their kind's rule taken: the first
    of a refused outline takes its place, unless a look named it already; a further one named
    as another card, lying on no card the looks named, is one more card."""
    on_named = len(named)  # how many of ``named`` were named at first sight
    taken: set[int] = set()
    looked: list[Named] = []  # what the looks named, in order
    more: list[Named] = []
    for (k, alt, kind), answer in read:
        if answer.card_id is None or answer.confidence < PARAMS.looks.confidence or answer.corners == 0:
            continue
        if not kind.accepts(alt.corners, answer, named):
            continue
        if k in taken:
            if not any(
                a.card_id == answer.card_id or polygon_iou(alt.corners, d.corners) >= PARAMS.looks.one_card
                for d, a in looked
            ):
                more.append((alt, answer))
                looked.append((alt, answer))
                named.append(alt.corners)
            continue
        # the cards named at first sight were kept out of ``read``; those named by a look remain
        if lies_on(alt.corners, named[on_named:], iou):
            continue  # that outline is another card's, named already: it would be reported twice
        out[k] = (alt, answer)
        taken.add(k)
        looked.append((alt, answer))
        named.append(alt.corners)
    return out + more


def _from_their_corners(refused: Sequence[int], detections: Sequence[Detection]) -> list[tuple[int, np.ndarray]]:
    """(k, quad) for each alternate of another detection that has a corner at one of refused
    detection ``k``'s (within ``same_place`` of its short side): completions from the same
    visible corner, which lost to another card at that card's place."""
    owners = [j for j, d in enumerate(detections) for _ in d.alternates]
    if not refused or not owners:
        return []
    alts = np.stack([quad for d in detections for quad in d.alternates])  # (M, 4, 2)
    out = []
    for k in refused:
        mine = detections[k].corners
        near = np.linalg.norm(alts[:, :, None] - mine[None, None], axis=3).min(axis=(1, 2))
        reach = PARAMS.complete.same_place * min(card_sides(mine))
        out += [(k, alts[m]) for m in np.flatnonzero(near < reach) if owners[m] != k]
    return out
