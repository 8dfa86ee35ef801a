"""Enrolment mode: the operator teaches the kiosk a venue's own printing of an index deck by
showing each card once to the camera, in the deck's order.

Camera frames in, :class:`EnrolmentState` out. The card asked for is taken from the first frame
in which exactly one card (:func:`kiosk.vision.teaching.shown_cards`) lies still on the table
(its corners moved under
:data:`STILL_SHARE` of its short side since the frame before), and taught through
:class:`kiosk.vision.teaching.Teaching`, the path ``kiosk enroll`` teaches photos through. The
next card is looked for once the table has shown no card for :data:`CLEAR_FRAMES` frames (no
outline with an index, none where the card taught lay), so a card left lying is never taught
twice; what still lies on the cleared table (a blank sheet, a pale patch outlined as a quad) is
then never taken for the next card. The operator may skip a card (it is asked again after the
others) or have the last one shown again. What is taught stays in memory until every card of the
deck is: the gallery is then saved to the state directory, replacing any earlier one; stopping
before that keeps nothing. Frames are only looked at, never stored.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from kiosk.decks import deck_ids, load_deck
from kiosk.errors import KioskError
from kiosk.vision.enrolled import card_rows, missing_cards
from kiosk.vision.gallery import Gallery, GalleryError
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.teaching import Teaching, indexed, shown_cards

if TYPE_CHECKING:
    from kiosk.vision.detect import Detection, Detector
    from kiosk.vision.pips import PipReader

log = logging.getLogger(__name__)

#: A card lies still where no corner moved more than this share of its short side between two
#: frames looked at.
STILL_SHARE = 0.04
#: Frames without a card (:meth:`EnrolmentMode._cards_left`) that tell the card taught was taken away.
CLEAR_FRAMES = 2
#: An outline overlapping the card taught last by this much (IoU) is that card, still lying there.
TAUGHT_PLACE_IOU = 0.3
#: An outline overlapping one seen on the cleared table by this much (IoU) is that thing again.
FURNITURE_IOU = 0.7

#: Why the last frame looked at taught nothing: no card, several, one that moved since the frame
#: before; "" while none was refused.
Refusal = Literal["", "no_card", "several_cards", "moving"]


def teachable_decks(own: str) -> tuple[str, ...]:
    """The decks whose printing a venue can teach: those read by their corner index, but ``own``,
    the kiosk's own deck (its printing is the one the index model was trained on)."""
    return tuple(d for d in deck_ids() if d != own and load_deck(d).identify_by == "index")


@dataclass(frozen=True)
class Enrolled:
    """What is enrolled of ``deck_id`` now: ``cards`` of its ``total`` (0 where nothing is), or
    why its gallery cannot be used (``error``, one line naming the file; ``earlier``: it was kept
    by an earlier version of the kiosk, which kept other things of a card)."""

    deck_id: str
    cards: int
    total: int
    error: str = ""
    earlier: bool = False

    @property
    def complete(self) -> bool:
        return not self.error and self.cards == self.total


def enrolled(deck_id: str, directory: Path | None = None) -> Enrolled:
    """How much of ``deck_id`` is enrolled in ``directory`` (the state directory by default); a
    gallery the reader cannot read (damaged, or kept by an earlier version) is an error."""
    total = len(load_deck(deck_id))
    try:
        gallery = Gallery.load(deck_id, directory)
    except KioskError as exc:
        return Enrolled(deck_id, 0, total, str(exc))
    try:
        if gallery is not None:
            card_rows(gallery)
    except GalleryError as exc:
        return Enrolled(deck_id, 0, total, str(exc), earlier=True)
    return Enrolled(deck_id, 0 if gallery is None else total - len(missing_cards(gallery)), total)


@dataclass(frozen=True)
class EnrolmentState:
    """What the teach screen shows.

    ``asked``: the card to show now (None once every card is taught); ``taught`` of ``total``
    cards are; ``last``: the card taught last (the one "again" asks for); ``refusal``: why the
    last frame looked at taught nothing; ``take_away``: the card taught last still lies there, and
    the next is looked for once it is gone; ``saved``: the gallery file, once the deck is complete
    and saved; ``error``: why saving it failed (what was taught is kept: saving can be tried again).
    """

    deck_id: str
    asked: str | None
    taught: int
    total: int
    last: str | None = None
    refusal: Refusal = ""
    take_away: bool = False
    saved: Path | None = None
    error: str = ""

    @property
    def done(self) -> bool:
        return self.asked is None


