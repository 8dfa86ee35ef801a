"""The kiosk's own poster deck read by its art as well as its index.

The L'Affiche Belge deck is printed from the kiosk's art, so each poster's look is known
(:class:`~kiosk.vision.art.ArtMatcher`). Two things the corner index cannot do are done by it:

* the two Manneken-Pis print one index (``JK``), and the index model answers the deck's first
  joker for both (:func:`kiosk.vision.members.deck_answer`); a card it names a joker is named by
  its poster (a costume; a stone niche), or refused where neither leads clearly, so the other
  Manneken-Pis is never shown;
* a card whose index the model cannot read surely (a blurred or small index) but whose suit it
  guesses, or reads from one corner only, is named by its poster among that suit's cards where
  the poster matches well and clearly better than the suit's other posters: the index's rank is
  the model's usual doubt, the poster is the card's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cached_property

import numpy as np

from kiosk.decks import Card, Deck
from kiosk.vision.art import ArtMatcher
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import CardView, DeckReader, Identification


def twin_cards(deck: Deck) -> tuple[Card, ...]:
    """The cards of ``deck`` its index model cannot tell apart: its jokers, when it has more than
    one (they share the model's joker label)."""
    jokers = tuple(c for c in deck if c.kind == "joker")
    return jokers if len(jokers) > 1 else ()


class PosterReader:
    """``primary`` reads the cards of ``deck`` (a deck the kiosk prints, ``art.decks``); a card it
    names a twin (:func:`twin_cards`), reads from one corner at most, or refuses with a guess of a
    suit, is settled by its art."""

    def __init__(self, primary: DeckReader, deck: Deck) -> None:
        self.primary, self.deck = primary, deck
        self.twins = tuple(c.id for c in twin_cards(deck))
        self.suits = {s: tuple(c.id for c in deck if c.suit == s) for s in {c.suit for c in deck if c.suit}}

    @cached_property
    def matcher(self) -> ArtMatcher:
        """The deck's art, rendered on first use (in the vision worker, not while a game starts:
        54 posters take about 0.4 s on the development machine), as most frames never need it."""
        return ArtMatcher(list(self.deck))

    @classmethod
    def wraps(cls, deck: Deck) -> bool:
        """Whether ``deck``'s cards are read by their art too."""
        return deck.id in PARAMS.art.decks

    def settle(self, answer: Identification, face: np.ndarray) -> Identification:
        """``answer`` for the card whose warped face is ``face``, with its art's word."""
        p = PARAMS.art
        if answer.card_id in self.twins:
            best, score, lead = self.matcher.best(face, self.twins)
            told = best if score >= p.twin_score and lead >= p.twin_lead else None
            return replace(answer, card_id=told, guess=told or answer.card_id)
        if answer.card_id is None:
            guess = answer.guess if answer.confidence >= p.min_guess else None
        else:  # a name read from one corner at most: its other corner covered, glared or cut off
            guess = answer.card_id if (answer.corners or 0) <= 1 else None
        suit = self.deck[guess].suit if guess is not None and guess in self.deck else None
        if suit is None:
            return answer
        best, score, lead = self.matcher.best(face, self.suits[suit])
        if best != answer.card_id and score >= p.suit_score and lead >= p.suit_lead:
            # named by its art, which passed its own bar: the art's correlation is its confidence
            return Identification(best, score, None, score, best, answer.read_by)
        return answer

    def _settled(
        self, answers: list[Identification], face_of: Callable[[int], np.ndarray] | None
    ) -> list[Identification]:
        """``answers`` settled by each card's face (``face_of(k)``, the k-th card's); with no faces
        (corner crops alone) a twin is refused and a refusal stays."""
        out = []
        for k, a in enumerate(answers):
            if face_of is not None and (a.card_id in self.twins or (a.corners or 0) <= 1):
                a = self.settle(a, face_of(k))
            elif a.card_id in self.twins:
                a = replace(a, card_id=None, guess=a.card_id)
            out.append(a)
        return out

    def identify(self, faces: Sequence[np.ndarray]) -> list[Identification]:
        return self._settled(self.primary.identify(faces), lambda k: faces[k])

    def identify_cards(self, cards: Sequence[CardView]) -> list[Identification]:
        return self._settled(self.primary.identify_cards(cards), lambda k: cards[k].face)

    def identify_index(self, crops: Sequence[np.ndarray]) -> list[Identification]:
        """A corner crop shows only the index: a twin is refused."""
        return self._settled(self.primary.identify_index(crops), None)  # type: ignore[attr-defined]
