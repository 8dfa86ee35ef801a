"""Name the detected cards, with a second look where a card's face cannot be read.

The detector keeps the best-scored outline of each place, but the score only says how card-like
an outline is, not whether it is the card: a court card's picture frame, two cards taken for
one, a card cut short by the hand over it all make good quads. The identifier knows better:
where it cannot read the winner's corners, the card that the symmetry of the print shows there
(:meth:`Detector.printed`: on a white table in clipped light the outline may not show; named
only where both its corners read it, as a whole card's do and text's do not), then the outlines
the winner set aside at that place (:attr:`Detection.alternates`, best first) are read too,
then the winner refitted to edges further out (:meth:`Detector.refit`: on a pale table an
outline may lie a pip row off its card), and last the two cards at its ends
(:func:`~kiosk.vision.detect.fan_ends`: fanned cards whose top and bottom edges run on in one
line are outlined, or completed, as one card crosswise, with no alternate at either card:
`edje-tfod` 13 right ranks more, held-out piles 8 cards more, none wrongly) and the
card round it taken as a court card's picture frame (:func:`~kiosk.vision.detect.frame_card`:
on a pale cloth the frame may be the only outline: held-out and washed-out scenes
3 cards more, `edje-tfod` 1, none wrongly), and the first one it names takes the place; a
card among the rest named otherwise and lying on no card named is one more card (the refused
outline spanned two). Last, in the looks left over, a refused outline is taken as a fan of
three or more, and windows across it are read for its middle cards
(:func:`~kiosk.vision.detect.fan_slices`: a middle card shows only a strip whose sides nothing
outlines; named only at SLICE_CONFIDENCE and away from a named card's corner:
`edje-tfod` 5 right ranks more, none wrongly), and the outlines completed from one of its
corners that another place holds: a card under a named one lies mostly on it, and is named as a
fan's window is. This costs nothing on a frame whose cards all
read, and never names a card where no outline reads: it can turn a refusal into a name, not one
name into another. A card completed from its visible corners is a guessed
outline too, and is named only as surely as an alternate. The looks read by both of a card's
corners are taken first, and a look names nothing where only its pips name it (they count what
the guessed outline holds) or where the one corner that reads it lies within a card named
already (its crop shows that card's face). Last, a card named from one corner
only, the surest refused outlines, and two refused outlines lying apart from the cards named,
are outlined again by the card-shaped outlines fitted to the edges round them
(:mod:`kiosk.vision.card_fit`), where both corners read one surely: on a striped cloth a card's
sides vanish on the white stripes and its outline is askew (held-out 9 cards more, piles 16,
`edje-tfod` 2 right ranks, none wrongly; the outlines apart: held-out 2 more, none wrongly).
So is the other end of a refused outline whose second look named a card covering under 0.6 of
it: two cards overlapping at an angle make one outline.
And a card still named from one corner has the outlines it beat at its place read: one that
both corners read as another card, lying apart from the cards named, is the card beside it,
spanned by its outline.

The kiosk's decks hold each card once, so two overlapping outlines named the same card are one
card outlined twice (a card and a completion of it from its picture frame, crosswise): the
better-scored outline keeps the name and the other is refused, so that `kiosk recognize` lists
the card once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Literal, NamedTuple, Protocol

import cv2
import numpy as np

from kiosk.vision.card_fit import CLOSER, card_shapes
from kiosk.vision.detect import FAN_STEP, SAME_PLACE, Detection, Detector, fan_ends, fan_slices, frame_card, polygon_iou
from kiosk.vision.face import INDEX_BOX, card_sides
from kiosk.vision.identify import GUESS_CONFIDENCE, Identification

#: Every extra outline read is one more chance to name clutter, so a second look must be surer
#: than a first (the identifier's own bar is 0.6). On ``edje-tfod`` the second looks that named
#: the right card were 0.88 or surer but one; on empty tables, the two that named clutter 0.66
#: and 0.74.
SECOND_LOOK_CONFIDENCE = 0.85
#: A card completed from its visible corners (``Detection.partial``) is an outline guessed as
#: much as an alternate is, and must be read as surely. On ``edje-tfod`` the completed cards
#: named below 0.85 were 16 names of a rank no card there had against 4 right ones; at 0.85
#: and above, 7 against 249. Unless both its corners read it (``Identification.corners``):
#: the completion then reached the far index, and it shows the same card (held-out scene
#: 900079's ace of hearts, read 0.80 and 0.83; the same names on `edje-tfod`).
COMPLETED_CONFIDENCE = 0.85
#: At most this many alternates are read per frame. Photos of a few cards rarely offer more
#: than 16 (``edje-tfod``: 3 % of photos; the most 44, on an empty table 36); piles do: 22 % of
#: held-out pile frames offer more than 16, 15 % more than 24. In 120 pile scenes and the
#: held-out scenes, 24 named 5 more cards than 16, 32 four more than 24, and 40 one more than
#: 32 (a white cloth's frame with a dozen refused outlines runs out of looks before the one
#: that names its five of hearts, held-out 900070), none wrongly: a look read by one corner
#: within a named card names nothing (at 40 without that guard, a 7D was named in a pile).
MAX_SECOND_LOOKS = 40
#: A refused outline's first this many alternates are looked at before any outline's fan ends
#: and picture frame, the rest after them all, in looks left over.
FIRST_ALTERNATES = 8
#: A window across a fan (``detect.fan_slices``) is a guess at a card's place, a dozen to a
#: fan: it names a card at this confidence, and not with a corner at a named card's corner
#: (there it reads that card's index, cut). On `edje-tfod` the middle cards of fans read 0.92
#: or surer; names where no such card lies, 0.87 and 0.88, and 0.99 at a named ten's corner;
#: on held-out scenes a 4D at 0.87 on an ace.
SLICE_CONFIDENCE = 0.9
#: At most this many refused outlines a frame have card-shaped outlines fitted round them
#: (``_card_shaped``): each costs about 10 ms, and a pile leaves a dozen refused.
MAX_GUESSED = 3
#: Where no card-shaped outline round a card is read by both its corners, the search is run
#: again closer round this many of those one corner read (``card_fit.CLOSER``, about 6 ms each).
CLOSER_AGAIN = 2
#: A refused outline read under GUESS_CONFIDENCE but lying apart from every card named (IoU
#: under APART with each) is a card not found yet, or clutter: on a white cloth an outline may
#: hold a third of a card, or lie askew on it, and read nothing. The MAX_APART best-scored of
#: them have card shapes fitted round them too, on a table where some card is named (an empty
#: table's clutter leaves such outlines in most frames: fitted there too, 100 empty held-out
#: tables took 47.1 against 40.8 ms a frame on average, for nothing). They name held-out
#: 900171's six of spades (outlined at IoU 0.64, read 0.008) and 900156's six of hearts (0.35,
#: read 0.000), none wrongly; every refused outline fitted instead named those two only, at
#: 34 ms an outline.
MAX_APART = 2
APART = 0.1
#: A refused outline that a second look names by a card covering under this share of it has
#: card shapes fitted round its other end (:func:`_far_ends`): held-out 1 card
#: more, `edje-tfod` 1 (IMG_2674), every other benchmark the same, none wrongly.
PART_NAMED = 0.6
#: What a second look is: a card a refused outline's print shows whole, an outline of a card
#: (an alternate, a refit, the card round a picture frame), a fan's end, a window across a fan,
#: or a completion from its corner that another place holds (a card under a named one).
_Kind = Literal["print", "outline", "fan", "slice", "under"]
#: Two outlines overlapping this much (IoU) are one card, whatever they are read as: fanned
#: cards overlap less (edje-tfod's: 0.43-0.58).
ONE_CARD = 0.7


class IdentifierLike(Protocol):
    """What naming needs of :class:`kiosk.vision.identify.Identifier` (tests and benchmarks
    pass an oracle that names cards from the truth)."""

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]: ...


class Look(NamedTuple):
    """The cards :func:`look` found and named, and whether it used every cue."""

    named: list[tuple[Detection, Identification]]
    closely: bool


def look(
    identifier: IdentifierLike,
    detector: Detector,
    frame: np.ndarray,
    thorough: bool = False,
    enough: Callable[[list[tuple[Detection, Identification]]], bool] = lambda named: True,
) -> Look:
    """Find and name the cards of ``frame``: at a glance first (the outline model alone,
    :meth:`Detector.glance`), and with every cue (:meth:`Detector.closer`) where the glance
    leaves some of what the model calls card unaccounted for, or an outline it found not read
    by both its corners (unread, or an outline the model cut short or askew: read from one
    corner, a washed-out frame's cards lost 6 names in 1,600 and the kiosk's deck gained a
    wrong one), or is not ``enough`` for the caller (a card the tracker holds not among its
    names), or where ``thorough``. The hand-set cues cost three quarters of the detection's
    time, and most frames need none of what they find."""
    if thorough or detector.outline is None or not detector.config.hand_cues:
        return Look(name_cards(identifier, detector, frame, detector.detect(frame)), True)
    remembered = _Remembered(identifier)  # the outlines both looks find are read once
    glance = detector.glance(frame)
    if glance.explained:
        named = name_cards(remembered, detector, frame, glance.detections)
        if all(a.card_id is not None and a.corners in (None, 2) for _, a in named) and enough(named):
            return Look(named, False)
    return Look(name_cards(remembered, detector, frame, detector.closer(glance)), True)


class _Remembered:
    """An identifier that answers an outline of one frame it has read before from memory."""

    def __init__(self, identifier: IdentifierLike) -> None:
        self._identifier = identifier
        self._answers: dict[bytes, Identification] = {}

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        keys = [np.asarray(c.corners, np.float32).tobytes() for c in cards]
        new = {k: c for k, c in zip(keys, cards, strict=True) if k not in self._answers}
        if new:
            self._answers.update(zip(new, self._identifier.identify_cards(list(new.values())), strict=True))
        return [self._answers[k] for k in keys]


def name_cards(
    identifier: IdentifierLike, detector: Detector, frame: np.ndarray, detections: Sequence[Detection]
) -> list[tuple[Detection, Identification]]:
    """One (detection, answer) per detection, in order, then the further cards the second looks
    found (:func:`_second_looks`). A completed card read less surely than COMPLETED_CONFIDENCE,
    and by one corner only, is refused; a refused detection is replaced by the first of its
    alternates that the identifier names surely and that does not lie on a card named already;
    a card named on two overlapping outlines keeps one."""
    if not detections:
        return []
    answers = identifier.identify_cards(detections)
    if len(answers) != len(detections):
        raise RuntimeError(f"identifier answered {len(answers)} faces for {len(detections)}")
    answers = [
        a
        if a.card_id is None or not d.partial or a.confidence >= COMPLETED_CONFIDENCE or a.corners == 2
        else Identification(None, a.confidence, a.runner_up, a.margin)
        for d, a in zip(detections, answers, strict=True)
    ]
    named = _second_looks(identifier, detector, frame, list(zip(detections, answers, strict=True)))
    ends = _far_ends(detections, named, detector)
    shaped = _card_shaped(identifier, detector, frame, named + ends, range(len(named), len(named) + len(ends)))
    kept = shaped[: len(named)] + [pair for pair in shaped[len(named) :] if pair[1].card_id]
    return _once_per_card(kept + _beside_one_corner(identifier, detector, frame, kept))


def _beside_one_corner(
    identifier: IdentifierLike, detector: Detector, frame: np.ndarray, out: list[tuple[Detection, Identification]]
) -> list[tuple[Detection, Identification]]:
    """The other cards that the alternates of a card named from one corner show: an outline
    that spans two cards (fanned cards whose edges run on in one line) is read by the one
    index it holds, and the card beside it may be among the outlines it beat. An alternate is
    that card where both its corners read it as another card, as surely as a second look, and
    it lies on no card named, nor on this one as much as ONE_CARD (``edje-tfod``'s IMG_2668: a
    jack of hearts beside a ten of spades whose outline spans both). Only the first
    FIRST_ALTERNATES of each are read; a card named from both corners has its own outline."""
    looks = [
        (k, quad)
        for k, (d, a) in enumerate(out)
        if a.card_id is not None and a.corners == 1
        for quad in d.alternates[:FIRST_ALTERNATES]
    ]
    if not looks:
        return []
    named = [(k, d.corners, a.card_id) for k, (d, a) in enumerate(out) if a.card_id is not None]
    apart = detector.config.nms_iou  # from the other cards named; from its own, ONE_CARD
    found = detector.look_again(frame, [quad for _, quad in looks])
    if len(found) != len(looks):
        return []
    more: list[tuple[Detection, Identification]] = []
    for (k, _), alt, answer in zip(looks, found, identifier.identify_cards(found), strict=True):
        if answer.card_id is None or answer.corners != 2 or answer.confidence < SECOND_LOOK_CONFIDENCE:
            continue
        if any(
            card == answer.card_id or polygon_iou(alt.corners, corners) >= (ONE_CARD if j == k else apart)
            for j, corners, card in named
        ):
            continue
        more.append((alt, answer))
        named.append((-1, alt.corners, answer.card_id))
    return more


def _far_ends(
    detections: Sequence[Detection], named: list[tuple[Detection, Identification]], detector: Detector
) -> list[tuple[Detection, Identification]]:
    """For each refused outline of ``detections`` that a second look named by a card covering
    under PART_NAMED of it, the end of it farther from that card (:func:`fan_ends`), refused:
    two cards overlapping at an angle make one card-shaped outline, and where its look names
    one, the other lies in the rest of it, askew to it (``edje-tfod``'s IMG_2674: an ace of
    diamonds under a ten of hearts). ``named`` is :func:`_second_looks`' answer, the
    detections' places first."""
    out = []
    names = [d.corners for d, a in named if a.card_id is not None]
    for was, (card, answer) in zip(detections, named, strict=False):
        if card is was or answer.card_id is None or _area(card.corners) >= PART_NAMED * _area(was.corners):
            continue
        centre = card.corners.mean(axis=0)
        end = max(fan_ends(was.corners), key=lambda q: float(np.linalg.norm(q.mean(axis=0) - centre)))
        if not _lies_on(end, names, detector.config.nms_iou):
            out.append((replace(was, corners=end, alternates=()), Identification(None, 0.0, None, 0.0)))
    return out


