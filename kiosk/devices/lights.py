"""Status lights: a semantic state (idle, card seen, valid, violation, printing, fault) shown on
a plain LED, a PWM LED or an RGB LED, whichever the box has.

Which colour and rhythm each state gets is data (:data:`PATTERNS`), not code: an RGB LED shows
the colour; a single LED shows the rhythm (a plain LED cannot breathe, so it glows steadily).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gpiozero import LED, PWMLED, RGBLED, Factory

from kiosk.config import doc
from kiosk.devices import gpio
from kiosk.errors import ConfigError

KINDS: dict[str, int] = {"none": 0, "led": 1, "pwm": 1, "rgb": 3}  # kind -> pins it needs


@dataclass(frozen=True)
class LightsSettings:
    """The status light on GPIO."""

    kind: str = doc("none, led (on/off), pwm (dimmable LED) or rgb (three pins).", "rgb", choices=tuple(KINDS))
    pins: list[int] = doc(
        "BCM pin numbers: one for led/pwm, red green blue for rgb.", [17, 27, 22], lo=0, hi=27, length=(0, 3)
    )
    active_high: bool = doc("false for a common-anode RGB LED (lit when the pin is low).", True)
    brightness: float = doc("Brightness of the lit states, 0..1 (pwm and rgb).", 1.0, lo=0, hi=1)

    def validate(self) -> None:
        """As many pins as the kind needs, unless there is no light (the config loader calls
        this; so does :class:`Lights`)."""
        if self.kind not in KINDS:
            raise ConfigError(f"[lights] kind = {self.kind!r}: choose one of {', '.join(KINDS)}")
        if self.kind != "none" and len(self.pins) != KINDS[self.kind]:
            raise ConfigError(f"[lights] kind = {self.kind!r} needs {KINDS[self.kind]} pin(s), got pins = {self.pins}")


class LightState(StrEnum):
    OFF = "off"
    IDLE = "idle"  # waiting for a card: slow breathing
    CARD_SEEN = "card_seen"  # a card is in view
    VALID = "valid"  # a good move, a stamp requested
    VIOLATION = "violation"  # a rule broken
    PRINTING = "printing"
    FAULT = "fault"  # printer out of paper or offline, camera lost


@dataclass(frozen=True)
class Pattern:
    """A colour and a rhythm: ``steady``, ``blink`` (``on_s``/``off_s``) or ``pulse`` (fade in and
    out over ``on_s``/``off_s``)."""

    colour: tuple[float, float, float]
    rhythm: str = "steady"
    on_s: float = 0.0
    off_s: float = 0.0


PATTERNS: dict[LightState, Pattern] = {
    LightState.OFF: Pattern((0.0, 0.0, 0.0)),
    LightState.IDLE: Pattern((0.0, 0.3, 1.0), "pulse", 1.5, 1.5),
    LightState.CARD_SEEN: Pattern((1.0, 1.0, 1.0)),
    LightState.VALID: Pattern((0.0, 1.0, 0.0)),
    LightState.VIOLATION: Pattern((1.0, 0.0, 0.0), "blink", 0.15, 0.15),
    LightState.PRINTING: Pattern((1.0, 0.5, 0.0), "blink", 0.5, 0.5),
    LightState.FAULT: Pattern((1.0, 0.0, 0.0), "blink", 0.1, 0.4),
}


class Lights:
    """The status light. ``show(state)`` returns at once; blinking runs in gpiozero's thread."""

    def __init__(self, settings: LightsSettings, pin_factory: Factory | None = None) -> None:
        settings.validate()
        self.settings = settings
        self.state = LightState.OFF
        factory = pin_factory or (None if settings.kind == "none" else gpio.pin_factory())
        common = {"active_high": settings.active_high, "pin_factory": factory}
        self._device: LED | PWMLED | RGBLED | None = {
            "none": lambda: None,
            "led": lambda: LED(settings.pins[0], **common),
            "pwm": lambda: PWMLED(settings.pins[0], **common),
            "rgb": lambda: RGBLED(*settings.pins, **common),
        }[settings.kind]()

    def show(self, state: LightState | str) -> None:
        """Switch to ``state``'s pattern (a state shown again keeps its rhythm running)."""
        state = LightState(state)
        if state == self.state:
            return
        self.state = state
        dev, p = self._device, PATTERNS[state]
        if dev is None:
            return
        colour = tuple(c * self.settings.brightness for c in p.colour)
        level = max(colour)
        if isinstance(dev, RGBLED):
            if p.rhythm == "blink":
                dev.blink(p.on_s, p.off_s, on_color=colour)
            elif p.rhythm == "pulse":
                dev.pulse(p.on_s, p.off_s, on_color=colour)
            else:
                dev.color = colour
        elif isinstance(dev, PWMLED):
            if p.rhythm == "blink":
                dev.blink(p.on_s, p.off_s)
            elif p.rhythm == "pulse":
                dev.pulse(p.on_s, p.off_s)
            else:
                dev.value = level
        elif p.rhythm == "blink":
            dev.blink(p.on_s, p.off_s)
        else:  # a plain LED glows for steady and breathing states alike
            dev.value = level > 0

    def close(self) -> None:
        if self._device is not None:
            self._device.close()

    def __enter__(self) -> Lights:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
