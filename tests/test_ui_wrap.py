"""Text wrapping and fitting: a calculation is never split across lines (issue 6: the kiosk shows
a wrong pair to children as "7 × 8 = 56, pas 54"), nor a player's number from its name, nor a
French "!" from its word; a banner's lines break at the end of a phrase; a text never shrinks
under the screen's smallest size, and says so when it must be cut."""

from __future__ import annotations

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


@pytest.fixture(scope="module")
def bold() -> pygame.font.Font:
    from kiosk.ui import theme

    return theme.font(20, True)  # the shipped face, whatever fonts the machine has


def test_a_balanced_banner_breaks_after_the_phrase_not_inside_a_name(bold: pygame.font.Font) -> None:
    message = "Trumpf ist ♥, gewählt von Spieler 1: Team 1 spielt."
    width = bold.size("Trumpf ist ♥, gewählt von Spieler 1: Team 1")[0] + 4
    assert wrap(message, bold, width) == ["Trumpf ist ♥, gewählt von Spieler 1: Team 1", "spielt."]
    assert wrap(message, bold, width, balance=True) == ["Trumpf ist ♥, gewählt von Spieler 1:", "Team 1 spielt."]
    narrow = bold.size("Trumpf ist ♥, gewählt von Spieler")[0] + 4
    for balance in (False, True):  # "Spieler / 1" never
        assert wrap(message, bold, narrow, balance)[1].startswith("Spieler 1:")


def test_french_closing_signs_stay_with_their_word(bold: pygame.font.Font) -> None:
    message = "Tampon imprimé : colle-le dans ton passeport !"
    for cut in range(2, len(message.split())):
        width = bold.size(" ".join(message.split()[:cut]))[0]
        for balance in (False, True):
            lines = wrap(message, bold, width, balance)
            assert not any(line.split()[0] in ":!" for line in lines), lines


def test_a_word_too_wide_breaks_after_its_hyphen(bold: pygame.font.Font) -> None:
    assert wrap("Drucker-Testseite", bold, bold.size("Drucker-Test")[0]) == ["Drucker-", "Testseite"]
    assert wrap("Drucker-Testseite", bold, 1000) == ["Drucker-Testseite"]
    assert wrap("Vorder- und Rückseite", bold, bold.size("Vorder- und")[0]) == ["Vorder- und", "Rückseite"]


WORDS = st.sampled_from("Joueur 3 passe ! : 7 × 8 = 56, Villers-la-Ville Drucker-Testseite un (1880) Spieler".split())


@given(st.lists(WORDS, min_size=1, max_size=14), st.integers(20, 400), st.booleans())
@settings(max_examples=150, deadline=None)
def test_wrapping_keeps_every_letter_in_order_within_the_width(words: list[str], width: int, balance: bool) -> None:
    from kiosk.ui import theme

    fnt = theme.font(20, True)
    text = " ".join(words)
    lines = wrap(text, fnt, width, balance)
    assert "".join(text.split()) == "".join("".join(line.split()) for line in lines)
    for line in lines:  # too wide only where it has nowhere to break (one word, "Joueur 3", "7 × 8")
        assert fnt.size(line)[0] <= width or wrap(line, fnt, width) == [line]


def test_text_never_shrinks_under_the_screens_smallest_size_and_says_what_it_cut() -> None:
    from kiosk.ui import theme, widgets

    surface = pygame.Surface((800, 480))
    box = pygame.Rect(0, 0, 200, 50)
    with widgets.recording() as drawn:
        widgets.text(surface, "court", box, 40)
        widgets.text(surface, "Une phrase bien trop longue pour une si petite boîte, même en petit", box, 40)
    fits, cut = drawn
    assert fits.px == 40 and not fits.cut and box.contains(fits.used)
    assert cut.px == theme.min_px((800, 480)) == 20 and cut.cut and box.contains(cut.used)
    widgets.text(surface, "court", box, 40)  # outside the block, nothing is kept
    assert len(drawn) == 2
