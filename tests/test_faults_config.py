"""Configuration values that would crash or break ``kiosk run`` are refused at load, by
``kiosk config check`` and ``kiosk run`` alike, naming the file, the key and what is allowed.
Every key of every section has a type and a range or a choice, and the template says it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.cli import main
from kiosk.config import Limits, load_config, section_classes, template
from kiosk.errors import ConfigError

#: (TOML, the key named, what the message says is allowed)
REFUSED = [
    ("[display]\nfps = 0\n", "display.fps", "1 to 120"),
    ("[vision]\nconfirm_frames = 0\n", "vision.confirm_frames", "1 to 30"),
    ("[vision]\nconfirm_frames = -3\n", "vision.confirm_frames", "1 to 30"),
    ('[kiosk]\nname = "Kiosk\\u0000Belgica"\n', "kiosk.name", "control characters"),
    ("[display]\nwidth = 100000\n", "display.width", "320 to 4096"),
    ("[printer]\nstrip_rows = 0\n", "printer.strip_rows", "1 to 255"),
    ("[printer]\nretry_s = -1\n", "printer.retry_s", "0.5 to 300"),
    ('[kiosk]\nname = "' + "x" * 100_000 + '"\n', "kiosk.name", "1 to 40 characters"),
    ('[kiosk]\nadmin_pin = "１２３４"\n', "kiosk.admin_pin", "4 to 8 digits 0-9"),
    ('[printer]\nbackend = "bluetooth"\n', "printer.backend", "one of serial, usb"),
    ("[printer]\nbaudrate = 12345\n", "printer.baudrate", "one of 1200"),
    ("[printer]\nport = 70000\n", "printer.port", "1 to 65535"),
    ("[printer]\nwidth = 388\n", "width = 388", "multiple of 8"),
    ('[printer]\nprofile = "no-such-printer"\n', "profile = 'no-such-printer'", "unknown to python-escpos"),
    ("[lights]\npins = [17, 99, 22]\n", "lights.pins", "items must be 0 to 27"),
    ('[lights]\nkind = "led"\n', "[lights] kind = 'led' needs 1 pin", "pins"),
    ("[lights]\nbrightness = 2.0\n", "lights.brightness", "0 to 1"),
    ('[buttons]\nactions = ["select", "jump", "back"]\n', "buttons.actions", "one of select, next, back, admin"),
    ("[buttons]\npins = [5, 6]\n", "[buttons] pins, actions and hold_actions", "as long as each other"),
    ("[buttons]\nhold_s = 0\n", "buttons.hold_s", "0.5 to 30"),
    ("[camera]\nfps = 0\n", "camera.fps", "1 to 120"),
    ("[passport]\ncooldown_seconds = -5\n", "passport.cooldown_seconds", "0 to 86400"),
    ("[kiosk]\nidle_seconds = 0\n", "kiosk.idle_seconds", "10 to 3600"),
]


@pytest.mark.parametrize(("text", "key", "allowed"), REFUSED, ids=[r[1] + ":" + r[0][:30] for r in REFUSED])
def test_config_check_refuses_with_file_key_and_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, key: str, allowed: str
) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["config", "check", "--config", str(path)]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert str(path) in line and key in line and allowed in line and len(line) < 600


def test_run_refuses_the_same_values_before_opening_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "kiosk.toml"
    path.write_text("[display]\nfps = 0\n")
    assert main(["run", "--headless", "--config", str(path)]) == 1
    assert "display.fps must be 1 to 120, not 0" in capsys.readouterr().err


def _fields() -> list[tuple[str, dataclasses.Field[Any]]]:
    return [(name, f) for name, cls in section_classes().items() for f in dataclasses.fields(cls)]


@pytest.mark.parametrize(("section", "field"), _fields(), ids=[f"{s}.{f.name}" for s, f in _fields()])
def test_every_key_has_a_range_or_a_choice_and_its_default_keeps_to_it(
    section: str, field: dataclasses.Field[Any]
) -> None:
    limits: Limits = field.metadata["limits"]
    default = field.default if field.default is not dataclasses.MISSING else field.default_factory()  # type: ignore[misc]
    assert limits.problem(default) is None, f"{section}.{field.name}'s default breaks its own limits"
    if field.type in ("int", "float"):
        assert limits.allowed() is not None or (limits.lo is not None and limits.hi is not None)
    elif field.type.startswith("list"):
        assert limits.length[1] < 1000 and (limits.allowed() is not None or limits.hi is not None)
    elif field.type == "str":
        assert limits.length[1] <= 4096 or limits.pattern or limits.allowed()
    else:
        assert field.type == "bool"


def test_the_template_says_what_each_key_allows() -> None:
    text = template().partition("\n# [games.")[0]  # the game options follow, commented, each engine checking its own
    keys = [line for line in text.splitlines() if re.match(r"(# )?[a-z_0-9]+ =( |$)", line)]
    allowed = [line for line in text.splitlines() if line.startswith("# allowed: ")]
    assert len(keys) == len(_fields()) == len(allowed)
    assert "# allowed: 1 to 120\nfps = 30" in text and "# allowed: 4 to 8 digits 0-9\nadmin_pin" in text


VALUES = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    st.booleans(),
    st.lists(st.integers(-5, 40), max_size=10),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_fields()), VALUES)
def test_any_value_is_accepted_within_its_limits_or_refused_naming_its_key(
    tmp_path: Path, key: tuple[str, dataclasses.Field[Any]], value: Any
) -> None:
    section, field = key
    path = tmp_path / "kiosk.toml"
    literal = {True: "true", False: "false"}.get(value, None) if isinstance(value, bool) else None
    toml_value = literal or (
        repr(value)
        if not isinstance(value, str)
        else '"' + value.encode("unicode_escape").decode().replace('"', '\\"') + '"'
    )
    if isinstance(value, float) and value != value:
        toml_value = "nan"
    elif isinstance(value, float) and value in (float("inf"), float("-inf")):
        toml_value = "inf" if value > 0 else "-inf"
    path.write_text(f"[{section}]\n{field.name} = {toml_value}\n", encoding="utf-8")
    try:
        config = load_config(path)
    except ConfigError as exc:
        assert str(path) in str(exc)
        return
    got = getattr(getattr(config, section), field.name)
    assert field.metadata["limits"].problem(got) is None
