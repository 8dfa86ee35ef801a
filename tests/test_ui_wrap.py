"""Banner text wrapping: a calculation is never split across lines (issue 6: the kiosk shows a
wrong pair to children as "7 × 8 = 56, pas 54")."""

from __future__ import annotations

import pygame
import pytest

from kiosk.ui.widgets import wrap


@pytest.fixture(scope="module")
def font() -> pygame.font.Font:
    pygame.font.init()
    return pygame.font.Font(None, 40)


@pytest.mark.parametrize("width_words", [3, 4, 5, 6, 7])
def test_a_calculation_stays_on_one_line(font: pygame.font.Font, width_words: int) -> None:
    message = "Paire fausse, joueur 1 : 7 × 8 = 56, pas 54 !"
    width = font.size(" ".join(message.split()[:width_words]))[0]
    lines = wrap(message, font, width)
    assert " ".join(lines) == message  # nothing lost or reordered
    assert sum("7 × 8 = 56," in line for line in lines) == 1
    assert not any(line.split()[0] in "×=" or line.split()[-1] in "×=" for line in lines)


def test_plain_words_still_wrap_greedily(font: pygame.font.Font) -> None:
    lines = wrap("un deux trois quatre", font, font.size("un deux")[0])
    assert lines == ["un deux", "trois", "quatre"]