def _area(quad: np.ndarray) -> float:
    """A quad's area in pixels, whichever way round its corners run."""
    return float(cv2.contourArea(np.asarray(quad, np.float32)))


def _second_looks(
    identifier: IdentifierLike, detector: Detector, frame: np.ndarray, out: list[tuple[Detection, Identification]]
) -> list[tuple[Detection, Identification]]:
    """``out`` with each refused detection replaced by its first alternate (or its refit, last)
    named surely, and after it the other alternates named surely as other cards, apart from
    those named; the looks read by both of a card's corners are taken first (held-out
    900186's queen of clubs, named on an outline across it before)."""
    detections = [d for d, _ in out]
    refused = [k for k, (d, a) in enumerate(out) if a.card_id is None and not _close_up(d, detector)]
    if not refused:
        return out
    # each refused outline offers the cards its print shows (whole: named only where both
    # corners read it), its alternates, then itself refitted to the edges further out (last:
    # an alternate that reads is the better outline);
    # best-scored cards first, and no more looks than a busy frame needs (a cluttered photo can
    # offer three dozen; each is a warp and a read)
    refits = detector.refit(frame, [detections[k].corners for k in refused])
    printed = detector.printed(frame, [d.corners for d in detections])
    offered: list[list[tuple[int, np.ndarray, _Kind]]] = []  # per refused outline: (it, quad, what)
    for k, refit in zip(refused, refits, strict=True):
        offered.append(
            [(k, quad, "print") for quad in printed[k]]
            + [
                (k, quad, "outline")
                for quad in (*detections[k].alternates[:FIRST_ALTERNATES], *(() if refit is None else (refit,)))
            ]
        )
    # each outline's first look before the others' second ones (a busy frame's looks run out
    # before the last outlines': washed-out scenes 6 cards more, piles 3), the rest in turn
    looks = [each[0] for each in offered if each] + [look for each in offered for look in each[1:]]
    # last, the cards at the two ends of each refused outline, taken as a fan
    looks += [(k, quad, "fan") for k in refused for quad in fan_ends(detections[k].corners)]
    # and the card round it, taken as a court card's picture frame
    looks += [(k, frame_card(detections[k].corners), "outline") for k in refused]
    # and where the looks are not used up, the alternates further down, and the cards between
    # the ends of each refused outline taken as a fan of three or more
    looks += [(k, quad, "outline") for k in refused for quad in detections[k].alternates[FIRST_ALTERNATES:]]
    for k in refused:  # (a busy frame's looks are used up long before: no windows are cut for it)
        if len(looks) >= MAX_SECOND_LOOKS:
            break
        looks += [(k, quad, "slice") for quad in fan_slices(detections[k].corners)]
    # and, in the looks left over, the outlines completed from its corners that another place
    # holds: a card under a named one, completed at full size, lies mostly on that card
    looks += [(k, quad, "under") for k, quad in _from_their_corners(refused, detections)]
    # a look lying on a card named at first sight could only be turned away below: it is not
    # read (one look in nine in piles), nor does it take the place of one that may name a card
    named = [d.corners for d, a in out if a.card_id is not None]  # and, below, those looks name
    on_named = len(named)  # how many of them were named at first sight
    looks = [look for look in looks if look[2] == "under" or not _lies_on(look[1], named, detector.config.nms_iou)]
    looks = looks[:MAX_SECOND_LOOKS]
    alts = detector.look_again(frame, [quad for _, quad, _ in looks])
    if len(alts) != len(looks):
        return out  # the frame is not a picture: nothing to look at again
    read = [
        (k, alt, kind)
        for (k, _, kind), alt in zip(looks, alts, strict=True)
        if kind == "under" or not _lies_on(alt.corners, named, detector.config.nms_iou)
    ]
    second_answers = identifier.identify_cards([alt for _, alt, _ in read])
    # an outline read by both its corners goes first: it is the card itself, where a look read
    # by one corner may lie across it (read there, it takes the card and turns the whole one away)
    order = sorted(range(len(read)), key=lambda i: second_answers[i].corners != 2)
    read, second_answers = [read[i] for i in order], [second_answers[i] for i in order]
    taken: set[int] = set()
    looked: list[tuple[Detection, Identification]] = []  # what the looks named, in order
    more: list[tuple[Detection, Identification]] = []
    for (k, alt, kind), answer in zip(read, second_answers, strict=True):
        if answer.card_id is None or answer.confidence < SECOND_LOOK_CONFIDENCE:
            continue
        if answer.corners == 0:
            continue  # named by its pips alone: they count what the guessed outline holds (half a ten: 5C)
        # piles: a 7D read at 0.99 off a king of hearts' picture frame, where none lies (a fanned
        # card's index lies on the card under it: there it is the top card's own)
        if kind not in ("fan", "slice") and _read_under_another(alt.corners, answer, named):
            continue
        if kind == "print" and answer.corners is not None and answer.corners < 2:
            continue  # a print's symmetric box shows both indices: one alone is text or a picture
        if kind == "slice" and (answer.confidence < SLICE_CONFIDENCE or _at_a_named_corner(alt.corners, named)):
            continue
        if kind == "under" and not _under_a_named_card(alt.corners, answer, named):
            continue
        if k in taken:
            # a refused outline may span two cards (fanned cards whose edges run on in one
            # line): another card among its alternates, named otherwise, lying on none named
            if not any(
                a.card_id == answer.card_id or polygon_iou(alt.corners, d.corners) >= ONE_CARD for d, a in looked
            ):
                more.append((alt, answer))
                looked.append((alt, answer))
                named.append(alt.corners)
            continue
        # the cards named at first sight were kept out of ``read``; those named by a look remain
        if _lies_on(alt.corners, named[on_named:], detector.config.nms_iou):
            continue  # that outline is another card's, named already: it would be reported twice
        out[k] = (alt, answer)
        taken.add(k)
        looked.append((alt, answer))
        named.append(alt.corners)
    return out + more


