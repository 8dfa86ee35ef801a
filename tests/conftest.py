"""Shared fixtures: headless SDL, the seed texts, the shared real photos."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SEEDS = SHARED / "seeds"
REAL_CARDS = SHARED / "data" / "real-cards"


def seed_text(name: str) -> str:
    """The text of a seed file (``000_de7fdf0eefacbd60.txt``), whitespace-normalised."""
    return " ".join((SEEDS / name).read_text(encoding="utf-8").split())


@pytest.fixture
def real_cards() -> Path:
    if not REAL_CARDS.is_dir():
        pytest.skip(f"real photos not found at {REAL_CARDS}")
    return REAL_CARDS
