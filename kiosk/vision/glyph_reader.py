"""The glyph reader: a small network that names a located index glyph, whatever the printing.

:func:`kiosk.vision.glyphs.find_index` finds a corner's rank glyph and the glyph that may be its
suit wherever the printing puts them; :func:`glyph_input` normalises each box into a square
patch of ink (:func:`~kiosk.vision.glyphs.glyph_patch`, scaled to its darkest ink), so size,
place, colour and light drop out. ``glyphs.tflite`` (``kiosk train --glyphs``, models/MODEL.md)
reads each patch with two heads: its rank (:data:`RANK_LABELS`, ``none`` for anything that is not
a whole rank) and its suit (:data:`SUIT_LABELS`); the reader takes the rank patch's rank and the
suit patch's suit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kiosk.decks import RANKS, SUITS
from kiosk.vision.glyphs import Box, CornerIndex, glyph_patch
from kiosk.vision.params import PARAMS
from kiosk.vision.runtime import TfliteModel, optional_model

#: Side of the square patch a glyph is read from (face pixels at the common size)
GLYPH_SIDE = 32
NONE = "none"
RANK_LABELS: tuple[str, ...] = (*RANKS, NONE)
SUIT_LABELS: tuple[str, ...] = (*SUITS, NONE)
MODEL_FILE = "glyphs.tflite"
P = PARAMS.glyph_reader
#: The ink level a patch's darkest pixel is scaled to at least: a patch of paper stays pale
MIN_PEAK = 0.1


def glyph_input(ink_map: np.ndarray, box: Box | None) -> np.ndarray:
    """The network's input for the glyph at ``box`` of ``ink_map`` (GLYPH_SIDE x GLYPH_SIDE x 1
    float32, 0 paper to 1 the patch's darkest ink); zeros where there is no box."""
    if box is None:
        return np.zeros((GLYPH_SIDE, GLYPH_SIDE, 1), np.float32)
    patch = glyph_patch(ink_map, box, GLYPH_SIDE)
    return (patch / max(float(patch.max()), MIN_PEAK))[:, :, None].astype(np.float32)


@dataclass(frozen=True)
class GlyphReading:
    """What one corner's glyphs read: the rank patch's rank probabilities (RANK_LABELS order)
    and the suit patch's suit probabilities (SUIT_LABELS order; all ``none`` where no suit glyph
    was located: the rank patch's suit head reads a suit printed against a big rank unsurely)."""

    ranks: np.ndarray
    suits: np.ndarray

    @property
    def rank(self) -> str:
        """The likeliest rank label (``none`` included)."""
        return RANK_LABELS[int(self.ranks.argmax())]

    def sure_rank(self, floor: float) -> str | None:
        """The rank read with probability ``floor`` or more, else None (``none`` is no rank)."""
        best = int(self.ranks.argmax())
        return RANK_LABELS[best] if best < len(RANKS) and self.ranks[best] >= floor else None

    def sure_suit(self, floor: float) -> str | None:
        """The suit read with probability ``floor`` or more, else None."""
        best = int(self.suits.argmax())
        return SUIT_LABELS[best] if best < len(SUITS) and self.suits[best] >= floor else None


class GlyphReader:
    """Runs ``glyphs.tflite`` on the located glyphs of a card's corners."""

    def __init__(self, path: Path, num_threads: int = 1) -> None:
        self._model = TfliteModel(path, num_threads)

    def probs(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rank (n x 14) and suit (n x 5) probabilities of ``patches`` (:func:`glyph_input`)."""
        out = self._model.run(patches)[0]
        return out[:, : len(RANK_LABELS)], out[:, len(RANK_LABELS) :]

    def read(self, indices: list[CornerIndex]) -> list[GlyphReading]:
        """One reading per found corner index, all in one run of the network."""
        if not indices:
            return []
        patches = np.stack([glyph_input(i.ink, box) for i in indices for box in (i.rank, i.suit)])
        ranks, suits = self.probs(patches)
        unread = np.eye(len(SUIT_LABELS), dtype=np.float32)[-1]  # no suit glyph located: none
        return [
            GlyphReading(ranks[2 * k], suits[2 * k + 1] if index.suit is not None else unread)
            for k, index in enumerate(indices)
        ]


def load_glyph_reader(directory: Path, num_threads: int = 1) -> GlyphReader | None:
    """The shipped glyph model, or None where there is none or no TFLite runtime."""
    return optional_model(GlyphReader, directory / MODEL_FILE, num_threads)


@dataclass(frozen=True)
class GlyphVote:
    """What the sure readings (:data:`PARAMS.glyph_reader`) of a card's counted corners say: the
    one rank and the one suit they agree on (None: no corner sure), and whether they say two."""

    rank: str | None = None
    suit: str | None = None
    split: bool = False


def vote(readings: list[GlyphReading]) -> GlyphVote:
    """The glyph reader's say on one card from its corners' ``readings``."""
    ranks = {r for g in readings if (r := g.sure_rank(P.sure_glyph_rank)) is not None}
    suits = {s for g in readings if (s := g.sure_suit(P.sure_glyph_suit)) is not None}
    return GlyphVote(_one(ranks), _one(suits), len(ranks) > 1 or len(suits) > 1)


def _one(said: set[str]) -> str | None:
    return next(iter(said)) if len(said) == 1 else None


def second_look(
    readings: list[GlyphReading], looks: list[tuple[str, float]], floor: float
) -> tuple[list[int], GlyphVote]:
    """The corners that count and what the glyph reader says of them. A corner counts where the
    enrolled reader's best rank for it (``looks``: rank and score) scores ``floor`` or more; where
    some counted corner's glyph reading surely reads its enrolled rank too, a corner whose glyph
    surely reads another rank does not count (a 6 read as a turned 9, a corner under another
    card). No ``readings`` (no glyph model): the enrolled reader alone decides."""
    counted = [k for k, (_, score) in enumerate(looks) if score >= floor]
    if not readings:
        return counted, GlyphVote()
    sure = [g.sure_rank(P.sure_glyph_rank) for g in readings]
    if any(sure[k] == looks[k][0] for k in counted):
        counted = [k for k in counted if sure[k] in (None, looks[k][0])]
    return counted, vote([readings[k] for k in counted])
