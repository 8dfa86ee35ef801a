"""A number card's pips check its index: the pips show its suit two to three times larger than
the index does, and their count its number.

Where as many pips as the index's rank read surely as the other suit of its colour, the pips'
suit is the answer (a club read as a spade from a blurred index is the commonest wrong name);
read surely as its own suit, they confirm the index's card, which is then as sure as they are.
Pips read surely as a suit of the other colour contradict the index, and the card is refused:
the pips are read by their shape alone, the index's suit leans on its ink's colour, which a
washed-out frame takes away; pips surely counted as another number contradict an index read
unsurely. Where the two corners disagree on the suit of one number or on the number in one suit,
or both lean to one number without naming it, the pips settle it (:func:`settled_by_pips`). On a
card too small for its index's suit sign to be read (``small_card_px``), a black number card or
ace is named only where its pips confirm its suit, and so is a black number card named by one
corner less surely than ``read.sure`` (no second index to agree with the first); a number card
named so is refused where its pips are surely counted as more than its number (not all its own,
or its one index misread).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeGuard

import numpy as np

from kiosk.decks import Card, Deck
from kiosk.vision.face import cards_sides
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import PIP_LABELS, PipReader, PipReading
from kiosk.vision.reading import Identification

#: Whose pips are checked: the numbers, not the ace (one big pip, ornate on many decks).
PIP_COUNTS = {str(n): n for n in range(2, 11)}
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def checked_by_pips(
    deck: Deck,
    pips: PipReader,
    readings: list[tuple[Identification, Identification]],
    answers: list[Identification],
    card: Callable[[int], tuple[np.ndarray, np.ndarray]],
) -> list[Identification]:
    """``answers`` (each card's from its two corners' ``readings``) with :func:`with_pips` on
    those that name a number card and :func:`settled_by_pips` on those whose corners disagree
    on one number card (:func:`dispute`); ``card(i)`` is the i-th card's (image, corners), asked
    for only for those."""
    out = list(answers)
    cards = {i: deck[a.card_id] for i, a in enumerate(answers) if a.card_id is not None}
    disputes = {
        i: pair
        for i, (a, b) in enumerate(readings)
        if answers[i].card_id is None and (pair := dispute(deck, a, b)) is not None
    }
    # on a card under small_card_px wide only the pips tell a black suit: a small black
    # ace's one pip is read too, to confirm it and never to name it
    read = [*cards, *disputes]
    narrow = {i for i, small in zip(read, too_small([card(i)[1] for i in read]), strict=True) if small}
    numbers = [
        i for i, c in cards.items() if c.rank in PIP_COUNTS and not _sure_without_pips(readings[i], c, i in narrow)
    ]
    # nor on a number card named from one corner unsurely: no second index agrees with the first
    one_corner = {
        i
        for i in numbers
        if answers[i].confidence < PARAMS.read.sure and sum(r.card_id == cards[i].id for r in readings[i]) == 1
    }
    unconfirmed = narrow | one_corner
    numbers += list(disputes)
    aces = [i for i in narrow if i in cards and cards[i].rank == "A" and cards[i].colour == "black"]
    for i, reading in zip(numbers + aces, pips.read([card(i) for i in numbers + aces]), strict=True):
        if i not in aces:
            out[i] = (
                with_pips(answers[i], cards[i], reading)
                if i in cards
                else settled_by_pips(answers[i], disputes[i], reading)
            )
        named = out[i].card_id
        if named is not None and (
            (i in unconfirmed and _suit_unconfirmed(deck[named], reading))
            or (i in one_corner and _counted_more(reading, deck[named].rank))
        ):
            out[i] = refused(out[i], named)
    return out


def too_small(corners: Sequence[np.ndarray]) -> list[bool]:
    """Per card outlined by ``corners`` (4 x 2 each), whether it is under ``small_card_px`` wide:
    too small for a black index's suit sign to tell a club from a spade."""
    sides = cards_sides(np.array(corners, np.float32).reshape(-1, 4, 2))
    return [bool(short < PARAMS.pips.small_card_px) for short, _ in sides]


