"""Cards that print the same corner index, told apart by their artwork.

The L'Affiche Belge deck's two Manneken-Pis print one index (``JK``): the index model answers the
deck's first joker for both (:func:`kiosk.vision.members.deck_answer`). Their posters differ (a
costume; a stone niche), and the deck is printed from the kiosk's own art, so each twin's look is
known: the middle of the warped face, in grey, blurred and shrunk to a small grid, is compared by
normalised correlation with the same cut of each twin's rendered face, the face either way up.
An answer needs a good match and a clear lead over the other twin; otherwise the card is refused
(the model's answer kept as its ``guess``), so the wrong twin's stamp is never printed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from kiosk.decks import Card, Deck
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.model_input import as_bgr
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import CardView, DeckReader, Identification


def twin_cards(deck: Deck) -> tuple[Card, ...]:
    """The cards of ``deck`` its index model cannot tell apart: its jokers, when it has more than
    one (they share the model's joker label)."""
    jokers = tuple(c for c in deck if c.kind == "joker")
    return jokers if len(jokers) > 1 else ()


def art_vector(face: np.ndarray) -> np.ndarray:
    """The unit vector of the middle of a warped face (FACE_SIZE, BGR or grey) on
    :attr:`~kiosk.vision.params.TwinParams.grid`: grey, blurred so that an outline a few pixels
    off still matches, mean removed."""
    p = PARAMS.twins
    h, w = face.shape[:2]
    x0, y0, x1, y1 = p.art
    grey = face if face.ndim == 2 else cv2.cvtColor(as_bgr(face), cv2.COLOR_BGR2GRAY)
    crop = grey[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w)].astype(np.float32)
    v = cv2.resize(cv2.GaussianBlur(crop, (0, 0), p.blur * w), p.grid, interpolation=cv2.INTER_AREA).ravel()
    v -= v.mean()
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 1e-6 else v


class TwinArt:
    """Each twin's art vectors (the face upright and turned 180 degrees), from the renderer."""

    def __init__(self, cards: Sequence[Card]) -> None:
        from kiosk.render.faces import render_face  # the renderer is needed only for such decks

        self.ids = tuple(c.id for c in cards)
        refs = []
        for card in cards:
            face = cv2.cvtColor(np.asarray(render_face(card, width=FACE_SIZE[0] * 2)), cv2.COLOR_RGB2GRAY)
            face = cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)
            refs.append((art_vector(face), art_vector(cv2.rotate(face, cv2.ROTATE_180))))
        self.refs = refs

    def scores(self, face: np.ndarray) -> np.ndarray:
        """Per twin, the best correlation of ``face`` with its art either way up."""
        v = art_vector(face)
        return np.array([max(float(v @ up), float(v @ down)) for up, down in self.refs])

    def tell(self, face: np.ndarray) -> str | None:
        """The twin ``face`` shows, or None where no twin matches clearly better than the others."""
        p = PARAMS.twins
        s = self.scores(face)
        order = np.argsort(s)[::-1]
        best, second = float(s[order[0]]), float(s[order[1]])
        return self.ids[order[0]] if best >= p.min_score and best - second >= p.min_lead else None


class TwinReader:
    """An index deck with twins (:func:`twin_cards`): ``primary`` reads the cards; a card it names
    as one of the twins is named by its art (:class:`TwinArt`), or refused."""

    def __init__(self, primary: DeckReader, twins: TwinArt) -> None:
        self.primary, self.twins = primary, twins

    def _tell(self, answers: list[Identification], face_of: Callable[[int], np.ndarray] | None) -> list[Identification]:
        """``answers`` with each twin named by the art of its face (``face_of(k)``, the k-th card's),
        or refused; with no faces (corner crops alone), every twin refused."""
        out = []
        for k, a in enumerate(answers):
            if a.card_id in self.twins.ids:
                told = None if face_of is None else self.twins.tell(face_of(k))
                a = replace(a, card_id=told, guess=told or a.card_id)
            out.append(a)
        return out

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]:
        return self._tell(self.primary.identify(faces), lambda k: faces[k])

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]:
        return self._tell(self.primary.identify_cards(cards), lambda k: cards[k].face)

    def identify_index(self, crops: Sequence[np.ndarray]) -> list[Identification]:
        """A corner crop shows only the index the twins share: a twin is refused."""
        return self._tell(self.primary.identify_index(crops), None)  # type: ignore[attr-defined]
