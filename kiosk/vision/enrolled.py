"""The reader of a venue's own printing of a standard deck, taught from one photo per card
(:mod:`kiosk.vision.teaching`): find the index, then read it. Each card's gallery rows
(:data:`ROWS`) hold its corners' index ink from the rank's top-left corner on, as that printing
shows it, how far the index reaches, its redness, what the pip model read on the face and its
suit signs.

:class:`EnrolledReader` names a rectified card, either way up, from independent looks and
answers only where all are sure:

* the rank: the index found in each corner is correlated, over small shifts, with the enrolled
  indices of every card (both corners), in the window the printing's indices reach; the best
  rank needs a score of ``enrolled.min_rank_score`` and a lead of ``enrolled.min_rank_margin`` over the
  best other rank (a number card's pips, counted, may vouch for a smaller lead);
* the glyphs, where the reader is given the glyph reader (:mod:`kiosk.vision.glyph_reader`): a
  rank or suit it reads surely on a counted corner must be the card's; its rank agreeing stands
  in for the rank's lead, its suit, with an enrolled suit glyph saying the same, for unread pips;
* the colour: the redness of the index ink against the enrolled red and black cards' (where
  that is unsure, a number card's pips counting its rank, sure of their suit);
* the suit: the pip model's reading of the face, of that colour. A number card's or an ace's
  must count as many pips as its rank, else two or more of its pips found at the places its
  printing puts that rank's pips must all read one suit. A court's suit is read at its suit spots
  (:mod:`kiosk.vision.suit_spots`): the places where it and the other court of its rank and
  colour each show a sign (the index's, an emblem in the court art) that the printing's own pips,
  or the pip model, read as their suits. Of the signs found there, either way up, one must read
  its suit clearly and none lean to the other; the pip model's reading of the whole face counts
  too where it read both courts right at enrolment. A printing whose courts carry no suit sign
  either reads leaves them unnamed.
* the rank, once more: the index model's answer for a card this reader refuses never stands
  against the rank its counted corners agree on (:attr:`Verdict.rank`,
  :func:`~kiosk.vision.identify.settle`).

Where the index is, how big it is and in which font play no part. It answers only from a
gallery that holds every card of the deck, so a card that was not enrolled can never be named
as a look-alike that was.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from kiosk.decks import load_deck
from kiosk.vision.face import face_corners
from kiosk.vision.gallery import Gallery, GalleryError, as_face
from kiosk.vision.glyph_reader import GlyphReader, load_glyph_reader, second_look
from kiosk.vision.glyphs import CornerIndex, found_indices
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import PIP_LABELS, PipReader, PipReading, load_pip_reader
from kiosk.vision.reading import Identification
from kiosk.vision.suit_glyphs import SUIT_DIM, SuitGlyphs
from kiosk.vision.suit_spots import (
    BLACK_SUITS,
    RED_SUITS,
    SIGN_DIM,
    court_spots,
    face_signs,
    other_suit,
    pip_spot_suits,
    pip_spots,
    pip_templates,
    placed_suit,
    spot_suits,
)

log = logging.getLogger(__name__)

#: The largest index window kept per corner (width, height, face pixels): an index reaching
#: further is cut there.
WINDOW: tuple[int, int] = (48, 72)
#: A card is stored as this many gallery rows: its two corners' index windows, its facts
#: (:data:`FACTS`) at the start of a third row, then its signs (:data:`SIGN_ROWS` rows).
ROWS = 5
ROW_DIM = WINDOW[0] * WINDOW[1]
FACTS = ("has_tl", "has_br", "reach_w", "reach_h", "redness", "pip_count", "pip_suit", "pip_confidence")
#: Where the third row keeps each corner's normalised suit glyph (:func:`suit_patch`), one after the other.
PATCHES_AT = len(FACTS)
#: The rows after the third that keep a card's signs (a number card's pips, a court's every sign:
#: :mod:`kiosk.vision.suit_spots`), :data:`SIGNS_PER_ROW` a row.
SIGN_ROWS = slice(3, ROWS)
SIGNS_PER_ROW = ROW_DIM // SIGN_DIM
MAX_SIGNS = (ROWS - 3) * SIGNS_PER_ROW
E = PARAMS.enrolled
PIP_RANKS = {"A": 1, **{str(n): n for n in range(2, 11)}}
_NONE = np.empty((0, 0), np.float32)  # no matrix to add to a product
_NO_SIGNS = np.empty((0, SIGN_DIM), np.float32)


@dataclass(frozen=True)
class CornerLook:
    """What one corner's index reads: its best rank with its correlation, the runner-up rank and
    the lead over it, the index ink's redness, and the suit its glyph shows (None: unsure)."""

    rank: str
    score: float
    second: str
    margin: float
    redness: float
    suit: str | None