def dispute(deck: Deck, a: Identification, b: Identification) -> tuple[Card, Card] | None:
    """The two number cards two corners name or guess without naming one card, for the pips
    to settle: one number in the two suits of one colour (a club read as a spade from one
    blurred index, the commonest disagreement, or a club's index read 0.6 as clubs and 0.4
    as spades at both corners), or two numbers of one suit (a nine read surely at one corner
    and as a three at the other; or both corners guessing one number and the surer one's
    second guess another number of that suit at ``guess_confidence``: a blurred five read
    as an eight at one corner, whose five pips an eight could not settle)."""
    ga, gb = _named_or_guessed(a), _named_or_guessed(b)
    if ga is None or gb is None:
        return None
    if ga == gb:
        gb = _second_number(max(a, b, key=lambda r: r.confidence), ga) or gb
    ca, cb = deck[ga], deck[gb]
    if ca.rank not in PIP_COUNTS or cb.rank not in PIP_COUNTS or ca.suit is None:
        return None
    if ca.rank != cb.rank:
        return (ca, cb) if ca.suit == cb.suit else None
    other = f"{ca.rank}{SAME_COLOUR[ca.suit]}"
    if cb.suit not in (ca.suit, SAME_COLOUR[ca.suit]) or other not in deck:
        return None
    return ca, deck[other]


def with_pips(answer: Identification, card: Card, reading: PipReading | None) -> Identification:
    """``answer`` (naming ``card``) checked against the pips of its face: where as many pips as
    its rank read surely as the other suit of its colour, that suit is the answer, with the
    index's card as runner-up; where they read surely as a suit of the other colour, the two
    contradict each other and the answer is None (the pips go by shape alone, the index's suit
    by colour too, which a washed-out frame loses); where they read surely as its own suit, the
    two agree, and the answer is as sure as the surer of them (a card completed from its corners
    and read 0.7 by its index is named when its pips confirm it). Pips counted surely as another
    number contradict an index read under ``unsure_index``: refused; so do two pips up to its
    rank, too unsure to name a suit but all but ruling out its own (``pip_against``). Anything
    less (no reading, pips lost under a hand or cut off, an unsure reading) leaves the answer
    as it is."""
    if card.suit is None or reading is None:
        return answer
    if answer.confidence < PARAMS.pips.unsure_index and _counted_otherwise(reading, card.rank):
        return refused(answer, card.id)
    if not _sure_pips(reading, card.rank):
        return refused(answer, card.id) if _ruled_out(reading, card) else answer
    if reading.suit == card.suit:
        return replace(answer, confidence=max(answer.confidence, reading.confidence))
    if reading.suit != SAME_COLOUR[card.suit]:
        return refused(answer, card.id)
    return _named_by_pips(reading, f"{card.rank}{reading.suit}", card)


def settled_by_pips(answer: Identification, cards: tuple[Card, Card], reading: PipReading | None) -> Identification:
    """Two corners that disagree on a number card (``cards``: one number in the two suits of one
    colour, or two numbers of one suit) settled by its pips: the one of the two whose number
    they count and whose suit they read surely (between two numbers, at ``pip_count_confidence``)
    is the answer, the other the runner-up. Anything less leaves the refusal ``answer``."""
    if reading is None:
        return answer
    bar = PARAMS.pips.pip_confidence if cards[0].rank == cards[1].rank else PARAMS.pips.pip_count_confidence
    fits = [c for c in cards if _sure_pips(reading, c.rank, bar) and reading.suit == c.suit]
    if len(fits) != 1:
        return answer
    win = fits[0]
    return _named_by_pips(reading, win.id, cards[1] if win is cards[0] else cards[0])


def _sure_pips(reading: PipReading | None, rank: str | None, bar: float | None = None) -> TypeGuard[PipReading]:
    """As many pips as ``rank`` says, read at ``bar`` (by default ``pip_confidence``) or surer."""
    bar = PARAMS.pips.pip_confidence if bar is None else bar
    return reading is not None and reading.count == PIP_COUNTS.get(rank or "") and reading.confidence >= bar


def refused(answer: Identification, card_id: str) -> Identification:
    """``answer`` refused, ``card_id`` (what it would have been) its runner-up, with no lead."""
    return Identification(None, answer.confidence, card_id, 0.0)


