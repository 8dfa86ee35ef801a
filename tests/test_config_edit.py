"""``kiosk config get|set``: one key changed in place (the installer sets the operator PIN and the
printer's port this way), every other line kept, a wrong value refused with the file untouched."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.cli import main
from kiosk.config import load_config, template
from kiosk.config_edit import set_value


def test_set_changes_one_line_of_the_template_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(template())
    before = path.read_text().splitlines()
    assert set_value(path, "kiosk.admin_pin", "048213") == "048213"  # a PIN keeps its leading zero
    assert set_value(path, "printer.serial_port", "/dev/ttyAMA0") == "/dev/ttyAMA0"
    assert set_value(path, "printer.baudrate", "9600") == 9600
    after = path.read_text().splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed == [
        ('admin_pin = "1830"', 'admin_pin = "048213"'),
        ('serial_port = "/dev/serial0"', 'serial_port = "/dev/ttyAMA0"'),
        ("baudrate = 19200", "baudrate = 9600"),
    ]
    config = load_config(path, required=True)
    assert (config.kiosk.admin_pin, config.printer.serial_port, config.printer.baudrate) == (
        "048213",
        "/dev/ttyAMA0",
        9600,
    )


def test_set_adds_a_missing_key_or_section_and_writes_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text('# mine\n[kiosk]\nname = "Musée L"\n\n[camera]\nfps = 10\n')
    set_value(path, "kiosk.admin_pin", "7391")
    set_value(path, "printer.serial_port", "/dev/ttyAMA0")
    assert path.read_text() == (
        '# mine\n[kiosk]\nname = "Musée L"\nadmin_pin = "7391"\n\n[camera]\nfps = 10\n'
        '\n[printer]\nserial_port = "/dev/ttyAMA0"\n'
    )
    fresh = tmp_path / "etc" / "kiosk.toml"
    set_value(fresh, "kiosk.admin_pin", "7391")
    assert load_config(fresh, required=True).kiosk.admin_pin == "7391"


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("kiosk.admin_pin", "12", "kiosk.admin_pin"),
        ("kiosk.admin_pin", "12ab", "kiosk.admin_pin"),
        ("printer.baudrate", "fast", "printer.baudrate"),
        ("display.rotate", "45", "display.rotate"),
        ("kiosk.pin", "1234", "unknown key 'kiosk.pin'"),
        ("kiosks.admin_pin", "1234", "unknown key 'kiosks.admin_pin'"),
    ],
)
def test_a_wrong_value_is_refused_and_the_file_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: str, says: str
) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(template())
    assert main(["config", "set", key, value, "--config", str(path)]) == 1
    assert says in capsys.readouterr().err and path.read_text() == template()


def test_get_prints_the_files_value_or_the_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text('[kiosk]\nadmin_pin = "5521"\n')
    assert main(["config", "get", "kiosk.admin_pin", "--config", str(path)]) == 0
    assert main(["config", "get", "kiosk.admin_pin", "--default", "--config", str(path)]) == 0
    assert main(["config", "get", "camera.fps", "--config", str(path)]) == 0
    assert capsys.readouterr().out.split() == ["5521", "1830", "15"]
    assert main(["config", "set", "kiosk.admin_pin", "--config", str(path)]) == 2  # no value


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from("0123456789"), min_size=4, max_size=8))
def test_any_valid_pin_round_trips(tmp_path_factory: pytest.TempPathFactory, pin: str) -> None:
    path = tmp_path_factory.mktemp("cfg") / "kiosk.toml"
    set_value(path, "kiosk.admin_pin", pin)
    assert load_config(path, required=True).kiosk.admin_pin == pin


def test_the_changed_file_keeps_its_mode(tmp_path: Path) -> None:
    """/etc/kiosk/kiosk.toml is 0640, group kiosk (it holds the PIN): a new PIN keeps it so."""
    path = tmp_path / "kiosk.toml"
    path.write_text(template())
    path.chmod(0o640)
    set_value(path, "kiosk.admin_pin", "7391")
    assert path.stat().st_mode & 0o777 == 0o640


def test_a_games_house_rule_is_read_and_set_like_any_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54: the game options a family table asks for are in ``kiosk config`` too."""
    path = tmp_path / "kiosk.toml"
    path.write_text(template())
    assert main(["config", "get", "games.klaverjassen.pit_bonus", "--config", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "100"  # the engine's default while the file sets none
    assert set_value(path, "games.klaverjassen.pit_bonus", "200") == 200
    assert set_value(path, "games.klaverjassen.four_low_roem", "true") is True
    assert set_value(path, "games.bataille.last_card_up", "true") is True
    config = load_config(path, required=True)
    assert config.games["klaverjassen"] == {"pit_bonus": 200, "four_low_roem": True}
    assert config.games["bataille"] == {"last_card_up": True}
    assert main(["config", "get", "games.klaverjassen.pit_bonus", "--config", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "200"


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("games.klaverjassen.pit_bonus", "9999", "pit_bonus must be an integer 0..500"),
        ("games.klaverjassen.pit_bonus", "true", "pit_bonus must be"),
        ("games.klaverjassen.no_such_rule", "1", "options of games.klaverjassen"),
        ("games.no_such_game.x", "1", "unknown key"),
    ],
)
def test_a_wrong_house_rule_is_refused_and_the_file_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: str, says: str
) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(template())
    before = path.read_text()
    assert main(["config", "set", key, value, "--config", str(path)]) != 0
    assert says in capsys.readouterr().err and path.read_text() == before
