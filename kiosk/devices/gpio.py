"""The gpiozero pin factory shared by the lights and the buttons.

On a Raspberry Pi the lgpio factory drives the real pins; if it cannot load there, the kiosk
stops with an error rather than silently running a demo on simulated pins. Anywhere else
(a laptop at a fair, CI) gpiozero's MockFactory stands in, and the log says so once.
"""

from __future__ import annotations

import logging
import os
import re
from functools import cache
from pathlib import Path

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from kiosk.errors import KioskError

log = logging.getLogger(__name__)
_MODEL_FILES = (Path("/proc/device-tree/model"), Path("/sys/firmware/devicetree/base/model"))
#: The boards with the BCM2712 (Pi 5, Pi 500, Compute Module 5), whose UARTs are laid out anew.
_PI5_FAMILY = re.compile(r"Raspberry Pi (5|500|Compute Module 5)\b")


def board_model() -> str:
    """The device-tree model string ("Raspberry Pi 5 Model B Rev 1.0"), empty off a Pi."""
    for path in _MODEL_FILES:
        try:
            return path.read_bytes().rstrip(b"\0").decode("ascii", "replace")
        except OSError:
            continue
    return ""


def is_raspberry_pi() -> bool:
    return board_model().startswith("Raspberry Pi")


def header_uart(model: str | None = None) -> str:
    """The serial device on header pins 8 and 10 (GPIO14 TXD, GPIO15 RXD), where the printer is
    wired, for the board ``model`` (default this one): ``/dev/ttyAMA0`` on a Pi 5 (after
    ``dtparam=uart0=on``; its ``/dev/serial0`` is the debug header's ttyAMA10), ``/dev/serial0``
    on the earlier boards (after ``enable_uart=1``)."""
    return "/dev/ttyAMA0" if _PI5_FAMILY.match(board_model() if model is None else model) else "/dev/serial0"


@cache
def pin_factory() -> Factory:
    """lgpio on a Pi (an error if it fails), MockFactory elsewhere or when asked for by
    ``GPIOZERO_PIN_FACTORY=mock``; one factory per process, so pins are reserved once."""
    wanted = os.environ.get("GPIOZERO_PIN_FACTORY", "").lower()
    if wanted == "mock" or not is_raspberry_pi():
        reason = "GPIOZERO_PIN_FACTORY=mock" if wanted == "mock" else "not a Raspberry Pi"
        log.warning("GPIO pins are simulated (gpiozero MockFactory): %s", reason)
        return MockFactory(pin_class=MockPWMPin)
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as exc:  # lgpio raises its own error types, ImportError when absent
        raise KioskError(
            f"GPIO: the lgpio pin factory does not work on this {board_model()}: {exc}. "
            "Install python3-lgpio and add the kiosk user to the gpio group (hardware/install.sh)"
        ) from exc
