"""A reading model's files and its members: a model may ship as several members, trained by one
recipe with other seeds (``index.tflite``, ``index.2.tflite``, ...), whose probabilities are
averaged. Runs of one recipe misread different real indices, and a wrong answer that one run
learnt is seldom as sure in another: two members name fewer cards wrongly than either alone
(``models/MODEL.md``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kiosk.decks import Deck
from kiosk.errors import KioskError
from kiosk.vision.model_input import prepare
from kiosk.vision.runtime import TfliteModel

NONE_LABEL = "none"
JOKER_LABEL = "JK"
INDEX_MODEL = "index"


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


class Members:
    """The members of the model that reads ``deck`` (:func:`model_name`) in ``directory``, each
    run on ``num_threads``: their labels, their input size (w, h), the deck's answer per label
    (:func:`deck_answer`) and the index of the ``none`` class."""

    def __init__(self, deck: Deck, directory: Path, num_threads: int = 1) -> None:
        name = model_name(deck)
        self.models = [TfliteModel(path, num_threads) for path in model_files(directory, name)]
        self.labels = read_labels(directory / f"{name}.labels.txt")
        first = self.models[0]
        for member in self.models[1:]:
            if (member.input_shape, member.output_sizes) != (first.input_shape, first.output_sizes):
                raise KioskError(
                    f"{member.path}: not a member of {first.path} (input {member.input_shape}, "
                    f"outputs {member.output_sizes}; expected {first.input_shape}, "
                    f"{first.output_sizes})"
                )
        h, w = first.input_shape[:2]
        self.input_size = (w, h)
        self.answers = [deck_answer(deck, lab) for lab in self.labels]
        self.none = self.labels.index(NONE_LABEL)

    def scores(self, images: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
        """Class probabilities ``(n, labels)``, the mean of the members', and, for face models,
        the first member's embeddings ``(n, d)`` (what a gallery was enrolled with)."""
        batch = prepare(images, self.input_size)
        runs = [model.run(batch) for model in self.models]
        probs = np.mean([self.class_probs(out) for out in runs], axis=0)
        embed = next((o for o in runs[0] if o.shape[-1] != len(self.labels)), None)
        return probs, embed

    def class_probs(self, outputs: list[np.ndarray]) -> np.ndarray:
        """The class probabilities among one member's ``outputs``."""
        return next(o for o in outputs if o.shape[-1] == len(self.labels))
