"""Name the cards the detector found: one answer per face, or None when unsure.

Index decks (``Deck.identify_by == "index"``: standard-52, piquet-32, affiche-belge) are read
from the corner index, rank and suit, by ``models/index.tflite``: it was trained on many made-up
brands, so any standard deck works. Face decks (kakkerlakken-64) are recognised by their artwork
with ``models/<deck-id>.tflite``, or, once a venue has enrolled photos of its own printed deck
(``kiosk enroll``), by nearest neighbour in that gallery. Text decks (math-pairs, printed by the
kiosk itself) are read by matching their big text against the renderer's own faces
(:mod:`kiosk.vision.textmatch`); no model.

Only the active deck's cards can be answered: a model class that is not in the deck counts as
"no answer", so a 2 shown during a piquet game gives ``card_id=None``. Every model also has a
``none`` class (tables, hands, backs, paper), so clutter is refused rather than named.

A model may ship as several *members*, trained by one recipe with other seeds
(``index.tflite``, ``index.2.tflite``, ...: :func:`model_files`), whose probabilities are
averaged. Runs of one recipe misread different real indices (pp2021: 66 to 96 % right between
seeds), and a wrong answer that one run learnt is seldom as sure in another: two members name
fewer cards wrongly than either alone (``models/MODEL.md``).

A corner index read with less than :data:`SURE` confidence is read again from four shifted cuts
and answered from the average of the five readings: most misreadings hang on where the crop's
edges cut a glyph, and do not survive the other cuts (the answer is then refused, or right).
One still refused is read zoomed (:data:`ZOOMS`: the outline a little off the card's size), and
one refused still, widened (:data:`WIDENINGS`: an index printed narrower than the model learnt).
A corner surely showing no card (:data:`SURE_NONE`) is not read again.

A number card (two to ten) also shows its suit in the pips of its face, two to three times
larger than the index's: where ``models/pips.tflite`` reads as many pips as the index's rank,
and reads them surely as the other suit of the same colour, the pips' suit is the answer
(:func:`with_pips`; a club read as a spade from a blurred index was the commonest wrong name);
read surely as its own suit, they confirm the index's card, which is then as sure as they are.
Pips read surely as a suit of the other colour contradict the index, and the card is refused:
the pips are read by their shape alone, the index's suit leans on its ink's colour, which a
washed-out frame takes away (a grey diamond reads as a spade at 0.99); pips surely counted as
another number contradict an index read unsurely, and the card is refused. Where the two corners
disagree on the suit of one number (8C and 8S) or on the number in one suit (9D and 3D), or are
both too unsure to name it but lean so (:data:`GUESS_CONFIDENCE`; both leaning to one number,
the surer corner's second guess is the other number of the pair where it is one of that suit),
the pips, counted as many as one of the two numbers and read as surely, settle it
(:func:`settled_by_pips`) instead of the card being refused; the count rules the other number
out, so the card is named with the pips' whole confidence as its lead.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeGuard

import cv2
import numpy as np

from kiosk.decks import Card, Deck, load_deck
from kiosk.errors import KioskError
from kiosk.vision.face import cards_sides, face_corners, index_crops
from kiosk.vision.pips import PIP_LABELS, PipReading, load_pip_reader
from kiosk.vision.runtime import TfliteModel

if TYPE_CHECKING:
    from kiosk.vision.gallery import Gallery

log = logging.getLogger(__name__)

NONE_LABEL = "none"
JOKER_LABEL = "JK"
INDEX_MODEL = "index"
#: An answer needs this probability and this lead over the second guess; below, card_id is None.
MIN_CONFIDENCE = 0.6
MIN_MARGIN = 0.3
#: A corner read with less confidence than this is read again, shifted (:func:`shifted_crops`),
#: unless it is this sure it shows no card (clutter: most of a busy table's outlines).
SURE = 0.99
SURE_NONE = 0.9
#: A card whose two corners the first index member reads as one card this surely is not read
#: by the second (:meth:`Identifier._pair_scores`): a glance frame's corners read in 2.3 ms
#: instead of 3.8. Every corner pair first read on 100 held-out scenes of the standard deck and
#: 100 of the kiosk's, 50 piles and 366 `edje-tfod` photos: 1,705 of 13,421 read
#: this surely, where the members' mean would have refused 4 and named no other card; every
#: benchmark's figures the same. At 0.999: 1,932, where the mean would have refused 11, and the
#: kiosk's deck's benchmark named a three of diamonds as the ten (the first member read 10D at
#: both corners, the second JD).
FIRST_ALONE = 0.9999
#: The shifts of a second reading, in fractions of the crop (a pixel or two at the kiosk's scale,
#: within the +-10 % the model was trained on): an unsure reading often hangs on where the
#: crop's edges cut a glyph.
SHIFTS: tuple[tuple[float, float], ...] = ((0.06, 0.0), (-0.06, 0.0), (0.0, 0.06), (0.0, -0.06))
#: The scales of a third reading (:func:`zoomed_crops`), for a corner its shifted readings still
#: leave refused: an outline a little wider or narrower than the card shows the index larger or
#: smaller than the model's members read it best. pp2021, 795 real corners: right 93.33 -> 94.97 %,
#: none wrong; 2,080 synthetic corners: right 88.99 -> 89.90 %, wrong 19 -> 20.
ZOOMS: tuple[float, ...] = (0.92, 1.08)
#: The widths of a fourth reading (:func:`widened_crops`), for a corner still refused: real
#: brands print indices narrower than the generator draws them (pp2021's queen 0.30 as wide as
#: tall), and the members read a narrow Q as 9 or 10, or disagree. pp2021: right 94.97 ->
#: 97.23 %, none wrong; 2,080 synthetic corners: right 89.90 -> 90.34 %, wrong 0.96 % both
#: (mixed into the zoomed readings instead, they unsettled synthetic corners those
#: had named: right 89.66 %).
WIDENINGS: tuple[float, ...] = (1.25, 1.5, 1.75)
#: The pips' suit overrules the index's when their mean probability is at least this. Held-out
#: scenes: of 1,435 number cards whose pips were counted right, the pips named the other suit of
#: the index's colour this surely on 5 (0.97-0.996), all 5 where the index was wrong. Of the
#: pips read at the true outlines of 2,401 number cards (held-out, washed out, piles): counted
#: right and read 0.85-0.9, 9 suits, all right (0.95 and surer: 1 wrong of 2,279); 0.9 had left
#: a 3C named 3S over three pips of clubs at 0.887.
PIP_CONFIDENCE = 0.85
#: Two pips or more, up to the number an index names, read as its suit with a mean probability
#: under this, contradict it: the card is refused. Held-out scenes at 1280x720, 960x540 and
#: 800x450, piles and washed out (3,982 named number cards with a pip reading): the 7 clubs
#: named as spades whose pips were counted right read spades at 0.02-0.14; of the cards named
#: right and counted right, the least sure read their suit at 0.22 (a blurred 9C) and 0.23, and
#: counted short, 0.33. Not only the exact count: refused, held-out 900040's nine of clubs was
#: outlined again with a pip cut off and named 9S from eight pips reading spades at 0.03.
PIP_AGAINST = 0.2
#: Pips choosing between two numbers by their count must be read this surely: a mean lowered by
#: pips cut short is also where some are hidden (a pile's nine of clubs, two pips under another
#: card, counted seven at 0.85-0.9 and named 7C).
PIP_COUNT_CONFIDENCE = 0.9
#: A card outlined narrower than this many pixels of its frame (the mean of its two shorter
#: sides) shows the suit sign of its index a few pixels tall, where the index model reads a
#: blurred club as a spade, surely and at both corners. Held-out scenes rendered at 800x450 to
#: 1280x720 (100 each, the cards 8 to 15 % of the frame's width): of the cards named on
#: outlines 90 px wide or more, 9 of 2,206 were misread (0.4 %); under 90 px, 23 of 889
#: (2.6 %); every one a club named a spade. A number card's pips tell the two suits apart at
#: that size (of the small black number cards named right, 192 in 209 had their pips read
#: surely as their suit; of the 8 misread, none), so a small black number card is named only
#: where its pips surely read its suit (from one pip to its number: some may be hidden;
#: `edje-tfod` 2 right ranks more than with every pip asked for, the held-out scenes at 800x450 and 960x540 and every
#: other bench unchanged), and so is a small black ace by its one pip (of 28 named
#: right, 27 read surely as their suit; the 4 aces of clubs named AS, surely as clubs): the ace's
#: pip only refuses, never names (many brands' ace of spades is ornate and reads as clubs).
#: Court cards have no pips: refused when small, they cost 40 right ranks of `edje-tfod`'s phone
#: photos (378 x 504) and the kiosk's posters 3 cards at 1280 x 720, so they are named by their
#: index (at 960 x 540, 3 black court cards of 2,080 named as another card).
SMALL_CARD_PX = 90.0
#: Whose pips are checked: the numbers, not the ace (one big pip, ornate on many decks: a
#: Bicycle ace of spades, a renderer's spade whose stem stands apart, read as clubs).
_PIP_COUNTS = {str(n): n for n in range(2, 11)}
#: An index answer under this whose pips are counted, at PIP_COUNT_CONFIDENCE, as another number
#: (two or more) contradicts them, and the card is refused: held-out 900171's three of diamonds
#: was named 8D at 0.63 from one corner over three pips of diamonds at 0.996. A surer index
#: keeps its answer: a number card under another shows fewer pips than its number.
UNSURE_INDEX = 0.85
#: A corner too unsure to name its card still tells the pips which number to count when its
#: guess has this probability: held-out scenes' refused clubs read 0.27-0.64 as their number,
#: while outlines lying across a pile guess a number at 0.0-0.06 (one pile's three of hearts,
#: counted in a ten's pips, was named where no three lies).
GUESS_CONFIDENCE = 0.2
#: A corner too unsure to name its card but leaning this much to the other corner's rank in
#: another suit contradicts that corner: clubs and spades differ by a few pixels of an index.
#: Held-out 900232's ace of clubs, completed from one corner, was read AS at 0.85 there and AC
#: at 0.55 at the other (with the requantized seed-2 member; the float32 file's
#: glance outlined it otherwise and refused it). On the benches it refused that card and
#: nothing else (models/MODEL.md).
OTHER_SUIT_LEAN = 0.5
_SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


@dataclass(frozen=True)
class Identification:
    """The answer for one face or corner crop.

    ``card_id`` is None when the image is not a card of the active deck or the model is unsure;
    ``runner_up`` is the second-best answer of the deck and ``margin`` the lead of the best
    over it (0..1), which the tracker uses to demand a clear identity before confirming.
    ``guess`` is the best answer of the deck even where it was too unsure to give: what a
    check by other means (a number's pips) may confirm. ``read_by`` says which of a card's
    two corner indices, (top-left, bottom-right) of its outline's corners in their order, were
    read as the answer (None where no corners were read: face decks, single crops).
    """

    card_id: str | None
    confidence: float
    runner_up: str | None
    margin: float
    guess: str | None = None
    read_by: tuple[bool, bool] | None = None

    @property
    def corners(self) -> int | None:
        """How many of the card's corner indices read the answer: a card outlined by its
        print's symmetry shows both."""
        return None if self.read_by is None else sum(self.read_by)


def default_models_dir() -> Path:
    """``$KIOSK_MODELS_DIR``, else the models shipped inside the package (``kiosk/models/``,
    package data: found the same from a checkout, an editable install or an installed wheel)."""
    env = os.environ.get("KIOSK_MODELS_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[1] / "models"


def model_name(deck: Deck) -> str:
    """Index decks share the corner model; a face deck has its own artwork model."""
    return INDEX_MODEL if deck.identify_by == "index" else deck.id


def member_stem(name: str, member: int) -> str:
    """The file stem of a model's ``member``-th member: ``index`` (its ``.tflite`` and
    ``.train.json``), ``index.2``, ..."""
    return name if member == 1 else f"{name}.{member}"


def model_files(directory: Path, name: str) -> list[Path]:
    """``name``'s model file and the members trained beside it (:func:`member_stem`), in order."""
    members = sorted(
        (int(m), p)
        for p in directory.glob(f"{name}.*.tflite")
        if (m := p.name[len(name) + 1 : -len(".tflite")]).isdigit() and int(m) > 1
    )
    return [directory / f"{name}.tflite", *(p for _, p in members)]


def read_labels(path: Path) -> tuple[str, ...]:
    return tuple(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def deck_answer(deck: Deck, label: str) -> str | None:
    """The answer a model label stands for in ``deck``, or None if the deck cannot show it.

    Kakkerlakken cards are labelled by species: the 8 cards of a species share the artwork, so
    the answer is the species key (``"rat"``), not a card id. The two Manneken-Pis share their
    corner index (``JK``), so the corner model answers the deck's first joker (``JK1``).
    """
    if label == NONE_LABEL:
        return None
    if label == JOKER_LABEL:
        return next((c.id for c in deck if c.kind == "joker"), None)
    if deck.species:
        return label if label in deck.species else None
    return label if label in deck else None


class CardView(Protocol):
    """What the identifier reads of a found card (:class:`kiosk.vision.detect.Detection`)."""

    @property
    def face(self) -> np.ndarray: ...

    def index_corners(self) -> tuple[np.ndarray, np.ndarray]: ...

    def around(self) -> tuple[np.ndarray, np.ndarray]: ...


def _as_bgr(image: np.ndarray) -> np.ndarray:
    """Any image-like array as BGR uint8; a malformed one becomes a black pixel (answered None)."""
    arr = np.asarray(image)
    if arr.size == 0 or arr.ndim not in (2, 3):
        return np.zeros((1, 1, 3), np.uint8)
    if arr.dtype != np.uint8:
        arr = np.clip(np.nan_to_num(arr.astype(np.float32)), 0, 255).astype(np.uint8)
    if arr.ndim == 2:
        return cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR)
    if arr.shape[2] < 3:
        return cv2.cvtColor(np.ascontiguousarray(arr[:, :, 0]), cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(arr[:, :, :3])


def prepare(images: Sequence[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    """Model input for ``images``: resized to ``size`` (w, h), paper-balanced, contrast-normalised.

    Subtracting each channel's median (the paper, most of a card) cancels colour casts; dividing
    by the spread cancels exposure. Training uses this very function.
    """
    small = _resized([_as_bgr(img) for img in images], size)
    med, spread = _levels(small)
    out = np.subtract(small, med.astype(np.float32)[:, None, None, :], dtype=np.float32)
    out /= spread.astype(np.float32)[:, None, None, None] + np.float32(4.0)
    return out


def _resized(images: list[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    """BGR ``images`` shrunk to ``size`` (w, h) by INTER_AREA, as one uint8 array (N, h, w, 3).
    Those of one shape are shrunk in one call, stacked one above the other (a frame's sixteen
    index crops: 0.14 ms less). Where ``h`` is a power of two each output row's source rows lie
    at the same offsets within its own image in the stack as alone (the scale is exact in
    binary), so each image gets the same pixels as shrunk on its own."""
    w, h = size
    out = np.empty((len(images), h, w, 3), np.uint8)
    shapes: dict[tuple[int, ...], list[int]] = {}
    for i, img in enumerate(images):
        shapes.setdefault(img.shape, []).append(i)
    for (ih, iw, _), which in shapes.items():
        if len(which) > 1 and ih >= h and iw >= w and h & (h - 1) == 0:
            stack = np.concatenate([images[i] for i in which])
            out[which] = cv2.resize(stack, (w, h * len(which)), interpolation=cv2.INTER_AREA).reshape(-1, h, w, 3)
        else:
            for i in which:
                out[i] = cv2.resize(images[i], (w, h), interpolation=cv2.INTER_AREA)
    return out


def _levels(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per image of uint8 ``small`` (N, H, W, 3): each channel's median as ``np.median`` gives
    it (the mean of the two middle values) and the standard deviation of all its values, both
    read off per-channel histograms (a third of ``np.median``'s time; the deviation from exact
    integer sums, where ``np.std`` took 0.2 ms a frame; on the crops of real frames a partial
    sort, ``np.partition``, took a quarter longer)."""
    n = len(small)
    flat = small.reshape(n, -1, 3)
    m = flat.shape[1]
    keys = (flat + np.arange(n * 3, dtype=np.int64).reshape(n, 1, 3) * 256).ravel()
    hist = np.bincount(keys, minlength=n * 3 * 256).reshape(n, 3, 256)
    cum = hist.cumsum(axis=2)
    medians = ((cum <= (m - 1) // 2).sum(axis=2) + (cum <= m // 2).sum(axis=2)) / 2
    counts = hist.sum(axis=1)  # (n, 256): every channel's values together
    values = np.arange(256, dtype=np.int64)
    mean = (counts @ values) / (3 * m)
    return medians, np.sqrt((counts @ (values * values)) / (3 * m) - mean * mean)


def _decide(scores: np.ndarray, answers: Sequence[str | None], min_conf: float, min_margin: float) -> Identification:
    """The best allowed answer of one score row, with its runner-up and margin."""
    order = np.argsort(-scores)
    best = second = None
    for k in order:
        if answers[k] is None:
            continue
        if best is None:
            best = int(k)
        elif answers[k] != answers[best]:
            second = int(k)
            break
    if best is None:
        return Identification(None, 0.0, None, 0.0)
    conf = float(scores[best])
    margin = conf - (float(scores[second]) if second is not None else 0.0)
    ok = conf >= min_conf and margin >= min_margin
    return Identification(
        answers[best] if ok else None, conf, answers[second] if second is not None else None, margin, answers[best]
    )


def with_pips(answer: Identification, card: Card, reading: PipReading | None) -> Identification:
    """``answer`` (naming ``card``) checked against the pips of its face: where as many pips as
    its rank read surely as the other suit of its colour, that suit is the answer, with the
    index's card as runner-up; where they read surely as a suit of the other colour, the two
    contradict each other and the answer is None (the pips go by shape alone, the index's suit
    by colour too, which a washed-out frame loses); where they read surely as its own suit, the
    two agree, and the answer is as sure as the surer of them (a card completed from its corners
    and read 0.7 by its index is named when its pips confirm it). Pips counted surely as another
    number contradict an index read under UNSURE_INDEX: refused; so do two pips up to its rank,
    too unsure to name a suit but all but ruling out its own (:data:`PIP_AGAINST`). Anything
    less (no reading, pips lost under a hand or cut off, an unsure reading) leaves the answer
    as it is."""
    if card.suit is None or reading is None:
        return answer
    if answer.confidence < UNSURE_INDEX and _counted_otherwise(reading, card.rank):
        return _refused(answer, card.id)
    if not _sure_pips(reading, card.rank):
        return _refused(answer, card.id) if _ruled_out(reading, card) else answer
    if reading.suit == card.suit:
        return replace(answer, confidence=max(answer.confidence, reading.confidence))
    if reading.suit != _SAME_COLOUR[card.suit]:
        return _refused(answer, card.id)
    return _named_by_pips(reading, f"{card.rank}{reading.suit}", card)


def settled_by_pips(answer: Identification, cards: tuple[Card, Card], reading: PipReading | None) -> Identification:
    """Two corners that disagree on a number card (``cards``: one number in the two suits of one
    colour, or two numbers of one suit) settled by its pips: the one of the two whose number
    they count and whose suit they read surely (between two numbers, at PIP_COUNT_CONFIDENCE)
    is the answer, the other the runner-up. Anything less leaves the refusal ``answer``."""
    if reading is None:
        return answer
    bar = PIP_CONFIDENCE if cards[0].rank == cards[1].rank else PIP_COUNT_CONFIDENCE
    fits = [c for c in cards if _sure_pips(reading, c.rank, bar) and reading.suit == c.suit]
    if len(fits) != 1:
        return answer
    win = fits[0]
    return _named_by_pips(reading, win.id, cards[1] if win is cards[0] else cards[0])


def _sure_pips(reading: PipReading | None, rank: str | None, bar: float = PIP_CONFIDENCE) -> TypeGuard[PipReading]:
    """As many pips as ``rank`` says, read at ``bar`` or surer."""
    return reading is not None and reading.count == _PIP_COUNTS.get(rank or "") and reading.confidence >= bar


def _refused(answer: Identification, card_id: str) -> Identification:
    """``answer`` refused, ``card_id`` (what it would have been) its runner-up, with no lead."""
    return Identification(None, answer.confidence, card_id, 0.0)


def _may_all_be_its_own(reading: PipReading, card: Card, least: int) -> bool:
    """Whether ``least`` pips or more were counted, and at most as many as ``card`` shows (one
    for an ace): a pen, a finger or another card may hide some; more are not all its own."""
    return least <= reading.count <= (1 if card.rank == "A" else _PIP_COUNTS.get(card.rank or "", 0))


def _ruled_out(reading: PipReading, card: Card) -> bool:
    """Whether two or more pips that may all be ``card``'s all but rule out its suit
    (:data:`PIP_AGAINST`)."""
    return _may_all_be_its_own(reading, card, 2) and reading.probs[PIP_LABELS.index(card.suit or "")] < PIP_AGAINST


def _counted_otherwise(reading: PipReading, rank: str | None) -> bool:
    """Pips counted surely as a number (two or more) other than the number card ``rank``'s."""
    return (
        rank in _PIP_COUNTS
        and reading.count >= 2
        and reading.count != _PIP_COUNTS[rank]
        and reading.confidence >= PIP_COUNT_CONFIDENCE
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
    some (`edje-tfod` IMG_2589's nine of spades, read 0.99 at both corners, five pips showing
    past a pen, is named); more are not all its own."""
    return card.colour == "black" and not (
        reading is not None
        and _may_all_be_its_own(reading, card, 1)
        and reading.confidence >= PIP_CONFIDENCE
        and reading.suit == card.suit
    )


def _sure_without_pips(pair: tuple[Identification, Identification], card: Card, narrow: bool) -> bool:
    """Whether both corners ``pair`` read ``card`` so surely that its pips are not read: SURE for
    a red card, FIRST_ALONE for a black one at least SMALL_CARD_PX wide. What the pips catch is
    a black suit misread (clubs and spades differ by a few pixels of an index, hearts and
    diamonds by colour and shape). Held-out scenes at three sizes (150 each), piles, washed out,
    the kiosk's deck and `edje-tfod`: of 2,205 readings of red number cards SURE at both
    corners, the pips changed none; of the black ones, 94, a club read as a spade (reading
    them cost a glance frame of 8 cards 3.6 ms). Of 1,609 black number cards at least
    SMALL_CARD_PX wide read FIRST_ALONE at both corners, the pips changed none; of 258
    narrower, 12."""
    if card.colour == "red":
        return all(r.card_id == card.id and r.confidence >= SURE for r in pair)
    return not narrow and all(r.card_id == card.id and r.confidence >= FIRST_ALONE for r in pair)


def _vouched_for(reading: Identification, other: Identification) -> bool:
    """Whether ``reading``, one corner of a card, need not be read again as its other corner is
    SURE and it names that card or nothing: :func:`_both_corners` answers with the surer corner,
    so a second reading could only turn the card into a contradiction, and a glyph read SURE
    from one whole index is rarely the one wrong."""
    return other.card_id is not None and other.confidence >= SURE and reading.card_id in (None, other.card_id)


def _named_or_guessed(reading: Identification) -> str | None:
    """The card a reading names, or guesses at GUESS_CONFIDENCE or more."""
    return reading.card_id or (reading.guess if reading.confidence >= GUESS_CONFIDENCE else None)


def _second_number(reading: Identification, card_id: str) -> str | None:
    """The runner-up of ``reading``, which leans to the number card ``card_id``, where it is
    another number of that suit with GUESS_CONFIDENCE or more."""
    second = reading.runner_up
    if (
        second is None
        or second == card_id
        or second[-1] != card_id[-1]
        or second[:-1] not in _PIP_COUNTS
        or reading.confidence - reading.margin < GUESS_CONFIDENCE
    ):
        return None
    return second


def _with_corners(answer: Identification, pair: tuple[Identification, Identification]) -> Identification:
    """``answer`` saying which of its card's two corner ``pair`` readings read it."""
    a, b = (r.card_id is not None and r.card_id == answer.card_id for r in pair)
    return replace(answer, read_by=(a, b))


def _both_corners(a: Identification, b: Identification) -> Identification:
    """A card shows two indices: one may be covered or glared, so the surer one answers; two
    corners naming different cards is a contradiction, answered None with no margin, and so is
    one corner leaning to another suit of the other's rank (:data:`OTHER_SUIT_LEAN`)."""
    if a.card_id is not None and b.card_id is not None and a.card_id != b.card_id:
        top, other = (a, b) if a.confidence >= b.confidence else (b, a)
        return Identification(None, top.confidence, other.card_id, 0.0)
    for named, other in ((a, b), (b, a)):
        if named.card_id is not None and _leans_to_other_suit(other, named.card_id):
            return Identification(None, named.confidence, other.guess, 0.0)
    return max(a, b, key=lambda r: (r.card_id is not None, r.confidence))


def _leans_to_other_suit(reading: Identification, card_id: str) -> bool:
    """Whether ``reading``, refused, leans at :data:`OTHER_SUIT_LEAN` to ``card_id``'s rank in
    another suit."""
    guess = reading.guess
    return (
        reading.card_id is None
        and guess is not None
        and reading.confidence >= OTHER_SUIT_LEAN
        and guess[:-1] == card_id[:-1]
        and guess[-1] != card_id[-1]
        and guess[-1] in _SAME_COLOUR
        and card_id[-1] in _SAME_COLOUR
    )


class Identifier:
    """Identifies faces (and corner crops) of one deck; built once per game, called per frame.
    Its models run on ``num_threads`` each (the kiosk's ``[vision] model_threads``)."""

    def __init__(self, deck_id: str, models_dir: Path | None = None, num_threads: int = 1) -> None:
        from kiosk.vision.gallery import Gallery  # these two need the answer type defined here
        from kiosk.vision.textmatch import TextMatcher

        self.deck = load_deck(deck_id)
        # a text deck is read without a model: none of the model state below exists for it
        self._text = TextMatcher(self.deck) if self.deck.identify_by == "text" else None
        self.labels: tuple[str, ...] = ()
        self.gallery = None
        if self._text is not None:
            return
        directory = models_dir or default_models_dir()
        name = model_name(self.deck)
        self._models = [TfliteModel(path, num_threads) for path in model_files(directory, name)]
        self.labels = read_labels(directory / f"{name}.labels.txt")
        first = self._models[0]
        for member in self._models[1:]:
            if (member.input_shape, member.output_sizes) != (first.input_shape, first.output_sizes):
                raise KioskError(
                    f"{member.path}: not a member of {first.path} (input {member.input_shape}, "
                    f"outputs {member.output_sizes}; expected {first.input_shape}, "
                    f"{first.output_sizes})"
                )
        h, w = first.input_shape[:2]
        self.input_size = (w, h)
        self._answers = [deck_answer(self.deck, lab) for lab in self.labels]
        self._none = self.labels.index(NONE_LABEL)
        self.gallery = self._gallery(Gallery) if self.deck.identify_by == "face" else None
        self._pips = (
            load_pip_reader(directory, num_threads) if self.deck.identify_by == "index" and self.deck.pips else None
        )

    def _gallery(self, gallery: type[Gallery]) -> Gallery | None:
        """The venue's enrolled gallery of this deck, if it has one that fits the model: a
        gallery that cannot be used (damaged, or made with another model) is reported in one
        line and the shipped model answers instead."""
        try:
            found = gallery.load(self.deck.id)
        except KioskError as exc:
            log.warning("%s; the shipped model names the cards meanwhile", exc)
            return None
        dims = [size for size in self._models[0].output_sizes if size != len(self.labels)]
        if found is not None and found.embeddings.shape[1] not in dims:
            log.warning(
                "the gallery of %s has %d-dimensional embeddings, the model gives %s: run "
                "'kiosk enroll' again; the shipped model names the cards meanwhile",
                self.deck.id,
                found.embeddings.shape[1],
                dims or "none",
            )
            return None
        return found

    def scores(self, images: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
        """Class probabilities ``(n, labels)``, the mean of the members', and, for face models,
        the first member's embeddings ``(n, d)`` (what a gallery was enrolled with)."""
        if self._text is not None:
            raise KioskError(f"{self.deck.id} is read from its printed text: it has no model scores")
        batch = prepare(images, self.input_size)
        runs = [model.run(batch) for model in self._models]
        probs = np.mean([self._class_probs(out) for out in runs], axis=0)
        embed = next((o for o in runs[0] if o.shape[-1] != len(self.labels)), None)
        return probs, embed

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]:
        """One answer per warped face (FACE_SIZE BGR, either way up)."""
        if not faces:
            return []
        if self._text is not None:
            return [self._text.identify(_as_bgr(f)) for f in faces]
        if self.deck.identify_by == "index":
            bgr = [_as_bgr(f) for f in faces]
            return self._checked_by_pips(
                self._read_corners([index_crops(f) for f in bgr]), lambda i: (bgr[i], face_corners(bgr[i]))
            )
        probs, embed = self.scores(faces)
        if self.gallery is not None and embed is not None:
            return [self.gallery.identify(e, p[self._none]) for e, p in zip(embed, probs, strict=True)]
        return [_decide(p, self._answers, MIN_CONFIDENCE, MIN_MARGIN) for p in probs]

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]:
        """One answer per found card: :meth:`identify` of its face, an index deck reading only
        the two corners (warping the whole face would cost it more than the reading)."""
        if self.deck.identify_by != "index" or not cards:
            return self.identify([c.face for c in cards])
        readings = self._read_corners([c.index_corners() for c in cards])
        return self._checked_by_pips(readings, lambda i: cards[i].around())

    def _checked_by_pips(
        self,
        readings: list[tuple[Identification, Identification]],
        card: Callable[[int], tuple[np.ndarray, np.ndarray]],
    ) -> list[Identification]:
        """Each card's answer from its two corners' ``readings``, with :func:`with_pips` on those
        that name a number card and :func:`settled_by_pips` on those whose corners disagree
        on the suit of one number, each with how many of its corners read it; ``card(i)`` is
        the i-th card's (image, corners), asked for only for those."""
        answers = [_both_corners(a, b) for a, b in readings]
        out = list(answers)
        if self._pips is not None:
            cards = {i: self.deck[a.card_id] for i, a in enumerate(answers) if a.card_id is not None}
            disputes = {
                i: pair
                for i, (a, b) in enumerate(readings)
                if answers[i].card_id is None and (pair := self._dispute(a, b)) is not None
            }
            # on a card under SMALL_CARD_PX wide only the pips tell a black suit: a small black
            # ace's one pip is read too, to confirm it and never to name it
            read = [*cards, *disputes]
            sides = cards_sides(np.array([card(i)[1] for i in read], np.float32).reshape(-1, 4, 2))
            narrow = {i for i, (short, _) in zip(read, sides, strict=True) if short < SMALL_CARD_PX}
            numbers = [
                i
                for i, c in cards.items()
                if c.rank in _PIP_COUNTS and not _sure_without_pips(readings[i], c, i in narrow)
            ]
            numbers += list(disputes)
            aces = [i for i in narrow if i in cards and cards[i].rank == "A" and cards[i].colour == "black"]
            for i, reading in zip(numbers + aces, self._pips.read([card(i) for i in numbers + aces]), strict=True):
                if i not in aces:
                    out[i] = (
                        with_pips(answers[i], cards[i], reading)
                        if i in cards
                        else settled_by_pips(answers[i], disputes[i], reading)
                    )
                named = out[i].card_id
                if i in narrow and named is not None and _suit_unconfirmed(self.deck[named], reading):
                    out[i] = _refused(out[i], named)
        return [_with_corners(a, pair) for a, pair in zip(out, readings, strict=True)]

    def _dispute(self, a: Identification, b: Identification) -> tuple[Card, Card] | None:
        """The two number cards two corners name or guess without naming one card, for the pips
        to settle: one number in the two suits of one colour (a club read as a spade from one
        blurred index, the commonest disagreement, or a club's index read 0.6 as clubs and 0.4
        as spades at both corners), or two numbers of one suit (a nine read 1.0 at one corner
        and as a three at the other; or both corners guessing one number and the surer one's
        second guess another number of that suit at GUESS_CONFIDENCE: a blurred five of clubs
        read 0.44 as an eight and 0.22 as a five, whose five pips an eight could not settle)."""
        ga, gb = _named_or_guessed(a), _named_or_guessed(b)
        if ga is None or gb is None:
            return None
        if ga == gb:
            gb = _second_number(max(a, b, key=lambda r: r.confidence), ga) or gb
        ca, cb = self.deck[ga], self.deck[gb]
        if ca.rank not in _PIP_COUNTS or cb.rank not in _PIP_COUNTS or ca.suit is None:
            return None
        if ca.rank != cb.rank:
            return (ca, cb) if ca.suit == cb.suit else None
        other = f"{ca.rank}{_SAME_COLOUR[ca.suit]}"
        if cb.suit not in (ca.suit, _SAME_COLOUR[ca.suit]) or other not in self.deck:
            return None
        return ca, self.deck[other]

    def _read_corners(
        self, pairs: Sequence[tuple[np.ndarray, np.ndarray]]
    ) -> list[tuple[Identification, Identification]]:
        """Each card's readings of its (top-left, bottom-right) index crops."""
        crops = [crop for pair in pairs for crop in pair]
        probs = self._pair_scores(crops)
        answers = [_decide(p, self._answers, MIN_CONFIDENCE, MIN_MARGIN) for p in probs]
        unsure = [i for i in self._unsure(probs, answers) if not _vouched_for(answers[i], answers[i ^ 1])]
        both = self._read_again(crops, probs, answers, unsure)
        return [(both[2 * i], both[2 * i + 1]) for i in range(len(pairs))]

    def _pair_scores(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """:meth:`scores` of cards' corner crops in pairs (top-left, bottom-right), but a card
        whose two corners the first member reads as one card, each at FIRST_ALONE or surer,
        keeps that member's reading: the others are run on the rest only (each row of a batch
        is read apart, so the rest read as they would in the whole batch)."""
        batch = prepare(crops, self.input_size)
        first = self._class_probs(self._models[0].run(batch))
        top = first.argmax(axis=1).reshape(-1, 2)
        alone = (
            (top[:, 0] == top[:, 1])
            & (top[:, 0] != self._none)
            & (first.max(axis=1).reshape(-1, 2).min(axis=1) >= FIRST_ALONE)
        )
        rest = np.flatnonzero(~np.repeat(alone, 2))
        if len(rest) and len(self._models) > 1:
            others = [self._class_probs(model.run(batch[rest])) for model in self._models[1:]]
            first[rest] = np.mean([first[rest], *others], axis=0)
        return first

    def _class_probs(self, outputs: list[np.ndarray]) -> np.ndarray:
        """The class probabilities among one member's ``outputs``."""
        return next(o for o in outputs if o.shape[-1] == len(self.labels))

    def identify_index(self, crops: Sequence[np.ndarray]) -> list[Identification]:
        """One answer per upright corner-index crop (from :func:`kiosk.vision.face.index_crops`)."""
        if not crops:
            return []
        if self.deck.identify_by != "index":
            return [Identification(None, 0.0, None, 0.0) for _ in crops]
        probs, answers = self._read_once(crops)
        return self._read_again(crops, probs, answers, self._unsure(probs, answers))

    def _read_once(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, list[Identification]]:
        """Each crop's probabilities and answer from one reading."""
        probs, _ = self.scores(crops)
        return probs, [_decide(p, self._answers, MIN_CONFIDENCE, MIN_MARGIN) for p in probs]

    def _unsure(self, probs: np.ndarray, answers: Sequence[Identification]) -> list[int]:
        """The readings under SURE, apart from those SURE_NONE that they show no card."""
        return [
            i
            for i, a in enumerate(answers)
            if (a.card_id is None or a.confidence < SURE) and probs[i][self._none] < SURE_NONE
        ]

    def _read_again(
        self, crops: Sequence[np.ndarray], probs: np.ndarray, answers: list[Identification], unsure: Sequence[int]
    ) -> list[Identification]:
        """``answers`` with those of ``unsure`` crops from the mean of their first reading and
        their :func:`shifted_crops`' readings, of those still refused from the mean with their
        :func:`zoomed_crops`' readings too, and of those still refused with their
        :func:`widened_crops`' too, where that names it. Each stage reads only what the one
        before refused: mixed into every second reading, the zoomed readings also unsettled
        cards the shifts had named (held-out scenes: 2 names lost, 2 gained), and so did the
        widened ones those the zooms had named. A refusal the widened readings do not turn into
        a name stays as the zooms left it: its guess and runner-up are what the other corner
        (:func:`_both_corners`) and the pips (:meth:`_dispute`) weigh, and a wide copy of a
        normal index guesses worse (held-out 900232's AC leaned to AS, 900166's 5C lost its
        five as runner-up)."""
        if not unsure:
            return answers
        sums = probs[list(unsure)] + self._readings(crops, unsure, shifted_crops)
        readings = 1 + len(SHIFTS)
        for k, i in enumerate(unsure):
            answers[i] = _decide(sums[k] / readings, self._answers, MIN_CONFIDENCE, MIN_MARGIN)
        which = list(unsure)
        # (the variants, how many, whether a refusal from them replaces the one before)
        for variants, count, refusal_too in ((zoomed_crops, len(ZOOMS), True), (widened_crops, len(WIDENINGS), False)):
            refused = [k for k, i in enumerate(which) if answers[i].card_id is None]
            if not refused:
                break
            which = [which[k] for k in refused]
            sums = sums[refused] + self._readings(crops, which, variants)
            readings += count
            for i, total in zip(which, sums, strict=True):
                answer = _decide(total / readings, self._answers, MIN_CONFIDENCE, MIN_MARGIN)
                if refusal_too or answer.card_id is not None:
                    answers[i] = answer
        return answers

    def _readings(
        self, crops: Sequence[np.ndarray], which: Sequence[int], variants: Callable[[np.ndarray], list[np.ndarray]]
    ) -> np.ndarray:
        """Per crop of ``which``, the summed probabilities of its ``variants`` (as many for each)."""
        probs, _ = self.scores([v for i in which for v in variants(_as_bgr(crops[i]))])
        return probs.reshape(len(which), -1, probs.shape[-1]).sum(axis=1)


def shifted_crops(crop: np.ndarray) -> list[np.ndarray]:
    """``crop`` as if cut with its window moved by each of :data:`SHIFTS` (so its content moves the
    other way), its edge repeated where nothing was cut.

    Averaging the readings of a crop and its shifted copies is what makes an unsure reading
    sure or refused: a misreading that depends on where the crop cuts a glyph rarely survives
    four cuts (pp2021: wrong answers 9.1 -> 3.8 %).
    """
    h, w = crop.shape[:2]
    return [_moved(crop, [[1, 0, -dx * w], [0, 1, -dy * h]]) for dx, dy in SHIFTS]


def zoomed_crops(crop: np.ndarray) -> list[np.ndarray]:
    """``crop`` scaled by each of :data:`ZOOMS` about its top-left corner, the card's: what the
    crop would show were the card's outline 1/zoom times as large; its edge repeated where
    nothing was cut."""
    return [_moved(crop, [[z, 0, 0], [0, z, 0]]) for z in ZOOMS]


def widened_crops(crop: np.ndarray) -> list[np.ndarray]:
    """``crop`` stretched across by each of :data:`WIDENINGS` from its left edge, the card's:
    an index printed narrower than the model learnt them, shown as wide as it did."""
    return [_moved(crop, [[w, 0, 0], [0, 1, 0]]) for w in WIDENINGS]


def _moved(crop: np.ndarray, matrix: list[list[float]]) -> np.ndarray:
    h, w = crop.shape[:2]
    return cv2.warpAffine(crop, np.array(matrix, np.float32), (w, h), borderMode=cv2.BORDER_REPLICATE)