class EnrolmentMode:
    """Teaches ``deck_id`` from camera frames (:meth:`on_frame`) with ``detector`` (one for the
    thread that calls it) and the pip reader ``pips`` (else the shipped one); the complete gallery
    goes to ``directory`` (else the state directory, where the kiosk's readers find it). Frames may
    be looked at on a worker thread while the screen's buttons act: each call holds a lock."""

    def __init__(
        self,
        deck_id: str,
        detector: Detector,
        pips: PipReader | None = None,
        directory: Path | None = None,
    ) -> None:
        deck = load_deck(deck_id)
        if deck.identify_by != "index":
            raise KioskError(f"{deck_id} is read by its {deck.identify_by}, not its corner index: it is not taught")
        self.deck_id = deck_id
        self.detector = detector
        self.directory = directory
        self.teaching = Teaching(deck_id, pips)
        self._total = len(deck)
        self._queue = list(deck.ids)  # the cards still to teach, the one asked first
        self._taught: list[str] = []  # in the order taught: "again" undoes the last
        self._before: np.ndarray | None = None  # the lone card's corners in the frame before
        self._empty = 0  # frames without a card since the last card taught
        self._taught_at: np.ndarray | None = None  # the corners of the card taught last
        self._furniture: list[np.ndarray] = []  # outlines on the table when it last showed no card
        self._take_away = False
        self._refusal: Refusal = ""
        self._saved: Path | None = None
        self._error = ""
        self._lock = threading.RLock()

    @property
    def state(self) -> EnrolmentState:
        return EnrolmentState(
            self.deck_id,
            self._queue[0] if self._queue else None,
            len(self._taught),
            self._total,
            self._taught[-1] if self._taught else None,
            self._refusal,
            self._take_away,
            self._saved,
            self._error,
        )

    def on_frame(self, frame: np.ndarray) -> EnrolmentState:
        """Look at one camera frame: teach the card asked for where it lies alone and still."""
        with self._lock:
            return self._look(frame)

    def _look(self, frame: np.ndarray) -> EnrolmentState:
        if not self._queue:
            return self.state
        outlines = self.detector.detect(frame)
        if self._take_away:
            left = self._cards_left(outlines)
            self._empty = 0 if left else self._empty + 1
            self._take_away = self._empty < CLEAR_FRAMES
            self._furniture = [] if left else [d.corners for d in outlines]
            return self.state
        found = shown_cards([d for d in outlines if not self._furniture_at(d.corners)])
        before, self._before = self._before, found[0].corners if len(found) == 1 else None
        if len(found) != 1:
            self._refusal = "several_cards" if found else "no_card"
        elif before is None or not _still(before, found[0].corners):
            self._refusal = "moving" if before is not None else ""
        else:
            self._taught_at = found[0].corners
            self._teach(found[0].face)
        return self.state

    def _cards_left(self, outlines: list[Detection]) -> bool:
        """Whether a card still lies on the table after one was taught: an outline with an index,
        or any outline where the card taught lay (a card whose index is not found). A blank sheet
        elsewhere on the table does not hold the next card back."""
        place = self._taught_at
        at_place = place is not None and any(polygon_iou(d.corners, place) > TAUGHT_PLACE_IOU for d in outlines)
        return at_place or bool(indexed(outlines))  # the index search warps each face: last

    def _furniture_at(self, corners: np.ndarray) -> bool:
        """Whether ``corners`` outline what lay on the table when it last showed no card (a blank
        sheet, a pale patch of the table): no card to teach."""
        return any(polygon_iou(corners, f) > FURNITURE_IOU for f in self._furniture)

    def _teach(self, face: np.ndarray) -> None:
        card_id = self._queue.pop(0)
        self.teaching.teach(card_id, face)
        self._taught.append(card_id)
        self._refusal, self._take_away, self._empty, self._before = "", True, 0, None
        if not self._queue:
            self.save()

    def skip(self) -> EnrolmentState:
        """Ask for the card asked now after the others."""
        with self._lock:
            if len(self._queue) > 1:
                self._queue.append(self._queue.pop(0))
            return self.state

    def again(self) -> EnrolmentState:
        """Forget the card taught last and ask for it now (a wrong card was shown, or it moved)."""
        with self._lock:
            if self._taught:
                card_id = self._taught.pop()
                del self.teaching.rows[card_id]
                self._queue.insert(0, card_id)
                self._saved, self._error, self._before = None, "", None
            return self.state

    def save(self) -> EnrolmentState:
        """Save the complete deck's gallery; a failure is kept in ``error`` and nothing is lost."""
        with self._lock:
            if self._queue:
                raise KioskError(
                    f"{self.deck_id}: {len(self._queue)} cards are still to teach; the deck is saved whole"
                )
            try:
                self._saved, self._error = self.teaching.gallery().save(self.directory), ""
            except (OSError, KioskError) as exc:
                log.warning("the taught %s could not be saved: %s", self.deck_id, exc)
                self._error = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return self.state


def _still(before: np.ndarray, now: np.ndarray) -> bool:
    """Whether a card's corners ``now`` are where they were ``before`` (in either corner order a
    detector may start from), within :data:`STILL_SHARE` of its short side."""
    side = float(min(np.linalg.norm(now[1] - now[0]), np.linalg.norm(now[3] - now[0])))
    moved = min(float(np.linalg.norm(np.roll(before, k, axis=0) - now, axis=1).max()) for k in range(4))
    return moved <= STILL_SHARE * side
