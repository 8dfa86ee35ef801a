"""Name the cards the detector found: one answer per card, or None when unsure.

One reader per deck kind, behind one interface (:class:`~kiosk.vision.reading.DeckReader`), chosen
by ``Deck.identify_by``:

* *index* decks (standard-52, piquet-32, affiche-belge) are read from their corner indices by
  the index model's members, number cards checked by their pips
  (:class:`~kiosk.vision.index_reader.IndexReader`), and the cards it refuses of a standard or
  piquet deck by their located glyphs (:class:`~kiosk.vision.glyph_fallback.GlyphFallback`: an
  index laid out unlike the model's crop); where a venue enrolled its own printing of
  the deck (``kiosk enroll --deck standard-52``), that printing's reader reads each card too and
  has the last word (:class:`EnrolledFallback`); the kiosk's own poster deck is read by its
  art too (:class:`~kiosk.vision.poster_reader.PosterReader`: its two Manneken-Pis share an
  index, and a card whose index is unsure is named by its poster among its suit's);
* *face* decks (kakkerlakken-64) by their artwork with ``models/<deck-id>.tflite``, or, once a
  venue has enrolled photos of its own printed deck (``kiosk enroll``), by nearest neighbour in
  that gallery (:class:`FaceModelReader`);
* *text* decks (math-pairs, printed by the kiosk itself) by matching their big text against the
  renderer's own faces (:class:`TextReader`); no model.

Only the active deck's cards can be answered: a model class that is not in the deck counts as
"no answer", so a 2 shown during a piquet game gives ``card_id=None``. Every model also has a
``none`` class (tables, hands, backs, paper), so clutter is refused rather than named.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kiosk.decks import load_deck
from kiosk.errors import KioskError
from kiosk.vision.enrolled import EnrolledReader, Verdict, pips_count
from kiosk.vision.gallery import Gallery
from kiosk.vision.glyph_fallback import GlyphFallback
from kiosk.vision.glyph_reader import GlyphReader, load_glyph_reader
from kiosk.vision.glyph_weight import GlyphWeigher
from kiosk.vision.index_reader import IndexReader
from kiosk.vision.members import INDEX_MODEL, Members, default_models_dir, model_files
from kiosk.vision.model_input import as_bgr
from kiosk.vision.params import PARAMS
from kiosk.vision.pips import PipReader, load_pip_reader
from kiosk.vision.poster_reader import PosterReader
from kiosk.vision.reading import CardView, DeckReader, Identification, decide
from kiosk.vision.textmatch import TextMatcher

__all__ = [
    "INDEX_MODEL",
    "SMALL_CARD_PX",
    "EnrolledFallback",
    "FaceModelReader",
    "Identifier",
    "TextReader",
    "model_files",
]

log = logging.getLogger(__name__)

#: The card width (pixels) under which the camera is too coarse for the suit signs
#: (:attr:`~kiosk.vision.params.PipParams.small_card_px`), for the camera checks outside the
#: vision package (``kiosk doctor``, the operator menu), with the model files they look for.
SMALL_CARD_PX = PARAMS.pips.small_card_px


class TextReader:
    """Reads a text deck's faces by their printed text (:class:`~kiosk.vision.textmatch.TextMatcher`)."""

    def __init__(self, matcher: TextMatcher) -> None:
        self.matcher = matcher

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]:
        return [self.matcher.identify(as_bgr(f)) for f in faces]

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]:
        return self.identify([c.face for c in cards])


class FaceModelReader:
    """Reads a face deck's faces by their artwork: the deck's model, or where the venue enrolled
    a ``gallery`` of its printed deck, nearest neighbour in it."""

    def __init__(self, members: Members, gallery: Gallery | None) -> None:
        self.members, self.gallery = members, gallery

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]:
        probs, embed = self.members.scores(faces)
        if self.gallery is not None and embed is not None:
            return [self.gallery.identify(e, p[self.members.none]) for e, p in zip(embed, probs, strict=True)]
        r = PARAMS.read
        return [decide(p, self.members.answers, r.min_confidence, r.min_margin) for p in probs]

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]:
        return self.identify([c.face for c in cards])


def settle(model: Identification, verdict: Verdict, suits_told: bool) -> Identification:
    """The answer for a card of an enrolled printing, from the index ``model``'s and the printing
    reader's ``verdict`` (:class:`EnrolledFallback`); ``suits_told``: the printing's index shows
    suits its reader tells apart. The model's answer never stands against the rank the printing's
    corners agree on, named or not; where the suits are not told, it stands only where the card's
    pips count its rank in its suit (:func:`~kiosk.vision.enrolled.pips_count`; the verdict must
    carry them: ``judge(face, pips=True)``)."""
    if verdict.answer is not None:
        return model if verdict.answer.card_id == model.card_id else verdict.answer
    if model.card_id is None:
        return model
    against = verdict.rank is not None and verdict.rank != model.card_id[:-1]
    if against or not suits_told and not pips_count(model.card_id, verdict.pips):
        return Identification(None, model.confidence, None, 0.0, None, model.read_by)
    return model