def _from_their_corners(refused: Sequence[int], detections: Sequence[Detection]) -> list[tuple[int, np.ndarray]]:
    """(k, quad) for each alternate of another detection that has a corner at one of refused
    detection ``k``'s (within SAME_PLACE of its short side): completions from the same visible
    corner, which lost to another card at that card's place."""
    owners = [j for j, d in enumerate(detections) for _ in d.alternates]
    if not refused or not owners:
        return []
    alts = np.stack([quad for d in detections for quad in d.alternates])  # (M, 4, 2)
    out = []
    for k in refused:
        mine = detections[k].corners
        near = np.linalg.norm(alts[:, :, None] - mine[None, None], axis=3).min(axis=(1, 2))
        reach = SAME_PLACE * min(card_sides(mine))
        out += [(k, alts[m]) for m in np.flatnonzero(near < reach) if owners[m] != k]
    return out


def _card_shaped(
    identifier: IdentifierLike,
    detector: Detector,
    frame: np.ndarray,
    out: list[tuple[Detection, Identification]],
    ends: Sequence[int] = (),
) -> list[tuple[Detection, Identification]]:
    """``out`` with the card-shaped outlines round some of its cards read
    (:func:`~kiosk.vision.card_fit.card_shapes`): such a card's outline is often askew or
    loose, so that one corner's crop misses its index (on a striped cloth its sides vanish on
    the white stripes). A card named from one corner is moved to the first one that both
    corners read as that card, keeping its name; the refused outlines read at GUESS_CONFIDENCE
    or surer (leaning to a card, or two corners naming two: held-out 900024's six of hearts,
    outlined 15 px short, its cut index read QH), MAX_GUESSED of them, surest first, and the
    MAX_APART best-scored of those read less surely that lie apart from the cards named, are
    named from the first one that both corners read as one card. Either is read at
    SECOND_LOOK_CONFIDENCE, as any second look, and no shape lying on another card named is
    taken. Where none is read so, the search is run again closer round the first CLOSER_AGAIN
    shapes that one corner read as the card wanted. The refused outlines of ``ends`` (indices:
    :func:`_far_ends`) are searched round too, whatever they read."""
    targets = [k for k, (_, a) in enumerate(out) if a.card_id is not None and a.corners == 1]
    unread = [k for k, (d, a) in enumerate(out) if a.card_id is None and k not in ends and not _close_up(d, detector)]
    leaning = [k for k in unread if out[k][1].confidence >= GUESS_CONFIDENCE]
    targets += sorted(leaning, key=lambda k: -out[k][1].confidence)[:MAX_GUESSED]
    named = [d.corners for d, a in out if a.card_id is not None]
    apart = (
        [k for k in unread if out[k][1].confidence < GUESS_CONFIDENCE and not _lies_on(out[k][0].corners, named, APART)]
        if named
        else []
    )
    targets += sorted(apart, key=lambda k: -out[k][0].score)[:MAX_APART]
    targets += [k for k in ends if k not in targets]
    if not targets:
        return out
    gray = cv2.cvtColor(out[targets[0]][0].frame, cv2.COLOR_BGR2GRAY)
    moved: set[int] = set()
    near = _take_shapes(
        identifier,
        detector,
        frame,
        gray,
        out,
        moved,
        [(k, card_shapes(gray, out[k][0].corners)) for k in targets],
        ends,
    )
    closer: dict[int, list[np.ndarray]] = {}
    for k, quad in near:
        closer.setdefault(k, []).extend(card_shapes(gray, quad, CLOSER))
    _take_shapes(identifier, detector, frame, gray, out, moved, list(closer.items()), ends)
    return out


