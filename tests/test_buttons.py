"""Buttons on gpiozero's MockFactory: a press calls the app with the button's action; a button
with a hold action reports the hold after ``hold_s`` and then no press."""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from kiosk.devices.buttons import Buttons, ButtonsSettings
from kiosk.errors import ConfigError

SETTINGS = ButtonsSettings(
    pins=[5, 6, 13],
    actions=["select", "next", "back"],
    hold_actions=["", "", "admin"],
    hold_s=0.3,
    bounce_s=0.0,
)


@pytest.fixture
def factory() -> MockFactory:
    f = MockFactory()
    yield f
    f.close()


@pytest.fixture
def actions(factory: MockFactory):  # type: ignore[no-untyped-def]
    got: queue.Queue[str] = queue.Queue()
    buttons = Buttons(SETTINGS, got.put, pin_factory=factory)
    yield got
    buttons.close()


def test_pins_are_pulled_up_and_a_press_to_ground_fires_the_action(factory: MockFactory, actions: queue.Queue) -> None:
    pin = factory.pin(6)
    assert pin.state == 1  # idle button: internal pull-up
    pin.drive_low()
    assert actions.get(timeout=5) == "next"
    pin.drive_high()
    factory.pin(5).drive_low()
    assert actions.get(timeout=5) == "select"
    assert actions.empty()


def test_a_short_press_of_a_hold_button_fires_on_release(factory: MockFactory, actions: queue.Queue) -> None:
    pin = factory.pin(13)
    pin.drive_low()
    assert actions.empty()  # nothing yet: it may become a hold
    pin.drive_high()
    assert actions.get(timeout=5) == "back"


def test_holding_fires_the_hold_action_after_hold_s_and_no_press(factory: MockFactory, actions: queue.Queue) -> None:
    pin = factory.pin(13)
    pressed = time.monotonic()
    pin.drive_low()
    assert actions.get(timeout=5) == "admin"
    assert time.monotonic() - pressed >= SETTINGS.hold_s * 0.95  # never before hold_s
    pin.drive_high()
    with pytest.raises(queue.Empty):
        actions.get(timeout=0.2)


def test_buttons_wired_to_3v3_use_pull_down(factory: MockFactory) -> None:
    got: list[str] = []
    settings = ButtonsSettings(pins=[16], actions=["select"], hold_actions=[], pull_up=False)
    with Buttons(settings, got.append, pin_factory=factory):
        pin = factory.pin(16)
        assert pin.state == 0
        pin.drive_high()
    assert got == ["select"]


def test_the_app_can_take_over_the_callback_after_construction(factory: MockFactory) -> None:
    posted: list[str] = []
    with Buttons(SETTINGS, pin_factory=factory) as buttons:
        factory.pin(5).drive_low()  # nobody listening yet: dropped
        factory.pin(5).drive_high()
        buttons.on_action = posted.append
        factory.pin(5).drive_low()
    assert posted == ["select"]


def test_actions_must_match_pins() -> None:
    with pytest.raises(ConfigError, match="as long as"):
        Buttons(
            ButtonsSettings(pins=[5, 6], actions=["select"], hold_actions=[]),
            print,
            pin_factory=MockFactory(),
        )


def test_no_buttons_configured_uses_no_pin() -> None:
    with Buttons(ButtonsSettings(pins=[], actions=[], hold_actions=[]), print):
        pass
