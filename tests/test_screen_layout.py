"""Every text of every screen fits its box, in the four languages, at 800x480, 1024x600 and on a
720x1280 portrait panel, and none is drawn under the smallest size: 20 px at 800x480, scaled with
the screen's shorter side elsewhere (25 px at 1024x600, 30 px at 720x1280; a portrait panel's
height is its long side). Nothing overlaps: no two buttons, banners, panels or pictures, no text
over a box it is not in, no two texts.

The screens come from the app's registry (``kiosk.ui.app.SCREENS``) through the scenes of
``tests/screen_tour.py``; ``python tests/screen_tour.py OUT`` saves them to look at.
"""

from __future__ import annotations

import string
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).parent))

import screen_tour as tour  # noqa: E402

from kiosk.decks import load_deck  # noqa: E402
from kiosk.games.registry import BUILTIN, available_games  # noqa: E402
from kiosk.i18n import LANGUAGES, catalog, translate  # noqa: E402
from kiosk.referee.registry import available_referees  # noqa: E402
from kiosk.render.mathcards import card_text  # noqa: E402
from kiosk.table import SeenCard, TableView  # noqa: E402
from kiosk.ui import theme, widgets  # noqa: E402
from kiosk.ui.app import App  # noqa: E402
from kiosk.ui.app_params import SEAT_PARAM_NAMES  # noqa: E402
from kiosk.ui.screens.referee import banner_rects, regions  # noqa: E402


@pytest.fixture(scope="module")
def kiosks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[bool, App]]:
    with tour.kiosks(tmp_path_factory.mktemp("kiosks")) as apps:
        yield apps