def _take_shapes(
    identifier: IdentifierLike,
    detector: Detector,
    frame: np.ndarray,
    gray: np.ndarray,
    out: list[tuple[Detection, Identification]],
    moved: set[int],
    shapes: list[tuple[int, list[np.ndarray]]],
    ends: Sequence[int] = (),
) -> list[tuple[int, np.ndarray]]:
    """Moves each card of ``out`` (by index) not ``moved`` yet to the first of its ``shapes``
    that :func:`_card_shaped` takes; returns the first CLOSER_AGAIN shapes of each card still
    not moved that one corner read as the card it wants (refined: as read). The shapes are read
    a rank at a time, every card's first, then the second of those not moved, and so on: the
    first is most often the card, and a shape a little off the card costs its corners' reading
    again, shifted, zoomed and widened."""
    near: list[tuple[int, np.ndarray]] = []
    for rank in range(max((len(each) for _, each in shapes), default=0)):
        batch = [(k, each[rank]) for k, each in shapes if k not in moved and rank < len(each)]
        found = detector.look_again(frame, [shape for _, shape in batch], gray)
        if not found or len(found) != len(batch):
            break
        for (k, _), shape, answer in zip(batch, found, identifier.identify_cards(found), strict=True):
            card, first = out[k]
            if answer.card_id is None or (first.card_id is not None and answer.card_id != first.card_id):
                continue  # a card named keeps its name
            others = [d.corners for i, (d, a) in enumerate(out) if i != k and a.card_id is not None]
            # a fan's card under another shows one index: named by it as a window across a fan is
            fanned_card = answer.corners == 1 and k in ends and _under_a_named_card(shape.corners, answer, others)
            if answer.corners == 1 and not fanned_card:
                if sum(j == k for j, _ in near) < CLOSER_AGAIN:
                    near.append((k, shape.corners))
                continue
            if not fanned_card and (answer.corners != 2 or answer.confidence < SECOND_LOOK_CONFIDENCE):
                continue  # as surely as a second look (the kiosk's blurred 3D, read JD at 0.64 and 0.71)
            if not _lies_on(shape.corners, others, detector.config.nms_iou):
                out[k] = (replace(card, corners=shape.corners), answer)
                moved.add(k)
    return [(k, quad) for k, quad in near if k not in moved]


