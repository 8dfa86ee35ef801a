"""The status light on gpiozero's MockFactory: which pins light for each state, and the rhythm
of the blinking states (durations are checked as lower bounds, never as upper limits)."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from kiosk.devices.lights import PATTERNS, Lights, LightsSettings, LightState
from kiosk.errors import ConfigError

RGB = LightsSettings(kind="rgb", pins=[17, 27, 22])


@pytest.fixture
def factory() -> MockFactory:
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.close()


def levels(factory: MockFactory, pins: list[int]) -> list[float]:
    return [factory.pin(p).state for p in pins]


@pytest.mark.parametrize(
    ("state", "expected"),
    [(LightState.VALID, [0, 1, 0]), (LightState.CARD_SEEN, [1, 1, 1]), (LightState.OFF, [0, 0, 0])],
)
def test_steady_states_set_the_rgb_pins(factory: MockFactory, state: LightState, expected: list[int]) -> None:
    with Lights(RGB, pin_factory=factory) as lights:
        lights.show(LightState.PRINTING)
        lights.show(state)
        assert levels(factory, RGB.pins) == expected


def test_the_app_may_name_states_as_strings(factory: MockFactory) -> None:
    with Lights(RGB, pin_factory=factory) as lights:
        lights.show("card_seen")
        assert lights.state is LightState.CARD_SEEN and levels(factory, RGB.pins) == [1, 1, 1]
        with pytest.raises(ValueError):
            lights.show("disco")


def test_common_anode_rgb_is_driven_inverted(factory: MockFactory) -> None:
    settings = LightsSettings(kind="rgb", pins=[17, 27, 22], active_high=False)
    with Lights(settings, pin_factory=factory) as lights:
        lights.show(LightState.VALID)
        assert levels(factory, settings.pins) == [1, 0, 1]


def test_brightness_scales_the_colour(factory: MockFactory) -> None:
    with Lights(LightsSettings(kind="pwm", pins=[18], brightness=0.25), pin_factory=factory) as lights:
        lights.show(LightState.VALID)
        assert factory.pin(18).state == pytest.approx(0.25)


def blink_phases(states: list, level: float) -> tuple[list[float], list[float]]:
    """(durations lit, durations dark) of a recorded blink, from gpiozero's PinState list (each
    entry's timestamp is the time since the previous change); the last phase, cut short by
    switching the light off, is left out."""
    lit, dark = [], []
    for prev, cur in zip(states[1:-1], states[2:-1], strict=False):
        (lit if prev.state == level else dark).append(cur.timestamp)
    return lit, dark


@pytest.mark.parametrize("state", [LightState.VIOLATION, LightState.FAULT])
def test_blinking_states_alternate_red_with_their_on_and_off_times(factory: MockFactory, state: LightState) -> None:
    pattern = PATTERNS[state]
    red = factory.pin(17)
    with Lights(RGB, pin_factory=factory) as lights:
        red.clear_states()
        lights.show(state)
        time.sleep(2.2 * (pattern.on_s + pattern.off_s))
        lights.show(LightState.OFF)
        states = list(red.states)
    values = [s.state for s in states[1:]]
    assert values[:4] == [1, 0, 1, 0]
    lit, dark = blink_phases(states, 1)
    assert lit and dark
    assert min(lit) >= pattern.on_s * 0.95 and min(dark) >= pattern.off_s * 0.95
    assert factory.pin(27).states[-1].state == 0 and factory.pin(22).states[-1].state == 0


def test_idle_breathes_through_intermediate_levels(factory: MockFactory) -> None:
    blue = factory.pin(22)
    with Lights(RGB, pin_factory=factory) as lights:
        blue.clear_states()
        lights.show(LightState.IDLE)
        time.sleep(0.3)
        rising = [s.state for s in blue.states[1:4]]
    assert len(rising) == 3 and all(0 < v < 1 for v in rising)
    assert rising == sorted(rising)  # a breath starts by fading in


def test_plain_led_blinks_for_printing_and_glows_for_idle(factory: MockFactory) -> None:
    pin, pattern = factory.pin(23), PATTERNS[LightState.PRINTING]
    with Lights(LightsSettings(kind="led", pins=[23]), pin_factory=factory) as lights:
        lights.show(LightState.PRINTING)
        time.sleep(pattern.on_s + pattern.off_s * 1.5)
        lights.show(LightState.IDLE)
        assert pin.state == 1
        states = list(pin.states)
    assert [s.state for s in states[1:3]] == [True, False]
    assert states[2].timestamp >= pattern.on_s * 0.95


@pytest.mark.parametrize(
    ("settings", "message"),
    [(LightsSettings(kind="rgb", pins=[17]), "needs 3 pin"), (LightsSettings(kind="neon"), "kind")],
)
def test_wrong_pin_count_or_kind_is_a_config_error(settings: LightsSettings, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Lights(settings, pin_factory=MockFactory())


def test_no_light_configured_uses_no_pin() -> None:
    lights = Lights(LightsSettings(kind="none", pins=[]))
    lights.show(LightState.FAULT)
    assert lights.state is LightState.FAULT