@dataclass(frozen=True)
class Verdict:
    """The reader's answer for one card, or None with the reason it was refused (:data:`REFUSALS`),
    the pip model's reading of the card's face (None: none read, or the card was refused by its
    index before the pips were read) and the rank its counted corners agree on, named or not
    (None: none counted, or two)."""

    answer: Identification | None
    reason: str
    pips: PipReading | None = None
    rank: str | None = None


#: Why the reader refuses a card: no index found; no rank read with its lead; corners reading two
#: ranks; the glyph reader surely reading another rank or two; ink neither clearly red nor black;
#: no one suit said.
REFUSALS = ("no index", "rank unsure", "corners disagree", "glyphs disagree", "colour unsure", "suit unsure")


def index_window(index: CornerIndex, size: tuple[int, int], pad: int) -> np.ndarray:
    """The ink of ``index`` from the rank's top-left corner, ``size`` (w, h) wide, with ``pad``
    pixels more on every side (zero where the corner region ends)."""
    w, h = size
    x, y = index.rank[:2]
    framed = cv2.copyMakeBorder(index.ink, h + pad, h + pad, w + pad, w + pad, cv2.BORDER_CONSTANT, value=0)
    return framed[y + h : y + 2 * h + 2 * pad, x + w : x + 2 * w + 2 * pad]


def card_rows(gallery: Gallery) -> dict[str, np.ndarray]:
    """Each card of ``gallery`` with its rows (ROWS x ROW_DIM), in the gallery's order;
    :class:`GalleryError` where it does not hold ROWS rows per card (a gallery kept by an earlier
    version of the kiosk, which kept other things of a card)."""
    rows = gallery.embeddings
    if rows.shape[1] != ROW_DIM or len(rows) % ROWS:
        raise GalleryError(
            f"the gallery of {gallery.deck_id} holds {len(rows)} rows of {rows.shape[1]}, not {ROWS} rows of "
            f"{ROW_DIM} per card: run 'kiosk enroll' again"
        )
    answers = gallery.answers[::ROWS]
    if gallery.answers != tuple(a for a in answers for _ in range(ROWS)):
        raise GalleryError(f"the gallery of {gallery.deck_id} does not hold {ROWS} rows per card: enrol it again")
    return dict(zip(answers, rows.reshape(len(answers), ROWS, ROW_DIM), strict=True))


