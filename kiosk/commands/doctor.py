"""``kiosk doctor [--json]``: check the configuration, state directory and its medium, disk, models,
camera, printer and its port, GPIO, SDL's video drivers, display, numpy's origin, the clock and the
operator PIN."""

from __future__ import annotations

import argparse
import json

from kiosk.doctor import FAIL, as_json, report, run_checks


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("doctor", help="check the hardware and the installation; non-zero if broken")
    p.add_argument("--json", action="store_true", help="machine-readable output (kiosk.doctor.as_json)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    results = run_checks()
    if args.json:
        print(json.dumps(as_json(results), indent=2, ensure_ascii=False))
    else:
        print(report(results))
    return 1 if any(r.status == FAIL for r in results) else 0
