"""How to play, at the table: every game's guide (its goal, its setup on its mat, 3 to 6 steps) in
four languages, drawn with the game's own cards; reached from the game menu and over a running
game, which comes back as it was left; the menu's players and pitch; every text fits its box at
800x480, 1024x600 and 720x1280."""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Iterator

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import ImageChops

from kiosk import mat
from kiosk.decks import Deck, load_deck
from kiosk.games.registry import BUILTIN, available_games
from kiosk.howto import GUIDES, Picture
from kiosk.i18n import LANGUAGES, catalog, translate
from kiosk.referee.registry import available_referees
from kiosk.referee.zones import Layout
from kiosk.render.howto import SIGNS, parse, render_picture
from kiosk.ui import howto_art, widgets
from kiosk.ui.app import App
from kiosk.ui.screens.howto import HowtoScreen, areas
from kiosk.ui.screens.menu import MenuScreen, players_text
from tests.conftest import SHARED, quiet_kiosk
from tests.quotes import DECISIONS, seed_says, source_text
from tests.screen_tour import SIZES, lay, problems

LONG_RUN = 7  # words in a row that a text of ours may not share with a rule text


def _texts(game: str) -> dict[str, dict[str, str]]:
    prefix = f"howto.{game}."
    return {key: texts for key, texts in catalog().items() if key.startswith(prefix)}


# the guides ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", BUILTIN)
def test_every_game_has_its_goal_setup_and_three_to_six_steps_in_four_languages(game: str) -> None:
    guide = GUIDES[game]
    assert 3 <= len(guide.steps) <= 6
    parts = ["pitch", "goal", "setup"] + [f"step{n}" for n in range(1, len(guide.steps) + 1)]
    assert sorted(_texts(game)) == sorted(guide.key(p) for p in parts), "one text per step, no text left over"
    for part in parts:
        texts = catalog()[guide.key(part)]
        assert all(texts.get(lang, "").strip() for lang in LANGUAGES), f"{guide.key(part)} lacks a language"
        assert len({texts[lang] for lang in LANGUAGES}) == len(LANGUAGES), f"{guide.key(part)}: a text not translated"
    assert [guide.text_key(page) for page in range(guide.pages)] == [guide.key(p) for p in parts[1:]]


def _words(text: str) -> list[str]:
    return re.findall(r"[\w']+", text.lower().replace("’", "'"))


def _rule_texts() -> list[str]:
    seeds = sorted((SHARED / "seeds").glob("*.txt")) if (SHARED / "seeds").is_dir() else []
    if not seeds:
        pytest.skip(f"no seed texts in {SHARED / 'seeds'}: the rule texts live beside the repository")
    return [source_text(path.name) for path in seeds] + [source_text(DECISIONS)]


def test_the_texts_are_written_for_the_kiosk_not_copied_from_the_rules() -> None:
    runs: set[tuple[str, ...]] = set()
    for text in _rule_texts():
        words = _words(text)
        runs |= {tuple(words[i : i + LONG_RUN]) for i in range(len(words) - LONG_RUN + 1)}
    copied = [
        (key, lang, " ".join(words[i : i + LONG_RUN]))
        for key, texts in catalog().items()
        if key.startswith("howto.")
        for lang, text in texts.items()
        for words in [_words(text)]
        for i in range(len(words) - LONG_RUN + 1)
        if tuple(words[i : i + LONG_RUN]) in runs
    ]
    assert not copied


def _deck_and_layout(game: str) -> tuple[Deck, Layout]:
    deck = load_deck(available_games()[game].deck_id)
    return deck, available_referees()[game].layout(GUIDES[game].players)