class EnrolledReader:
    """Names rectified cards of an enrolled printing from its gallery (ROWS rows per card)."""

    def __init__(self, gallery: Gallery, pips: PipReader | None, glyphs: GlyphReader | None = None) -> None:
        by_card = card_rows(gallery)
        self.deck_id = gallery.deck_id
        self.answers = tuple(by_card)
        self.rows = np.stack(list(by_card.values())) if by_card else np.zeros((0, ROWS, ROW_DIM), np.float32)
        self.pips, self.glyphs = pips, glyphs
        facts = self.rows[:, 2, : len(FACTS)]
        self.facts = {name: facts[:, k] for k, name in enumerate(FACTS)}
        has = self.facts["has_tl"] + self.facts["has_br"] > 0
        w, h = (
            np.percentile(self.facts[k][has], E.reach_share) + E.window_pad if has.any() else 1
            for k in ("reach_w", "reach_h")
        )
        self.size = min(int(w), WINDOW[0]), min(int(h), WINDOW[1])
        self.step = max(1, int(np.ceil(np.sqrt(self.size[0] * self.size[1] / E.max_compared))))
        self.templates, self.of_card = self._templates()
        red = np.array([a[-1] in RED_SUITS for a in self.answers])
        redness = self.facts["redness"]
        self.red_mean = float(redness[red & has].mean()) if (red & has).any() else 0.0
        self.black_mean = float(redness[~red & has].mean()) if (~red & has).any() else 0.0
        self.signs = [self._signs(i) for i in range(len(self.answers))]
        self.pip_signs = pip_templates({a: self.signs[i] for i, a in enumerate(self.answers) if a[:-1] in PIP_RANKS})
        self.spots = self._court_spots()
        self.pip_places = {
            rank: np.concatenate([self.signs[i] for i, a in enumerate(self.answers) if a[:-1] == rank] or [_NO_SIGNS])
            for rank in PIP_RANKS
        }
        patches = self.rows[:, 2, PATCHES_AT : PATCHES_AT + 2 * SUIT_DIM].reshape(-1, SUIT_DIM)
        self.suit_glyphs = SuitGlyphs(patches, [a[-1] for a in self.answers for _ in range(2)])

    def _signs(self, i: int) -> np.ndarray:
        """The signs enrolment kept of card ``i`` (n x SIGN_DIM)."""
        kept = self.rows[i, SIGN_ROWS, : SIGNS_PER_ROW * SIGN_DIM].reshape(MAX_SIGNS, SIGN_DIM)
        return kept[kept[:, 2] > 0]

    def _court_spots(self) -> dict[tuple[str, bool], tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per court rank and colour, the suit spots of both its courts read by the printing's pips
        (:func:`court_spots`) and by the pip model, with the way it turns each (:func:`pip_spots`;
        none without the model)."""
        out: dict[tuple[str, bool], list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        for i, card in enumerate(self.answers):
            mate = card[:-1] + other_suit(card[-1])  # the other court of its rank and colour
            if card[:-1] not in PIP_RANKS and mate in self.answers:
                own, theirs = self.signs[i], self.signs[self.answers.index(mate)]
                by_pips = court_spots(own, card[-1], theirs, self.pip_signs)
                by_model, flips = (
                    (own[:0], np.zeros(0, bool))
                    if self.pips is None
                    else pip_spots(own, card[-1], theirs, self.pips, self.pip_signs)
                )
                out.setdefault((card[:-1], card[-1] in RED_SUITS), []).append((by_pips, by_model, flips))
        return {
            key: (
                np.concatenate([p for p, _, _ in both]),
                np.concatenate([m for _, m, _ in both]),
                np.concatenate([f for _, _, f in both]),
            )
            for key, both in out.items()
        }

    def _templates(self) -> tuple[np.ndarray, np.ndarray]:
        """The enrolled index windows cut to ``size``, zero-mean and unit (one row each), and the
        card (row of ``answers``) each belongs to."""
        w, h = self.size
        out, of_card = [], []
        for i in range(len(self.answers)):
            for k, has in enumerate(("has_tl", "has_br")):
                if self.facts[has][i]:
                    out.append(_unit(self._shrunk(self.rows[i, k].reshape(WINDOW[1], WINDOW[0])[:h, :w]).ravel()))
                    of_card.append(i)
        if not out:  # no index found on any enrolled card: the reader names nothing
            return np.empty((0, 1), np.float32), np.empty(0, int)
        return np.array(out, np.float32), np.array(of_card, int)

    def _shrunk(self, window: np.ndarray) -> np.ndarray:
        """``window`` shrunk by the reader's ``step``."""
        if self.step == 1:
            return window
        h, w = window.shape
        return cv2.resize(window, (w // self.step, h // self.step), interpolation=cv2.INTER_AREA)

    @classmethod
    def load(
        cls,
        deck_id: str,
        directory: Path | None = None,
        models_dir: Path | None = None,
        pips: PipReader | None = None,
        glyphs: GlyphReader | None = None,
    ) -> EnrolledReader | None:
        """The reader of the enrolled ``deck_id``, or None where no complete gallery is enrolled
        (a partial one is reported in one line: its missing cards could pass for look-alikes),
        with the shipped glyph reader's second look where it can run. ``pips`` and ``glyphs``:
        the models already loaded by the caller, else they are loaded here."""
        from kiosk.vision.identify import default_models_dir

        gallery = Gallery.load(deck_id, directory)
        if gallery is None:
            return None
        missing = missing_cards(gallery)
        if missing:
            log.warning("the enrolled %s lacks %s: enrol them to use it", deck_id, ", ".join(missing))
            return None
        return cls(
            gallery, pips or load_pips(models_dir), glyphs or load_glyph_reader(models_dir or default_models_dir())
        )

    def read(self, card_bgr: np.ndarray) -> Identification | None:
        """The enrolled card that ``card_bgr`` (a rectified card, either way up) clearly is, else None."""
        return self.judge(card_bgr).answer

    def judge(self, card_bgr: np.ndarray, pips: bool = False) -> Verdict:
        """The card ``card_bgr`` (rectified, either way up) clearly is, or why it is refused. A
        corner reading no rank at ``min_rank_score`` (under another card) does not count; the rest
        agree. The verdict carries the pip model's reading of the face where the reader came to
        read it, and with ``pips`` also where it refused the card by its index alone."""
        face = as_face(card_bgr)

        def refused(reason: str) -> Verdict:
            return Verdict(None, reason, self._read_pips(face) if pips else None)

        found = [i for _, i in found_indices(face)]
        if not found or not len(self.templates) or self.pips is None:
            return refused("no index")
        every = [self._look(index) for index in found]
        glyphs = self.glyphs.read(found) if self.glyphs is not None else []
        counted, said = second_look(glyphs, [(look.rank, look.score) for look in every], E.min_rank_score)
        looks = [every[k] for k in counted]
        if not looks:
            return refused("rank unsure")
        if len({look.rank for look in looks}) > 1:
            return refused("corners disagree")
        if said.split or said.rank not in (None, looks[0].rank):
            return refused("glyphs disagree")  # the corners' rank is in doubt: none is carried
        rank, best = looks[0].rank, max(looks, key=lambda look: look.margin)
        reading = self._read_pips(face)
        red = self._red(float(np.mean([look.redness for look in looks])))
        if red is None and reading is not None and pips_count(rank + reading.suit, reading):
            red = reading.suit in RED_SUITS  # thin digits neither red nor black: the pips tell
        if red is None:
            return Verdict(None, "colour unsure", reading, rank)
        suit = self._suit(face, rank, red, reading, looks, all(look.rank == rank for look in every), said.suit)
        if suit is None:
            return Verdict(None, "suit unsure", reading, rank)
        by_pips = reading is not None and PIP_RANKS.get(rank) == reading.count
        if len(looks) > 1 and pips_count(rank + suit, reading):
            lead = 0.0  # both corners' best rank and the pips' sure count: three looks say it
        else:
            lead = E.min_counted_margin if len(looks) > 1 or by_pips else E.min_rank_margin
        if best.margin < lead and said.rank != rank:
            return Verdict(None, "rank unsure", reading, rank)
        card_id = rank + suit
        return Verdict(
            Identification(card_id, best.score, best.second + suit, best.margin, card_id), "named", reading, rank
        )

    def _read_pips(self, face: np.ndarray) -> PipReading | None:
        """The pip model's reading of ``face`` (None: no pip model, or no pips read)."""
        return None if self.pips is None else self.pips.read([(face, face_corners(face))])[0]

    def _look(self, index: CornerIndex) -> CornerLook:
        """What the ``index`` of one corner reads: its best rank, the runner-up, its suit glyph."""
        scores = self._rank_scores(index)
        first, second = (sorted(scores, key=lambda r: -scores[r]) * 2)[:2]  # a one-rank gallery: itself
        margin = scores[first] - scores[second] if second != first else scores[first]
        return CornerLook(first, scores[first], second, margin, index.redness, self.suit_glyphs.read(index))

    def _rank_scores(self, index: CornerIndex) -> dict[str, float]:
        """The best correlation of each enrolled rank with the found ``index`` over shifts."""
        w, h = (side // self.step for side in self.size)
        padded = self._shrunk(index_window(index, (w * self.step, h * self.step), E.max_shift * self.step))
        looks = np.lib.stride_tricks.sliding_window_view(padded, (h, w)).reshape(-1, w * h)
        looks = looks - looks.mean(axis=1, keepdims=True)
        looks /= np.linalg.norm(looks, axis=1, keepdims=True) + 1e-6
        # OpenCV's product: numpy's threaded BLAS costs more in waking its threads than it saves here
        best = cv2.gemm(self.templates, looks, 1.0, _NONE, 0.0, flags=cv2.GEMM_2_T).max(axis=1)
        scores: dict[str, float] = {}
        for i, s in zip(self.of_card, best, strict=True):
            rank = self.answers[i][:-1]
            scores[rank] = max(scores.get(rank, -1.0), float(s))
        return scores

    def _red(self, redness: float) -> bool | None:
        """Whether index ink of ``redness`` is red (True) or black (False); None where unsure."""
        mid = (self.red_mean + self.black_mean) / 2
        lead = (redness - mid) / ((self.red_mean - self.black_mean) / 2 or 1.0)
        return None if abs(lead) < E.min_colour_lead else bool(lead > 0)

    def _suit(
        self,
        face: np.ndarray,
        rank: str,
        red: bool,
        reading: PipReading | None,
        looks: list[CornerLook],
        uncontested: bool,
        glyph_suit: str | None = None,
    ) -> str | None:
        """The one suit of the colour said by the corners' suit glyphs, the pip ``reading`` and a
        court's suit signs, else None. A number card's pips say its suit alone where they count
        its rank (an ace's one pip only where no corner found reads another rank, even unsurely:
        a card over that corner may show its own pips); else the pips found at the rank's enrolled
        pip places (:func:`placed_suit`: a card over part of the face hides some and adds its own
        elsewhere) say it, with no suit glyph saying another; else pips that count fewer say it
        only with a suit glyph that says the same."""
        said = {s for s in [*(look.suit for look in looks), glyph_suit] if s is not None}
        if rank in PIP_RANKS:
            sure = reading is not None and reading.confidence >= E.min_pip_confidence
            if sure and reading is not None and reading.count == PIP_RANKS[rank] and (reading.count > 1 or uncontested):
                said = {reading.suit}  # its pips outvote an index's suit glyph, a sign of a third their size
            elif (placed := self._placed_suit(face, rank, red)) is not None:
                said.add(placed)
            elif not sure:  # no pips read: two glyphs may say it
                agreed = glyph_suit is not None and glyph_suit in {look.suit for look in looks}
                return glyph_suit if agreed and glyph_suit in (RED_SUITS if red else BLACK_SUITS) else None
            elif not (reading is not None and reading.count < PIP_RANKS[rank] and reading.suit in said):
                return None
        else:
            said |= self._sign_suits(face, rank, red)
            sure = reading is not None and reading.confidence >= E.min_pip_confidence
            if sure and reading is not None and self._emblem_read(rank, red, reading):
                said.add(reading.suit)
        return said.pop() if len(said) == 1 and said <= set(RED_SUITS if red else BLACK_SUITS) else None

    def _placed_suit(self, face: np.ndarray, rank: str, red: bool) -> str | None:
        """The suit the pips at the enrolled pip places of ``rank`` say, no other rank's places
        holding more of them (:func:`placed_suit`)."""
        places = self.pip_places.get(rank, _NO_SIGNS)
        if self.pips is None or not len(places):
            return None
        rivals = [p for r, p in self.pip_places.items() if r != rank and len(p)]
        return placed_suit(face, places, RED_SUITS if red else BLACK_SUITS, self.pips, rivals)

    def _sign_suits(self, face: np.ndarray, rank: str, red: bool) -> set[str]:
        """The suits of the court's colour read at the enrolled suit spots of ``rank``, either way
        up, by the printing's pips and by the pip model."""
        by_pips, by_model, flips = self.spots.get((rank, red), (_NO_SIGNS, _NO_SIGNS, np.zeros(0, bool)))
        if not len(by_pips) + len(by_model):
            return set()
        kinds = set(np.concatenate([by_pips, by_model])[:, 3].tolist())  # only the kinds its spots hold are looked for
        found = face_signs(face, MAX_SIGNS * 4, printed=0.0 in kinds, ringed=1.0 in kinds)
        pair = RED_SUITS if red else BLACK_SUITS
        said = spot_suits(found, by_pips, pair, self.pip_signs)
        if self.pips is not None and len(by_model):
            said |= pip_spot_suits(found, by_model, flips, pair, self.pips, self.pip_signs)
        return said

    def _emblem_read(self, rank: str, red: bool, reading: PipReading) -> bool:
        """Whether the pip model read both courts of ``rank`` and colour right at enrolment, the one
        of ``reading``'s suit with its count."""
        enrolled = [i for i, a in enumerate(self.answers) if a[:-1] == rank and (a[-1] in RED_SUITS) == red]
        for i in enrolled:
            suit = int(self.facts["pip_suit"][i])
            right = suit >= 0 and PIP_LABELS[suit] == self.answers[i][-1]
            if not right or self.facts["pip_confidence"][i] < E.min_pip_confidence:
                return False
            if self.answers[i][-1] == reading.suit and self.facts["pip_count"][i] != reading.count:
                return False
        return bool(enrolled)


def pips_count(card_id: str, reading: PipReading | None) -> bool:
    """Whether the pip ``reading`` counts the number card ``card_id``'s rank (2-10), surely of its suit."""
    rank, suit = card_id[:-1], card_id[-1]
    if reading is None or reading.confidence < E.min_pip_confidence or reading.suit != suit:
        return False
    return 1 < reading.count == PIP_RANKS.get(rank)


def _unit(v: np.ndarray) -> np.ndarray:
    v = v - v.mean()
    return v / (np.linalg.norm(v) + 1e-6)


def load_pips(models_dir: Path | None) -> PipReader | None:
    """The shipped pip model (or the one in ``models_dir``); None, said once, where it cannot run:
    the reader then names no card."""
    from kiosk.vision.identify import default_models_dir

    reader = load_pip_reader(models_dir or default_models_dir())
    if reader is None:
        log.warning("no pip model or TFLite runtime: an enrolled standard deck is not read")
    return reader


def missing_cards(gallery: Gallery) -> list[str]:
    """The deck's cards that ``gallery`` has no row for, in deck order."""
    have = set(gallery.answers)
    return [card_id for card_id in load_deck(gallery.deck_id).ids if card_id not in have]
