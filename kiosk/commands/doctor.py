"""``kiosk doctor``: check camera, model, printer, GPIO, display, state directory, disk, config."""

from __future__ import annotations

import argparse
import json

from kiosk.doctor import FAIL, report, run_checks


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("doctor", help="check the hardware and the installation; non-zero if broken")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    results = run_checks()
    if args.json:
        print(json.dumps([r.__dict__ for r in results], indent=2, ensure_ascii=False))
    else:
        print(report(results))
    return 1 if any(r.status == FAIL for r in results) else 0
