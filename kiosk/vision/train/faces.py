"""Samples for a face deck's artwork model (kakkerlakken-64, math-pairs).

A face deck's cards are drawn by the kiosk's renderer, either way up, through the detector's
slack and a camera's light. "none" holds what is not a card of this deck: clutter, card backs,
and standard faces (someone shows a normal card during a Cockroach Poker game).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from kiosk.decks import RANKS, SUITS, Card, Deck, load_deck
from kiosk.render.faces import face_styles, render_face
from kiosk.vision.face import FACE_SIZE
from kiosk.vision.members import NONE_LABEL
from kiosk.vision.train.augment import detector_view, photometric
from kiosk.vision.train.negatives import synth_negative, table_texture
from kiosk.vision.train.synth import synth_face

FACE_INPUT: tuple[int, int] = (64, 90)  # w, h: the face at 1/3 scale keeps math digits legible


def face_labels(deck: Deck) -> tuple[str, ...]:
    """Species keys (cards of one species share the artwork) or card ids, then ``none``."""
    keys = tuple(deck.species) if deck.species else deck.ids
    return (*keys, NONE_LABEL)


@cache
def _cards(deck_id: str, label: str) -> tuple[Card, ...]:
    deck = load_deck(deck_id)
    return tuple(c for c in deck if (c.species or c.id) == label)


def _render(card: Card, rng: np.random.Generator) -> np.ndarray:
    styles = face_styles(card.deck)
    face = np.asarray(render_face(card, styles[int(rng.integers(len(styles)))], FACE_SIZE[0]))
    return cv2.cvtColor(face, cv2.COLOR_RGB2BGR)


def _not_this_deck(rng: np.random.Generator) -> np.ndarray:
    kind = rng.random()
    if kind < 0.5:
        return cv2.cvtColor(synth_negative(rng), cv2.COLOR_RGB2BGR)
    if kind < 0.8:
        rank, suit = RANKS[int(rng.integers(len(RANKS)))], SUITS[int(rng.integers(len(SUITS)))]
        return cv2.cvtColor(synth_face(rng, rank, suit), cv2.COLOR_RGB2BGR)
    deck = load_deck("standard-52" if rng.random() < 0.5 else "affiche-belge")
    return _render(deck.cards[int(rng.integers(len(deck)))], rng)


def face_sample(deck_id: str, rng: np.random.Generator, label: str) -> np.ndarray:
    """One camera-like warped face (BGR, FACE_SIZE) of ``label`` in ``deck_id``."""
    if label == NONE_LABEL:
        face = _not_this_deck(rng)
    else:
        cards = _cards(deck_id, label)
        face = _render(cards[int(rng.integers(len(cards)))], rng)
    if rng.random() < 0.5:
        face = np.ascontiguousarray(face[::-1, ::-1])
    table = cv2.cvtColor(table_texture(rng, (64, 64)), cv2.COLOR_RGB2BGR)
    return photometric(detector_view(face, rng, table), rng)