def _under_a_named_card(quad: np.ndarray, answer: Identification, named: Sequence[np.ndarray]) -> bool:
    """Whether a card lying under a named one (a card shape at a fan's far end,
    :func:`_far_ends`; a completion from a refused outline's corner, :func:`_from_their_corners`)
    is named by what it was read as: as surely as a window across a fan (SLICE_CONFIDENCE),
    with the index box it was read by on no named card, as any other look's, and the corners
    it was read by away from a named card's (there a crop shows that card's index, cut; its
    other corners lie under that card, where they may meet its corners)."""
    if answer.read_by is None or answer.confidence < SLICE_CONFIDENCE or _read_under_another(quad, answer, named):
        return False
    reading = [k for k, read in zip((0, 2), answer.read_by, strict=True) if read]
    return not _at_a_named_corner(quad[reading], named, float(np.linalg.norm(quad[1] - quad[0])))


def _close_up(card: Detection, detector: Detector) -> bool:
    """Whether ``card`` is a close-up (:meth:`Detector.is_close_up`): refused, it gets no second
    look. A picture filled by one card shows its corners whole, and what else is that large and
    card-shaped (the kiosk's own mat, a worktop) holds cards: searched round for card shapes and
    fans, the mat cost the virtual table's referee frames a tenth more time."""
    return detector.is_close_up(card.corners, card.frame.shape)