class EnrolledFallback:
    """An index deck whose printing a venue enrolled: the index model and the enrolled printing's
    reader (:class:`~kiosk.vision.enrolled.EnrolledReader`, which answers only where it is sure)
    both read every card, and the printing's reader has the last word. Its answer stands (a card
    the model refuses or names otherwise). The model's own answer stands only where the printing's
    index shows suits its reader tells apart (:attr:`SuitGlyphs.usable`), or the card's pips count
    its rank in its suit: on a printing without, the model's suit comes from a crop laid out for
    other printings and is its usual mistake. Each card costs the enrolled reader's time on top of
    the model's."""

    def __init__(self, primary: IndexReader | GlyphFallback, enrolled: EnrolledReader) -> None:
        self.primary, self.enrolled = primary, enrolled

    def _fill(self, answers: list[Identification], faces: Sequence[np.ndarray]) -> list[Identification]:
        told = self.enrolled.suit_glyphs.usable
        return [
            settle(a, self.enrolled.judge(f, pips=a.card_id is not None and not told), told)
            for a, f in zip(answers, faces, strict=True)
        ]

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]:
        return self._fill(self.primary.identify(faces), faces)

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]:
        return self._fill(self.primary.identify_cards(cards), [c.face for c in cards])

    def identify_index(self, crops: Sequence[np.ndarray]) -> list[Identification]:
        return self.primary.identify_index(crops)


class Identifier:
    """Identifies faces (and corner crops) of one deck; built once per game, called per frame.
    Its models run on ``num_threads`` each (the kiosk's ``[vision] model_threads``)."""

    def __init__(self, deck_id: str, models_dir: Path | None = None, num_threads: int = 1) -> None:
        self.deck = load_deck(deck_id)
        self.labels: tuple[str, ...] = ()
        self.gallery: Gallery | None = None
        self._pips: PipReader | None = None
        self._members: Members | None = None
        self._reader: DeckReader
        if self.deck.identify_by == "text":  # read without a model
            self._reader = TextReader(TextMatcher(self.deck))
            return
        directory = models_dir or default_models_dir()
        self._members = Members(self.deck, directory, num_threads)
        self.labels, self.input_size = self._members.labels, self._members.input_size
        if self.deck.identify_by == "face":
            self.gallery = self._gallery()
            self._reader = FaceModelReader(self._members, self.gallery)
            return
        self._pips = load_pip_reader(directory, num_threads) if self.deck.pips else None
        glyphs = load_glyph_reader(directory, num_threads) if self.deck.id in PARAMS.glyph_fallback.decks else None
        weigher = None if glyphs is None else GlyphWeigher(self.deck, glyphs, self._members.answers)
        index = IndexReader(self.deck, self._members, self._pips, weigher)
        primary = index if glyphs is None else GlyphFallback(index, glyphs, self._pips)
        enrolled = self._enrolled(directory, glyphs)
        reader: DeckReader = primary if enrolled is None else EnrolledFallback(primary, enrolled)
        self._reader = PosterReader(reader, self.deck) if PosterReader.wraps(self.deck) else reader

    def _enrolled(self, models_dir: Path, glyphs: GlyphReader | None) -> EnrolledReader | None:
        """The reader of the venue's enrolled printing of this deck, if it enrolled one (with the
        pip and glyph models already loaded); one that cannot be read is reported in one line and
        the index model alone answers."""
        try:
            return EnrolledReader.load(self.deck.id, models_dir=models_dir, pips=self._pips, glyphs=glyphs)
        except KioskError as exc:
            log.warning("%s; the index model alone names the cards", exc)
            return None

    def _gallery(self) -> Gallery | None:
        """The venue's enrolled gallery of this deck, if it has one that fits the model: a
        gallery that cannot be used (damaged, or made with another model) is reported in one
        line and the shipped model answers instead."""
        assert self._members is not None
        try:
            found = Gallery.load(self.deck.id)
        except KioskError as exc:
            log.warning("%s; the shipped model names the cards meanwhile", exc)
            return None
        dims = [size for size in self._members.models[0].output_sizes if size != len(self.labels)]
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
        if self._members is None:
            raise KioskError(f"{self.deck.id} is read from its printed text: it has no model scores")
        return self._members.scores(images)

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]:
        """One answer per warped face (FACE_SIZE BGR, either way up)."""
        return self._reader.identify(faces) if faces else []

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]:
        """One answer per found card (an index deck reads only its two corners)."""
        return self._reader.identify_cards(cards) if cards else []

    def identify_index(self, crops: Sequence[np.ndarray]) -> list[Identification]:
        """One answer per upright corner-index crop (from :func:`kiosk.vision.face.index_crops`)."""
        if not crops:
            return []
        if not isinstance(self._reader, IndexReader | GlyphFallback | EnrolledFallback | PosterReader):
            return [Identification(None, 0.0, None, 0.0) for _ in crops]
        return self._reader.identify_index(crops)
