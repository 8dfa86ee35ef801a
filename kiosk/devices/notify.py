"""systemd's sd_notify protocol (READY, WATCHDOG, STATUS) without any extra dependency.

The unit is ``Type=notify`` with ``WatchdogSec``: the app calls :func:`ready` once its first
frame is on screen and :func:`watchdog` from its main loop, so a frozen loop is restarted by
systemd. Outside systemd (no ``$NOTIFY_SOCKET``) every call is a cheap no-op.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send ``message`` (``READY=1``, ``WATCHDOG=1`` ...) to systemd; False when not under it."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # abstract namespace socket
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
        try:
            sock.sendto(message.encode("utf-8"), address)
        except OSError:
            return False
    return True


def ready(status: str = "") -> bool:
    """Tell systemd the kiosk is up (the unit leaves "activating")."""
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def watchdog() -> bool:
    """The main loop is alive; must come more often than ``WatchdogSec``."""
    return notify("WATCHDOG=1")


def status(text: str) -> bool:
    """A one-line status shown by ``systemctl status kiosk``."""
    return notify(f"STATUS={text}")


def stopping() -> bool:
    """The kiosk is shutting down on purpose."""
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """Seconds between pings the app should keep (half of ``WatchdogSec``), None when unwatched."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 2_000_000
    except ValueError:
        return None