def _lies_on(quad: np.ndarray, cards: Sequence[np.ndarray], iou: float) -> bool:
    """Whether ``quad`` overlaps one of ``cards`` by ``iou`` or more: it is that card's outline."""
    return any(polygon_iou(quad, card) >= iou for card in cards)


def _read_under_another(quad: np.ndarray, answer: Identification, named: Sequence[np.ndarray]) -> bool:
    """Whether ``answer`` was read by one corner of ``quad`` only, the middle of whose index box
    lies within a card of ``named``: that crop shows the other card's face (and where the look's
    card lies under that card, its own index is hidden there)."""
    if answer.read_by is None or sum(answer.read_by) != 1:
        return False
    k = 0 if answer.read_by[0] else 2  # the bottom-right index is the top-left one turned
    corner, across, along = quad[k], quad[(k + 1) % 4] - quad[k], quad[(k + 3) % 4] - quad[k]
    box = corner + (INDEX_BOX[0] + INDEX_BOX[2]) / 2 * across + (INDEX_BOX[1] + INDEX_BOX[3]) / 2 * along
    return any(
        cv2.pointPolygonTest(card.astype(np.float32), (float(box[0]), float(box[1])), False) > 0 for card in named
    )


def _at_a_named_corner(quad: np.ndarray, named: Sequence[np.ndarray], width: float | None = None) -> bool:
    """Whether a corner of ``quad`` (or of some of its corners, given the card's ``width``) lies
    within FAN_STEP of its width of a corner of a card of ``named``: its index crop there shows
    that card's index, cut."""
    reach = FAN_STEP * (float(np.linalg.norm(quad[1] - quad[0])) if width is None else width)
    return any(float(np.linalg.norm(quad[:, None] - card[None], axis=2).min()) < reach for card in named)


def _once_per_card(pairs: list[tuple[Detection, Identification]]) -> list[tuple[Detection, Identification]]:
    """Of overlapping outlines named the same card, one read by both the card's corners keeps
    the name, else the best-scored (then surest); the others are refused (held-out 900125's
    four of spades, read by both corners on a second look, lost it to an outline across it read
    by one, scored higher). Outlines apart keep their names: one of them is misread, but which
    cannot be told."""
    out = list(pairs)
    kept: list[tuple[str, np.ndarray]] = []
    for k in sorted(range(len(out)), key=lambda k: (out[k][1].corners != 2, -out[k][0].score, -out[k][1].confidence)):
        d, a = out[k]
        if a.card_id is None:
            continue
        if any(card == a.card_id and polygon_iou(corners, d.corners) > 0 for card, corners in kept):
            out[k] = (d, Identification(None, a.confidence, a.card_id, 0.0))
        else:
            kept.append((a.card_id, d.corners))
    return out
