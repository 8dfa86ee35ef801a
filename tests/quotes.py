"""The rule texts the scenario tests quote: the seed texts and ``rules-decisions.md``, which live
beside the repository (``../shared``), not in it.

A scenario test names the rule it follows by quoting it: ``quote = Quotes(SEED)`` at the top of
the module, ``quote("…")`` in the test. A quote checks nothing when the test runs, so every
behaviour test runs from the repository alone; ``tests/test_quotes.py`` finds every quote in
``tests/`` and checks it against its text, and skips, saying why, where the texts are absent.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import SHARED

#: The decisions taken where the seeds leave a rule open (a file of ``../shared``).
DECISIONS = "rules-decisions.md"
#: The seed of the kiosk itself: its L'Affiche Belge deck, its places and most of its games.
AFFICHE_SEED = "000_de7fdf0eefacbd60.txt"


@dataclass(frozen=True)
class Quotes:
    """Quotes from one rule text, ``source``: a seed's file name or :data:`DECISIONS`. Calling
    it with a sentence (one string literal, which the checker reads) returns the sentence."""

    source: str

    def __call__(self, sentence: str) -> str:
        return sentence


def source_path(source: str) -> Path:
    """Where the rule text ``source`` lives."""
    return SHARED / source if source == DECISIONS else SHARED / "seeds" / source


def source_text(source: str) -> str:
    """The rule text ``source``, whitespace-normalised; the calling test skips where it is absent."""
    path = source_path(source)
    if not path.is_file():
        pytest.skip(f"{path} not found: the rule texts live beside the repository, in ../shared")
    return " ".join(path.read_text(encoding="utf-8").split())


seed_says = Quotes(AFFICHE_SEED)
decided = Quotes(DECISIONS)
