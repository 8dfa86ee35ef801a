"""The pin factory: MockFactory off the Pi (said in the log), lgpio on a Pi, and a Pi that
cannot load lgpio is an error, never a silent demo."""

from __future__ import annotations

import logging

import pytest
from gpiozero.pins.mock import MockFactory

from kiosk.devices import gpio
from kiosk.doctor import FAIL, check_gpio
from kiosk.errors import KioskError


@pytest.fixture(autouse=True)
def fresh_factory():  # type: ignore[no-untyped-def]
    gpio.pin_factory.cache_clear()
    yield
    gpio.pin_factory.cache_clear()


def test_off_the_pi_pins_are_simulated_and_the_log_says_so_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(gpio, "board_model", lambda: "")
    with caplog.at_level(logging.WARNING, logger="kiosk.devices.gpio"):
        first, second = gpio.pin_factory(), gpio.pin_factory()
    assert isinstance(first, MockFactory) and first is second
    assert [r.getMessage() for r in caplog.records] == [
        "GPIO pins are simulated (gpiozero MockFactory): not a Raspberry Pi"
    ]


def test_a_pi_without_a_working_lgpio_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(gpio, "board_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    import sys

    monkeypatch.setitem(sys.modules, "lgpio", None)  # as if python3-lgpio were not installed
    with pytest.raises(KioskError, match="lgpio pin factory does not work on this Raspberry Pi 5"):
        gpio.pin_factory()


def test_doctor_fails_a_pi_running_on_simulated_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(gpio, "board_model", lambda: "Raspberry Pi 4 Model B Rev 1.5")
    status, detail = check_gpio(None)  # type: ignore[arg-type]
    assert status == FAIL and "simulated" in detail
