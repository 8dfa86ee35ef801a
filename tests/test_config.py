"""The configuration file: defaults, round trip of the template, and clear errors."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.cli import main
from kiosk.config import load_config, template
from kiosk.errors import ConfigError


def test_missing_file_gives_documented_defaults(tmp_path: Path):
    config = load_config(tmp_path / "absent.toml")
    assert config.kiosk.language == "fr" and config.camera.source == "auto"
    assert config.path is None


def test_template_round_trips(tmp_path: Path):
    path = tmp_path / "kiosk.toml"
    path.write_text(template())
    assert load_config(path, required=True).as_dict() == load_config(tmp_path / "none.toml").as_dict()


@pytest.mark.parametrize(
    "text, needle",
    [
        ("[camera]\nsorce = 'virtual'\n", "unknown key camera.sorce"),
        ("[camera]\nwidth = 'wide'\n", "camera.width must be an integer"),
        ("[display]\nfullscreen = 1\n", "display.fullscreen must be true or false"),
        ("[kiosk]\nlanguage = 'es'\n", "kiosk.language must be one of"),
        ("[kiosk]\ngames = ['poker']\n", "kiosk.games items must be one of compromis"),
        ("[kiosk]\nadmin_pin = '12'\n", "admin_pin"),
        ("[vision]\nmodel_threads = 0\n", "vision.model_threads must be 1 to 8, not 0"),
        ("[teleport]\nx = 1\n", "unknown section [teleport]"),
        ("camera = 3\n", "camera must be a section"),
        ("[camera\n", "not valid TOML"),
    ],
)
def test_wrong_config_names_file_and_key(tmp_path: Path, text: str, needle: str):
    path = tmp_path / "kiosk.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(path) in str(err.value) and needle in str(err.value)


def test_cli_check_reports_one_line_and_keeps_file(tmp_path: Path, capsys):
    path = tmp_path / "kiosk.toml"
    path.write_text("[camera]\nwidth = 'wide'\n")
    assert main(["config", "check", "--config", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "camera.width" in err
    assert path.read_text() == "[camera]\nwidth = 'wide'\n"


def test_cli_init_refuses_to_overwrite(tmp_path: Path, capsys):
    path = tmp_path / "kiosk.toml"
    assert main(["config", "init", "--config", str(path)]) == 0
    path.write_text("# mine\n")
    assert main(["config", "init", "--config", str(path)]) == 2
    assert path.read_text() == "# mine\n"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_escape_as_other_errors(tmp_path_factory, data: bytes):
    path = tmp_path_factory.mktemp("cfg") / "kiosk.toml"
    path.write_bytes(data)
    try:
        load_config(path)
    except ConfigError as exc:
        assert str(path) in str(exc)
