"""``kiosk printer status|test``: the printer's state and the stamp counters, or a test page.

Both open the printer directly, so stop the kiosk service first (one process owns the port);
while the kiosk runs, the operator menu prints the test page through the queue instead.
"""

from __future__ import annotations

import argparse
from datetime import datetime

from escpos.exceptions import Error as EscposError

from kiosk.config import load_config
from kiosk.devices.printer import check_settings, describe, open_printer, print_stamp, probe
from kiosk.devices.queue import open_queue
from kiosk.devices.service import QUEUE_FILE
from kiosk.devices.stamp import render_test_page
from kiosk.devices.state import state_dir
from kiosk.errors import KioskError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("printer", help="printer status and stamp counters, or print a test page")
    p.add_argument("action", choices=("status", "test"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = load_config()
    settings = config.printer
    check_settings(settings)
    if settings.backend == "none":
        raise KioskError('no printer configured ([printer] backend = "none")')
    try:
        printer = open_printer(settings)
        state = probe(printer, settings)
        if args.action == "test" and not state.holds:
            lines = [
                config.kiosk.name,
                describe(settings),
                f"{settings.width} dots, {settings.profile}",
                datetime.now().strftime("%d.%m.%Y %H:%M"),
            ]
            print_stamp(printer, render_test_page(settings.width, lines), settings)
        printer.close()
    except (OSError, EscposError) as exc:
        raise KioskError(f"printer {describe(settings)}: {' '.join(str(exc).split())}") from exc
    print(f"printer {describe(settings)}: {state.name.lower()}")
    if args.action == "status":
        with open_queue(state_dir() / QUEUE_FILE) as queue:
            print("  ".join(f"{k} {v}" for k, v in queue.counters().items()))
    return 1 if state.holds else 0
