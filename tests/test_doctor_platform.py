"""``kiosk doctor`` on the things that stop an installed Pi (issue 52): SDL without the video
driver the unit asks for, pip's numpy hiding apt's, the printer on the Pi 5's debug UART, an
untrusted clock, a state directory kept in RAM, the documented operator PIN."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kiosk.devices import gpio
from kiosk.doctor import CHECKS, FAIL, OK, WARN, run_checks


def one(name: str) -> tuple[str, str, dict]:
    result = {r.name: r for r in run_checks({name: CHECKS[name]})}[name]
    return result.status, result.detail, result.facts


def test_sdl_without_the_driver_asked_for_fails_and_lists_what_it_has(
    kiosk_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PyPI's pygame bundles an SDL without kmsdrm: under SDL_VIDEODRIVER=kmsdrm the display
    never opens on Pi OS Lite. The doctor reads the drivers of the SDL pygame really loaded."""
    from kiosk.display import sdl_video_drivers

    found = sdl_video_drivers()
    assert found is not None
    library, drivers = found
    assert "libSDL2" in library and "dummy" in drivers
    missing = "kmsdrm" if "kmsdrm" not in drivers else "no-such-driver"
    monkeypatch.setenv("SDL_VIDEODRIVER", missing)
    status, detail, facts = one("SDL video")
    assert status == FAIL and f"SDL_VIDEODRIVER={missing}" in detail and "python3-pygame" in detail
    assert facts["drivers"] == drivers and facts["wanted"] == [missing]
    monkeypatch.setenv("SDL_VIDEODRIVER", f"{missing},dummy")  # SDL tries a list in turn
    assert one("SDL video")[0] == OK


@pytest.mark.parametrize(
    ("apt", "visible", "status"), [("1.24.2", True, FAIL), ("1.24.2", False, OK), (None, True, OK)]
)
def test_pip_numpy_hiding_apts_breaks_apts_picamera2(
    kiosk_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, apt: str | None, visible: bool, status: str
) -> None:
    """In a venv with the system's packages, pip's numpy 2 over Bookworm's 1.24 breaks apt's
    picamera2 and simplejpeg (built against 1.24); a venv that cannot see apt's is not at risk."""
    import numpy

    if numpy.__file__.startswith("/usr/lib/python3/"):
        pytest.skip("this interpreter's numpy is apt's")
    site = tmp_path / "dist-packages"
    site.mkdir()
    if apt:
        (site / f"numpy-{apt}.egg-info").mkdir()
        if numpy.__version__.split(".")[0] == apt.split(".")[0]:
            status = WARN if visible else OK  # same major version: works, still not apt's
    monkeypatch.setattr("kiosk.doctor.APT_SITE", site)
    if visible:
        monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    result, detail, facts = one("numpy")
    assert result == status and facts["origin"] == "pip" and facts["apt_version"] == apt
    if status != OK:
        assert f"apt's numpy {apt}" in detail and "install.sh" in detail


def test_a_pi5_printer_on_serial0_is_the_debug_uart(kiosk_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a Pi 5, /dev/serial0 is the debug header (ttyAMA10): pins 8 and 10 are /dev/ttyAMA0."""
    monkeypatch.setattr(gpio, "board_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    status, detail, facts = one("printer")
    assert status == FAIL and "/dev/ttyAMA0" in detail and "dtparam=uart0=on" in detail
    assert facts["header_uart"] == "/dev/ttyAMA0" and facts["port"] == "/dev/serial0"


@pytest.mark.parametrize(
    ("model", "uart"),
    [
        ("Raspberry Pi 5 Model B Rev 1.0", "/dev/ttyAMA0"),
        ("Raspberry Pi 500 Rev 1.0", "/dev/ttyAMA0"),
        ("Raspberry Pi Compute Module 5 Rev 1.0", "/dev/ttyAMA0"),
        ("Raspberry Pi 4 Model B Rev 1.5", "/dev/serial0"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "/dev/serial0"),
        ("", "/dev/serial0"),
    ],
)
def test_the_printer_uart_follows_the_board(model: str, uart: str) -> None:
    assert gpio.header_uart(model) == uart


def test_the_default_operator_pin_is_reported_and_fails_on_a_pi(
    kiosk_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert one("operator PIN")[:1] == (WARN,)
    monkeypatch.setattr(gpio, "board_model", lambda: "Raspberry Pi 4 Model B Rev 1.5")
    status, detail, facts = one("operator PIN")
    assert status == FAIL and "1830" in detail and facts == {"changed": False}
    kiosk_env.write_text('[kiosk]\nadmin_pin = "402917"\n')
    assert one("operator PIN")[0] == OK


def test_an_untrusted_clock_is_a_warning(kiosk_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("kiosk.clock.SYNCHRONISED", tmp_path / "synchronized")
    monkeypatch.setattr("kiosk.clock.RTC", tmp_path / "rtc0")
    status, detail, facts = one("clock")
    assert status == WARN and "no date" in detail and "BOM.md" in detail and facts["trusted"] is False
    (tmp_path / "synchronized").touch()
    assert one("clock")[0] == OK


def test_a_state_directory_on_a_ram_overlay_is_a_warning(kiosk_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk import mounts

    state = str((kiosk_env.parent / "state").resolve())
    table = mounts.mounts(
        f"1 0 0:1 / / rw - overlay overlayroot rw,lowerdir=/media/root-ro,upperdir={state}-rw/up\n"
        f"2 1 0:2 / {state}-rw rw - tmpfs tmpfs-root rw\n"
    )
    monkeypatch.setattr(mounts, "mount_table", lambda: table)
    status, detail, facts = one("state medium")
    assert status == WARN and "POWER.md" in detail and facts["in_memory"] is True
