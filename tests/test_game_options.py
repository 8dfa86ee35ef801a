"""House rules per game: the config's ``[games.<id>]`` tables are checked by the engines at load,
the template shows them commented, and a game's page in the menu starts from them, changes the
ones a family asks for (issue 54: four 7s/8s/9s as roem, the Klaverjassen pit bonus, Bataille's
last card face up, a Compromis without special cards) and starts the game with them."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import quiet_kiosk
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.cli import main
from kiosk.config import load_config, template
from kiosk.errors import ConfigError
from kiosk.games.registry import available_games
from kiosk.i18n import LANGUAGES, catalog
from kiosk.ui.app import App
from kiosk.ui.screens.menu import MenuScreen
from kiosk.ui.screens.referee import RefereeScreen

GOOD = """
[games.klaverjassen]
pit_bonus = 50
four_low_roem = true

[games.bataille]
last_card_up = true

[games.compromis.specials]
AS = "malmedy"
"""


def _load(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "kiosk.toml"
    path.write_text(text)
    return load_config(path)


def test_the_config_takes_each_games_options(tmp_path: Path) -> None:
    assert _load(tmp_path, GOOD).games == {
        "klaverjassen": {"pit_bonus": 50, "four_low_roem": True},
        "bataille": {"last_card_up": True},
        "compromis": {"specials": {"AS": "malmedy"}},
    }
    assert load_config(tmp_path / "absent.toml").games == {}


@pytest.mark.parametrize(
    "text, needles",
    [
        ("[games.klaverjassen]\npit_bonus = 600\n", ("games.klaverjassen", "pit_bonus", "0..500", "600")),
        ("[games.klaverjassen]\npit_bonus = '100'\n", ("games.klaverjassen.pit_bonus must be an integer",)),
        ("[games.klaverjassen]\nfour_low_roem = 1\n", ("games.klaverjassen.four_low_roem must be true or false",)),
        ("[games.klaverjassen]\nvariant = 'paris'\n", ("variant", "amsterdam", "rotterdam", "paris")),
        ("[games.klaverjassen]\npitbonus = 100\n", ("unknown key games.klaverjassen.pitbonus", "pit_bonus")),
        ("[games.bataille]\nlast_card_up = 'yes'\n", ("games.bataille.last_card_up must be true or false",)),
        ("[games.compromis.specials]\nAS = 'paris'\n", ("games.compromis", "AS", "doudou, malmedy")),
        ("[games.poker]\nante = 1\n", ("unknown game [games.poker]", "klaverjassen")),
        ("games = 3\n", ("games must be tables",)),
    ],
)
def test_a_wrong_option_names_file_key_and_allowed_values(tmp_path: Path, text: str, needles: tuple[str, ...]) -> None:
    with pytest.raises(ConfigError) as err:
        _load(tmp_path, text)
    assert str(tmp_path / "kiosk.toml") in str(err.value)
    assert all(n in str(err.value) for n in needles), str(err.value)


def test_config_check_refuses_a_wrong_option_and_keeps_the_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text("[games.klaverjassen]\npit_bonus = -5\n")
    assert main(["config", "check", "--config", str(path)]) == 1
    assert "pit_bonus" in capsys.readouterr().err
    assert path.read_text() == "[games.klaverjassen]\npit_bonus = -5\n"


@settings(max_examples=40, deadline=None)
@given(st.integers(-1000, 1000))
def test_the_pit_bonus_is_taken_exactly_within_its_range(bonus: int) -> None:
    with tempfile.TemporaryDirectory() as folder:  # hypothesis cannot share the tmp_path fixture
        try:
            taken = _load(Path(folder), f"[games.klaverjassen]\npit_bonus = {bonus}\n").games["klaverjassen"]
        except ConfigError:
            taken = {}
    assert (taken == {"pit_bonus": bonus}) == (0 <= bonus <= 500)


def test_the_template_shows_every_option_commented_and_a_table_uncommented_loads(tmp_path: Path) -> None:
    text = template()
    for game_id, engine in available_games().items():
        if engine.default_options:
            assert f"# [games.{game_id}]" in text
            assert all(f"\n# {key} =" in text for key in engine.default_options)
    uncommented = text.replace("# [games.klaverjassen]", "[games.klaverjassen]").replace(
        "# pit_bonus = 100", "pit_bonus = 100"
    )
    assert _load(tmp_path, uncommented).games == {"klaverjassen": {"pit_bonus": 100}}


@pytest.mark.parametrize("game_id", [g for g, e in available_games().items() if e.menu_options])
def test_each_menu_option_is_labelled_in_four_languages_and_each_value_is_one_its_engine_takes(game_id: str) -> None:
    engine = available_games()[game_id]
    for name, values in engine.menu_options.items():
        key = f"{game_id.replace('-', '_')}.option.{name}"
        assert all(catalog()[key].get(lang) for lang in LANGUAGES), key
        assert engine.default_options[name] in values
        for value in values:
            engine(engine.max_players, random.Random(0), {name: value})


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """The kiosk with a config that sets a Klaverjassen pit bonus of 50, no camera, a Dummy printer."""
    kiosk = quiet_kiosk(tmp_path_factory.mktemp("options"), "[games.klaverjassen]\npit_bonus = 50\n")
    yield kiosk
    kiosk.close()


def _tap(app: App, action: str, **params: object) -> None:
    app.screen.layout(app.surface.get_size())
    button = next(b for b in app.screen.buttons if b.action == action and params.items() <= b.params.items())
    app.screen.on_tap(button.rect.center)
    app.step()


def _labels(app: App) -> list[str]:
    app.screen.layout(app.surface.get_size())
    return [b.label for b in sorted(app.screen.buttons, key=lambda b: b.rect.top) if b.action == "option"]


def test_the_menu_starts_from_the_config_and_a_toggle_reaches_the_started_game(app: App) -> None:
    app.lang = "en"
    app.goto("menu", game="klaverjassen", players=4)
    app.step()
    assert isinstance(app.screen, MenuScreen)
    assert _labels(app) == ["Four 7s/8s/9s roem: off", "Pit bonus: 50"]  # the config's 50, not the 100 default
    _tap(app, "option", name="four_low_roem")
    _tap(app, "option", name="pit_bonus")  # 50 -> 100 -> 200, the values offered after the config's
    _tap(app, "option", name="pit_bonus")
    assert _labels(app) == ["Four 7s/8s/9s roem: on", "Pit bonus: 200"]
    _tap(app, "start")
    assert isinstance(app.screen, RefereeScreen)
    assert app.screen.session.options["four_low_roem"] is True
    assert app.screen.session.options["pit_bonus"] == 200
    _tap(app, "back")  # back on the game's page, the choices kept
    assert isinstance(app.screen, MenuScreen) and _labels(app) == ["Four 7s/8s/9s roem: on", "Pit bonus: 200"]
    app.lang = "fr"


def test_a_game_started_without_the_menu_gets_the_configs_options(app: App) -> None:
    app.goto("referee", game="klaverjassen", players=4)
    app.step()
    assert isinstance(app.screen, RefereeScreen)
    assert app.screen.session.options["pit_bonus"] == 50
