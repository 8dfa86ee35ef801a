"""Teaching the kiosk a venue's printing of a standard deck: from one rectified face per card
to the gallery rows its reader (:mod:`kiosk.vision.enrolled`) names cards by.

``kiosk enroll --deck standard-52 DIR`` (:func:`enrol_photos`) finds the one card in each
ordinary photo with the kiosk's detector; the operator menu's camera
(:mod:`kiosk.modes.enrolment`) takes each card from the first still frame that shows exactly one.
Both teach through :class:`Teaching`: per card, :func:`describe` keeps its corners' index ink
(:func:`kiosk.vision.glyphs.find_index`), how far the index reaches, its redness, what the pip
model reads on the face and its suit signs (:mod:`kiosk.vision.suit_spots`), :data:`ROWS` gallery
rows (:mod:`kiosk.vision.gallery`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kiosk.decks import load_deck
from kiosk.errors import KioskError
from kiosk.vision.enrolled import (
    FACTS,
    MAX_SIGNS,
    PATCHES_AT,
    PIP_RANKS,
    ROW_DIM,
    ROWS,
    SIGN_ROWS,
    SIGNS_PER_ROW,
    WINDOW,
    card_rows,
    index_window,
    load_pips,
)
from kiosk.vision.face import face_corners
from kiosk.vision.gallery import Gallery, GalleryError, as_face
from kiosk.vision.glyphs import found_indices
from kiosk.vision.pips import PIP_LABELS, PipReader, PipReading
from kiosk.vision.stills import read_image
from kiosk.vision.suit_glyphs import SUIT_DIM, suit_patch
from kiosk.vision.suit_spots import SIGN_DIM, face_signs, pip_signs

if TYPE_CHECKING:
    from kiosk.vision.detect import Detection, Detector

log = logging.getLogger(__name__)


class PhotoRefused(KioskError):
    """An enrolment photo that cannot teach its card; the message names the file and why."""


def describe(face: np.ndarray, pips: PipReading | None, marks: np.ndarray | None = None) -> np.ndarray:
    """What identifies a rectified card of a printing (ROWS x ROW_DIM float32): the index window
    of each corner and its facts (:data:`FACTS`), with ``pips``, the pip model's reading of it,
    each corner's suit glyph and the card's suit ``marks`` (up to :data:`MAX_SIGNS` of
    :func:`face_signs` or :func:`pip_signs`)."""
    rows = np.zeros((ROWS, ROW_DIM), np.float32)
    found = found_indices(as_face(face))
    reach, redness = [], []
    for k, index in found:
        rows[k] = index_window(index, WINDOW, 0).ravel()
        rows[2, PATCHES_AT + k * SUIT_DIM : PATCHES_AT + (k + 1) * SUIT_DIM] = suit_patch(index)
        reach.append(index.reach)
        redness.append(index.redness)
    w, h = np.max(reach, axis=0) if reach else (0, 0)
    suit = -1 if pips is None else PIP_LABELS.index(pips.suit)
    count, confidence = (0, 0.0) if pips is None else (pips.count, pips.confidence)
    places = {k for k, _ in found}
    facts = [0 in places, 1 in places, w, h, np.mean(redness) if redness else 0.0]
    rows[2, : len(FACTS)] = [*facts, count, suit, confidence]
    if marks is not None:
        kept = np.zeros((MAX_SIGNS, SIGN_DIM), np.float32)
        kept[: len(marks)] = marks[:MAX_SIGNS]
        rows[SIGN_ROWS, : SIGNS_PER_ROW * SIGN_DIM] = kept.reshape(ROWS - 3, -1)
    return rows


def as_gallery(deck_id: str, descriptors: dict[str, np.ndarray]) -> Gallery:
    """The gallery of ``descriptors`` (card id: :func:`describe`), in deck order, ROWS rows per card."""
    order = [c for c in load_deck(deck_id).ids if c in descriptors]
    rows = np.stack([descriptors[c] for c in order]).reshape(len(order) * ROWS, ROW_DIM)
    return Gallery(deck_id, tuple(c for c in order for _ in range(ROWS)), rows.astype(np.float32))


def indexed(found: Sequence[Detection]) -> list[Detection]:
    """The outlines of ``found`` with an index in a corner: cards lying face up (a pale patch of
    the table or a blank sheet outlined as a quad has none)."""
    return [d for d in found if found_indices(d.face)]


def shown_cards(found: Sequence[Detection]) -> list[Detection]:
    """The outlines of ``found`` that show a card: :func:`indexed` where any is, so that a blank
    sheet beside the card does not make it two; all of them where none is (a printing whose
    index is not found on some cards is still taught, from the rest of the face)."""
    return indexed(found) or list(found)


def photo_face(image: np.ndarray, detector: Detector, name: str) -> np.ndarray:
    """The rectified face of the one card in the photo ``image`` (:func:`shown_cards`);
    :class:`PhotoRefused` naming ``name`` where it shows no card or several."""
    found = shown_cards(detector.detect(image))
    if len(found) != 1:
        what = "no card" if not found else f"{len(found)} cards"
        raise PhotoRefused(f"{name}: {what} found; show one card, whole, on the table")
    return found[0].face


class Teaching:
    """The cards of a printing taught so far, one rectified face each: the one way a card is taught,
    from a photo (:func:`enrol_photos`) or from the camera (:mod:`kiosk.modes.enrolment`)."""

    def __init__(self, deck_id: str, pips: PipReader | None = None, previous: Gallery | None = None) -> None:
        self.deck_id = deck_id
        self.pips = pips or load_pips(None)
        #: card id -> its rows (:func:`describe`); the cards of ``previous`` until taught again
        #: (none of a gallery this kiosk cannot read, one kept by an earlier version: said once)
        self.rows: dict[str, np.ndarray] = {}
        if previous is not None:
            try:
                self.rows.update(card_rows(previous))
            except GalleryError as exc:
                log.warning("%s; it is taught afresh", exc)

    def teach(self, card_id: str, face: np.ndarray) -> None:
        """Keep what identifies ``card_id`` in its rectified ``face``: :func:`describe` with the pip
        model's reading of it and its signs: a number card's pips (:func:`pip_signs`), a court's
        every sign (:func:`face_signs`)."""
        pips = self.pips
        reading = None if pips is None else pips.read([(face, face_corners(face))])[0]
        found: np.ndarray | None = None
        if card_id[:-1] not in PIP_RANKS:
            found = face_signs(face, MAX_SIGNS)
        elif pips is not None:
            found = pip_signs(face, card_id[-1], pips, MAX_SIGNS)
        self.rows[card_id] = describe(face, reading, found)

    def gallery(self) -> Gallery:
        """The gallery of the cards taught, in deck order (:func:`as_gallery`)."""
        return as_gallery(self.deck_id, self.rows)


@dataclass
class Enrolment:
    """What an enrolment kept (the merged gallery, the cards it taught) and refused (one line each)."""

    gallery: Gallery
    taught: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def enrol_photos(
    deck_id: str,
    photos: Iterable[tuple[str, str, Path | np.ndarray]],
    detector: Detector,
    previous: Gallery | None = None,
    pips: PipReader | None = None,
) -> Enrolment:
    """Teach ``deck_id`` from ``photos`` (name, card id, image file or BGR photo), one card each,
    with the pip reader ``pips`` (else the shipped one); the cards of ``previous`` that were not
    taught again are kept. A photo that cannot be read or shows no card or several is reported
    and skipped."""
    teaching = Teaching(deck_id, pips, previous)
    taught, refused = [], []
    for name, card_id, image in photos:
        try:
            bgr = read_image(image) if isinstance(image, Path) else image
            teaching.teach(card_id, photo_face(bgr, detector, name))
            taught.append(card_id)
        except KioskError as exc:  # PhotoRefused, or an ImageError naming the file
            refused.append(str(exc))
    if not teaching.rows:
        raise KioskError(f"no photo taught a card of {deck_id}: " + "; ".join(refused))
    return Enrolment(teaching.gallery(), taught, refused)