@pytest.mark.parametrize("size", tour.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_fits_in_every_language(kiosks: dict[bool, App], size: tuple[int, int]) -> None:
    found = []
    for scene in tour.scenes():
        for lang in LANGUAGES:
            _, drawn = tour.draw(kiosks[scene.camera], scene, lang, size)
            assert any(d.kind == "text" for d in drawn), f"{scene.name} drew no text through the widgets"
            found += [f"{scene.name}-{lang}: {problem}" for problem in tour.problems(drawn, size)]
    assert not found, "\n".join(found)


GAMES = {game.replace("-", "_"): game for game in BUILTIN}
GAME_MESSAGES = sorted(key for key in catalog() if key.split(".", 1)[0] in GAMES)
CARD_FIELDS = ("proof", "top", "below", "told", "previous")


@cache
def _longest_card(game: str, lang: str) -> str:
    """The longest name the referee screen gives a card of ``game``'s deck ("3C Villers-la-Ville")."""
    deck = load_deck(getattr(available_games()[game], "deck_id", "affiche-belge"))
    if deck.identify_by == "text":
        return max((card_text(c) for c in deck.cards), key=len)
    return max((f"{c.id} {c.name(lang)}" if c.names else c.id for c in deck.cards), key=len)


def _placeholder(domain: str, name: str, lang: str) -> str:
    """A long value for ``{name}`` in a message of ``domain``: a player (named, or numbered in
    "Joueur {player}"), a card with its town, a word of the game's own, a calculation, a number."""
    game = GAMES[domain]
    named = available_referees()[game].seats_as_names
    if name in SEAT_PARAM_NAMES:
        return translate("app.player", lang, n=6) if named else "6"
    if name == "players":
        return ", ".join(translate("app.player", lang, n=n) if named else str(n) for n in (4, 5, 6))
    if name.startswith("card") or name in CARD_FIELDS:
        return _longest_card(game, lang)
    if name == "cards":
        return ", ".join([_longest_card(game, lang)] * 2)
    if name == "calculation":
        return "12 × 12"
    words = [texts[lang] for key, texts in catalog().items() if key.startswith(f"{domain}.{name}.")]
    return max(words, key=len) if words else "162"


@pytest.mark.parametrize("size", tour.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_ruling_of_every_game_fits_the_referee_screen_whole(size: tuple[int, int]) -> None:
    """A ruling is one banner of bold text at the smallest size, its phrases balanced on its lines
    (never the 13 px of a banner three to a box); the newest always fits the rulings' area."""
    assert len(GAME_MESSAGES) > 300
    surface = pygame.Surface(size)
    found = []
    for key in GAME_MESSAGES:
        for lang in LANGUAGES:
            fields = {f for _, f, _, _ in string.Formatter().parse(catalog()[key][lang]) if f}
            message = translate(key, lang, **{f: _placeholder(key.split(".", 1)[0], f, lang) for f in fields})
            (rect,) = banner_rects(size, [message])
            with widgets.recording() as drawn:
                widgets.banner(surface, rect, message, "violation")
            if not regions(size)[1].contains(rect):
                found.append(f"{key} ({lang}) takes {rect.height} px, more than the rulings' area")
            found += [f"{key} ({lang}): {problem}" for problem in tour.problems(drawn, size)]
    assert not found, "\n".join(found[:40])


def test_the_buttons_and_the_pickers_never_cover_the_score_sheet(kiosks: dict[bool, App]) -> None:
    """Klaverjassen: who deals is asked with four buttons where the score sheet was; once the game
    runs, its buttons stay under the sheet."""
    app = kiosks[True]
    for scene in tour.SCENES:
        if not scene.name.startswith("referee-"):
            continue
        for size in tour.SIZES:
            _, drawn = tour.draw(app if scene.camera else kiosks[False], scene, "nl", size)
            panels = [d.rect for d in drawn if d.kind == "panel"]
            buttons = [d.rect for d in drawn if d.kind == "button"]
            assert not [(b, p) for b in buttons for p in panels if b.colliderect(p)], scene.name
            if scene.name == "referee-klaverjassen-dealer":
                assert not panels and len(buttons) >= 4 + 2  # four dealers, the rules and back
                assert any(d.content == "Wie deelt?" for d in drawn)


def test_a_card_that_left_the_table_loses_its_box_at_once(kiosks: dict[bool, App]) -> None:
    """The tracker keeps a card out of sight for a while (a hand over it); the live view draws a
    box and a label only where a card is seen now."""
    app = kiosks[True]
    seen = app.view.cards
    assert len(seen) == len(tour.TABLE_CARDS)
    gone: SeenCard = next(c for c in seen if c.card_id == "3C")
    scene = tour.Scene("referee", "referee", {"game": "klaverjassen", "players": 4})
    live = app.view
    try:
        for hidden, expected in ((frozenset(), True), (frozenset({gone.track_id}), False)):
            app.view = TableView(live.frame_index, live.timestamp, seen, out_of_sight=hidden)
            _, drawn = tour.draw(app, scene, "fr", tour.SIZES[0])
            labels = [d.content for d in drawn if d.kind == "text"]
            assert ("3C" in labels) is expected, labels
            assert "KH" in labels and "JD" in labels
    finally:
        app.view = live


def test_the_smallest_size_grows_with_the_shorter_side() -> None:
    assert [theme.min_px(size) for size in tour.SIZES] == [20, 25, 30]


def test_the_layout_check_finds_what_it_looks_for() -> None:
    """The check above is not empty: overflowing, tiny, overlapping texts and boxes are reported."""
    size = tour.SIZES[0]
    surface = pygame.Surface(size)
    with widgets.recording() as drawn:
        widgets.text(surface, "Une phrase bien trop longue pour sa petite boîte", pygame.Rect(10, 10, 80, 24), 30)
        widgets.text(surface, "petit", pygame.Rect(10, 100, 200, 40), 12)
        widgets.Button(pygame.Rect(300, 100, 200, 60), "OK", "ok").draw(surface)
        widgets.Button(pygame.Rect(450, 120, 200, 60), "Non", "no").draw(surface)
        widgets.text(surface, "dessous", pygame.Rect(310, 300, 200, 40), 20)
        widgets.text(surface, "dessus", pygame.Rect(320, 305, 200, 40), 20)
    problems = tour.problems(drawn, size)
    assert any("does not fit" in p and "trop longue" in p for p in problems)
    assert any("'petit' is drawn at 12 px, under 20" in p for p in problems)
    assert any("a button" in p and "overlaps a button" in p for p in problems)
    assert any("'dessous' overlaps 'dessus'" in p for p in problems)