def _may_all_be_its_own(reading: PipReading, card: Card, least: int) -> bool:
    """Whether ``least`` pips or more were counted, and at most as many as ``card`` shows (one
    for an ace): a pen, a finger or another card may hide some; more are not all its own."""
    return least <= reading.count <= (1 if card.rank == "A" else PIP_COUNTS.get(card.rank or "", 0))


def _ruled_out(reading: PipReading, card: Card) -> bool:
    """Whether two or more pips that may all be ``card``'s all but rule out its suit
    (``pip_against``)."""
    return (
        _may_all_be_its_own(reading, card, 2)
        and reading.probs[PIP_LABELS.index(card.suit or "")] < PARAMS.pips.pip_against
    )


def _counted_otherwise(reading: PipReading, rank: str | None) -> bool:
    """Pips counted surely as a number (two or more) other than the number card ``rank``'s."""
    return (
        rank in PIP_COUNTS
        and reading.count >= 2
        and reading.count != PIP_COUNTS[rank]
        and reading.confidence >= PARAMS.pips.pip_count_confidence
    )


def _counted_more(reading: PipReading | None, rank: str | None) -> bool:
    """Pips counted surely as more than the number card ``rank``'s number: not all its own, or
    its index misread (a ten's corner read as a seven)."""
    return (
        reading is not None
        and reading.count > PIP_COUNTS.get(rank or "", 99)
        and reading.confidence >= PARAMS.pips.pip_count_confidence
    )


def _named_by_pips(reading: PipReading, card_id: str, other: Card) -> Identification:
    """``card_id`` named by the pips, ``other`` the runner-up, led by the pips' own odds: over
    the other suit, the difference of the two suits' probabilities; over another number of the
    same suit, which the pips' count rules out, their whole confidence (the tracker confirms
    only a card named with a clear lead)."""
    if other.suit == card_id[-1]:
        return Identification(card_id, reading.confidence, other.id, reading.confidence)
    return Identification(
        card_id, reading.confidence, other.id, reading.confidence - reading.probs[PIP_LABELS.index(other.suit or "")]
    )


def _suit_unconfirmed(card: Card, reading: PipReading | None) -> bool:
    """Whether ``card`` is black and its pips ``reading`` do not surely read its suit: from one
    pip to as many as its rank (one for an ace), as a pen, a finger or another card may hide
    some; more are not all its own."""
    return card.colour == "black" and not (
        reading is not None
        and _may_all_be_its_own(reading, card, 1)
        and reading.confidence >= PARAMS.pips.pip_confidence
        and reading.suit == card.suit
    )


def _sure_without_pips(pair: tuple[Identification, Identification], card: Card, narrow: bool) -> bool:
    """Whether both corners ``pair`` read ``card`` so surely that its pips are not read: ``sure``
    for a red card, ``first_alone`` for a black one at least ``small_card_px`` wide. What the pips
    catch is a black suit misread (clubs and spades differ by a few pixels of an index, hearts and
    diamonds by colour and shape); on the benchmarks they changed no red card read ``sure`` at both
    corners, nor a wide black one read ``first_alone``, and reading them costs a glance frame of 8
    cards several milliseconds."""
    if card.colour == "red":
        return all(r.card_id == card.id and r.confidence >= PARAMS.read.sure for r in pair)
    return not narrow and all(r.card_id == card.id and r.confidence >= PARAMS.read.first_alone for r in pair)


def _named_or_guessed(reading: Identification) -> str | None:
    """The card a reading names, or guesses at ``guess_confidence`` or more."""
    return reading.card_id or (reading.guess if reading.confidence >= PARAMS.pips.guess_confidence else None)


def _second_number(reading: Identification, card_id: str) -> str | None:
    """The runner-up of ``reading``, which leans to the number card ``card_id``, where it is
    another number of that suit with ``guess_confidence`` or more."""
    second = reading.runner_up
    if (
        second is None
        or second == card_id
        or second[-1] != card_id[-1]
        or second[:-1] not in PIP_COUNTS
        or reading.confidence - reading.margin < PARAMS.pips.guess_confidence
    ):
        return None
    return second
