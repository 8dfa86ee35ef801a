"""Arcade buttons on GPIO, each mapped to an app action by configuration.

``on_action`` (given to the constructor or assigned later by the app) is called from gpiozero's
thread with the action name; the app posts it as a pygame event, so the UI loop never touches
GPIO. A button with a hold
action (the operator menu, say) reports its press on release, unless it was held long enough.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Button, Factory

from kiosk.config import doc
from kiosk.devices import gpio
from kiosk.errors import ConfigError

#: What a button can do in the app: move the focus, press the focused button, go back, open the PIN pad.
ACTIONS: tuple[str, ...] = ("select", "next", "back", "admin")


@dataclass(frozen=True)
class ButtonsSettings:
    """Push buttons on GPIO, wired between a pin and ground."""

    pins: list[int] = doc("BCM pin numbers of the buttons (empty: no buttons).", [5, 6, 13], lo=0, hi=27, length=(0, 8))
    actions: list[str] = doc(
        "The app action of each button, in the order of pins.",
        ["select", "next", "back"],
        choices=ACTIONS,
        length=(0, 8),
    )
    hold_actions: list[str] = doc(
        'Action when a button is held ("" for none), in the order of pins.',
        ["", "", "admin"],
        choices=("", *ACTIONS),
        length=(0, 8),
    )
    hold_s: float = doc("Seconds a button must be held for its hold action.", 3.0, lo=0.5, hi=30)
    bounce_s: float = doc("Contact bounce ignored after a change, in seconds.", 0.05, lo=0, hi=1)
    pull_up: bool = doc("Buttons connect the pin to ground (internal pull-up); false: to 3.3 V.", True)

    def validate(self) -> None:
        """One action (and one hold action, or none at all) per pin, each pin once."""
        holds = self.hold_actions or [""] * len(self.pins)
        if len(self.actions) != len(self.pins) or len(holds) != len(self.pins):
            raise ConfigError(
                f"[buttons] pins, actions and hold_actions must be as long as each "
                f"other: {self.pins}, {self.actions}, {self.hold_actions}"
            )
        if len(set(self.pins)) != len(self.pins):
            raise ConfigError(f"[buttons] pins = {self.pins}: a pin is listed twice")


class Buttons:
    """The buttons of ``settings``; ``on_action(name)`` is called for each press or hold."""

    def __init__(
        self,
        settings: ButtonsSettings,
        on_action: Callable[[str], None] | None = None,
        pin_factory: Factory | None = None,
    ) -> None:
        settings.validate()
        holds = settings.hold_actions or [""] * len(settings.pins)
        factory = pin_factory or (gpio.pin_factory() if settings.pins else None)
        self.on_action = on_action
        self._buttons: list[Button] = []
        for pin, action, hold in zip(settings.pins, settings.actions, holds, strict=True):
            button = Button(
                pin,
                pull_up=settings.pull_up,
                bounce_time=settings.bounce_s or None,
                hold_time=settings.hold_s,
                pin_factory=factory,
            )
            if hold:
                self._wire_hold(button, action, hold)
            else:
                button.when_pressed = self._fire(action)
            self._buttons.append(button)

    def _fire(self, action: str) -> Callable[[], None]:
        return lambda: self._deliver(action)

    def _deliver(self, action: str) -> None:
        if self.on_action is not None:
            self.on_action(action)

    def _wire_hold(self, button: Button, action: str, hold: str) -> None:
        """``hold`` once the button is held ``hold_s``; otherwise ``action`` when released."""
        held = False

        def pressed() -> None:
            nonlocal held
            held = False

        def held_down() -> None:
            nonlocal held
            held = True
            self._deliver(hold)

        def released() -> None:
            if not held:
                self._deliver(action)

        button.when_pressed, button.when_held, button.when_released = pressed, held_down, released

    def close(self) -> None:
        for button in self._buttons:
            button.close()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
