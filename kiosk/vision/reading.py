"""What a reader answers, and the interfaces between the stages that read cards: a found card
as a reader sees it (:class:`CardView`), a reader of one deck kind (:class:`DeckReader`: index,
face or text), what naming needs of the identifier (:class:`CardReader`), and the decision of
an answer from a row of class probabilities."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from kiosk.vision.detect import Detection


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


class CardView(Protocol):
    """What a reader reads of a found card (:class:`kiosk.vision.detect.Detection`): its face, its
    two corner indices, the frame round it, and whether its outline was completed from a part."""

    @property
    def face(self) -> np.ndarray: ...

    @property
    def partial(self) -> bool: ...

    def index_corners(self) -> tuple[np.ndarray, np.ndarray]: ...

    def around(self) -> tuple[np.ndarray, np.ndarray]: ...


class CardReader(Protocol):
    """Names found cards, one answer per card, in order: what naming needs of the identifier of
    a deck (:class:`kiosk.vision.identify.Identifier`), or in tests and benchmarks of an oracle
    that names cards from the truth."""

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]: ...


class DeckReader(Protocol):
    """A reader of one deck kind (index, face, text): names warped faces (FACE_SIZE BGR, either
    way up) and found cards, one answer each, in order."""

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]: ...

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]: ...


def decide(scores: np.ndarray, answers: Sequence[str | None], min_conf: float, min_margin: float) -> Identification:
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