@pytest.mark.parametrize("game", BUILTIN)
def test_every_picture_is_drawn_with_the_games_own_cards_and_mat(game: str) -> None:
    guide = GUIDES[game]
    deck, layout = _deck_and_layout(game)
    size = (240, 180)
    for page in range(guide.pages):
        picture = guide.picture(page)
        for spec in picture.zones.values():  # only the game's cards, on zones of its referee's mat
            parse(spec, deck)
        assert set(picture.zones) <= set(layout.names) and set(picture.lit) <= set(layout.names)
        img = howto_art.draw_picture(game, page, size)
        if picture.zones:  # the mat keeps its shape inside the box
            assert img.width == size[0] and abs(img.width / img.height - mat.ASPECT) < 0.02
        else:
            assert img.size == size
        assert len(img.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 50, f"page {page} of {game} is blank"
        if picture.lit:  # the zones a step is about are outlined, and nothing else changes
            plain = render_picture(dataclasses.replace(picture, lit=()), deck, layout, size)
            changed = ImageChops.difference(img, plain).getbbox()
            x0, y0, x1, y1 = (
                min(layout[z].rect[k] for z in picture.lit) if k < 2 else max(layout[z].rect[k] for z in picture.lit)
                for k in range(4)
            )
            pad = img.width / 40  # the outline's width and its blur
            lit = (x0 * img.width - pad, y0 * img.height - pad, x1 * img.width + pad, y1 * img.height + pad)
            assert (
                changed is not None
                and lit[0] <= changed[0]
                and lit[1] <= changed[1]
                and changed[2] <= lit[2]
                and changed[3] <= lit[3]
            ), f"page {page} of {game}: {changed} not in {lit}"


def test_a_word_that_is_no_card_of_the_game_is_refused_by_name() -> None:
    deck = load_deck("piquet-32")
    with pytest.raises(ValueError, match=r"'2H'.*piquet-32"):  # the piquet deck starts at 7
        parse("AH 2H", deck, signs=True)
    with pytest.raises(ValueError, match="'✓'"):  # a zone of the mat holds cards only
        parse("pile AH ✓", deck)
    with pytest.raises(ValueError, match="'AH/XX'"):
        parse("AH/XX", deck, signs=True)


_DECK = load_deck("affiche-belge")
_WORD = st.one_of(
    st.sampled_from(_DECK.ids),
    st.just("#"),
    st.integers(1, 9).map(lambda n: f"#{n}"),
    st.sampled_from(sorted(SIGNS)),
    st.from_regex(r"'[0-9+×]{1,4}", fullmatch=True),
)


@given(st.lists(_WORD, min_size=1, max_size=12))
def test_a_row_holds_one_item_per_card_back_and_sign_in_order(words: list[str]) -> None:
    _, items = parse(" ".join(words), _DECK, signs=True)
    expected: list[tuple[str, str]] = []
    for word in words:
        if word.startswith("#"):
            expected += [("back", "")] * (int(word[1:]) if len(word) > 1 else 1)
        else:
            expected.append(("card", word) if word in _DECK else ("sign", word.removeprefix("'")))
    assert [(i.kind, i.value) for i in items] == expected


@settings(deadline=None, max_examples=25)  # each example draws a picture
@given(st.lists(st.sampled_from(_DECK.ids), min_size=1, max_size=9), st.integers(120, 480), st.integers(90, 300))
def test_a_row_picture_fills_the_box_it_is_given(cards: list[str], width: int, height: int) -> None:
    img = render_picture(Picture(row=" ".join(cards)), _DECK, _deck_and_layout("bataille")[1], (width, height))
    assert img.size == (width, height)


# the screens ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """The kiosk without a camera (nothing on its table moves), a printer behind escpos' Dummy."""
    kiosk = quiet_kiosk(tmp_path_factory.mktemp("howto"))
    yield kiosk
    kiosk.close()


def _tap(app: App, action: str) -> None:
    """Touch the button of ``action`` on the screen as drawn now, then let the app switch."""
    app.screen.layout(app.surface.get_size())
    button = next(b for b in app.screen.buttons if b.action == action)
    app.screen.on_tap(button.rect.center)
    app.step()


def _drawn(screen: object, size: tuple[int, int]) -> list[widgets.Drawn]:
    surface = pygame.Surface(size)
    with widgets.recording() as drawn:
        screen.layout(size)  # type: ignore[attr-defined]
        screen.draw(surface)  # type: ignore[attr-defined]
    return drawn


def test_players_are_said_as_a_range_a_number_or_one() -> None:
    def t(key: str, **params: object) -> str:
        return translate(key, "fr", **params)

    assert (players_text(t, 2, 6), players_text(t, 4, 4), players_text(t, 1, 1)) == (
        "2 à 6 joueurs",
        "4 joueurs",
        "1 joueur",
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_menu_names_every_game_and_a_games_page_says_its_players_and_pitch(app: App, lang: str) -> None:
    app.lang = lang
    listing = MenuScreen(app)
    listing.enter()
    shown = {d.content for d in _drawn(listing, (800, 480)) if d.kind == "text"}
    assert {translate(f"app.game.{game}", lang) for game in BUILTIN} <= shown
    for game, engine in available_games().items():
        page = MenuScreen(app, game=game, players=3)
        page.enter()
        shown = {d.content for d in _drawn(page, (800, 480)) if d.kind == "text"}
        players = players_text(app.t, engine.min_players, engine.max_players)
        assert {players, translate(f"howto.{game}.pitch", lang)} <= shown, game
    app.lang = "fr"


def test_how_to_play_opens_from_a_games_page_and_goes_back_to_it(app: App) -> None:
    app.goto("menu", game="huit", players=3)
    app.step()
    _tap(app, "howto")
    assert isinstance(app.screen, HowtoScreen) and app.screen.game == "huit" and app.screen.page == 0
    for _ in range(2):
        _tap(app, "page")  # ▶
    assert app.screen.page == 2
    app.screen.on_gpio("select")  # the first button, ▶, holds the focus: arcade buttons read on
    assert app.screen.page == 3
    for _ in range(GUIDES["huit"].pages + 2):
        app.screen.on_action("page", {"delta": 1})
    assert app.screen.page == GUIDES["huit"].pages - 1  # the last page stays the last
    _tap(app, "back")
    assert isinstance(app.screen, MenuScreen) and app.screen.game == "huit" and app.screen.players == 3


def test_the_rules_open_over_a_running_game_which_comes_back_untouched(app: App) -> None:
    app.goto("referee", game="klaverjassen", players=4)
    app.step()
    game = app.screen
    session = game.session  # type: ignore[attr-defined]
    dealer = next(s for s in session.inputs() if s.action == "dealer")
    game.on_action("choice", {"spec": dealer, "value": "3"})
    before, rulings = session.status(), list(session.rulings)
    assert app.services.vision.deck_id == "piquet-32"  # type: ignore[attr-defined]
    _tap(app, "howto")
    assert isinstance(app.screen, HowtoScreen) and app.screen.game == "klaverjassen"
    assert app.services.vision.deck_id == "piquet-32"  # type: ignore[attr-defined]  # the table is still the game's
    assert app.screen.session.status() == before  # type: ignore[attr-defined]
    _tap(app, "page")
    _tap(app, "back")
    assert app.screen is game and game.session is session  # type: ignore[attr-defined]
    assert session.status() == before and session.rulings == rulings
    assert app.services.vision.deck_id == "piquet-32"  # type: ignore[attr-defined]


def test_a_government_laid_while_the_rules_are_read_still_counts(app: App) -> None:
    seed_says("Une paire = un lion + un coq de même valeur, de 2 à 10.")
    app.goto("referee", game="compromis", players=2)
    app.step()
    game = app.screen
    session = game.session  # type: ignore[attr-defined]
    _tap(app, "howto")
    # Lier (3♥ lion) + Villers-la-Ville (3♣ coq), Ieper (3♠ lion) + Nivelles (3♦ coq), De Panne + Arlon (4)
    assert isinstance(app.screen, HowtoScreen)
    lay(*((card, "seat0") for card in ("3H", "3C", "3S", "3D", "4H", "4D")))(app.screen)
    assert "compromis.government_ok" in [r.key for r in session.rulings]
    _tap(app, "back")
    assert app.screen is game


def test_a_paused_game_keeps_the_games_idle_time(app: App) -> None:
    idle = app.config.kiosk.idle_seconds
    app.goto("referee", game="bataille", players=2)
    app.step()
    _tap(app, "howto")
    app._last_activity = app.now() - idle * 2  # read for twice the idle time: the game waits
    app.step()
    assert isinstance(app.screen, HowtoScreen)
    _tap(app, "back")  # to the game
    app.goto("howto", game="bataille")
    app.step()
    app._last_activity = app.now() - idle * 2  # rules read from the menu: home as any screen
    app.step()
    assert app.screen.name == ("attract" if app.mode == "passport" else "menu")


def test_the_screen_never_waits_for_a_picture(app: App) -> None:
    size = (333, 222)  # a box no other test asks for
    busy = threading.Event()
    howto_art._WORKER.submit(busy.wait, 30)  # the picture worker is busy with another picture
    try:
        assert howto_art.picture("memory", 3, size) is None  # asked for, not waited for
        screen = HowtoScreen(app, game="memory")
        screen.enter()
        drawn = _drawn(screen, (800, 480))
        assert translate("howto.goal", app.lang) in {d.content for d in drawn}
    finally:
        busy.set()
    ready = howto_art.picture("memory", 3, size, wait=60)
    assert ready is not None and ready.get_size() == howto_art.draw_picture("memory", 3, size).size


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_fits_its_box(app: App, lang: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page of each guide, the menu and each game's page: no text under the smallest size, cut or
    out of its box, over a button or the picture (the rule of tests/screen_tour.py). The words
    do not depend on the pictures, which other tests draw: here they are left out."""
    monkeypatch.setattr(howto_art, "picture", lambda *args, **kwargs: None)
    monkeypatch.setattr(howto_art, "prepare", lambda *args, **kwargs: None)
    app.lang = lang
    listing = MenuScreen(app)
    listing.enter()
    found = [f"menu: {p}" for p in problems(_drawn(listing, size), size)]
    for game, guide in GUIDES.items():
        screen = HowtoScreen(app, game=game, over=None)
        screen.enter()
        for page in range(guide.pages):
            screen.page = page
            found += [f"{game} page {page}: {p}" for p in problems(_drawn(screen, size), size)]
        menu = MenuScreen(app, game=game, players=2)
        menu.enter()
        found += [f"menu {game}: {p}" for p in problems(_drawn(menu, size), size)]
    app.lang = "fr"
    assert not found
    picture, words, bar = areas(size)
    assert not picture.colliderect(words) and not words.colliderect(bar)
