"""``kiosk demo [--headless] --seconds N --out DIR [--summary FILE.json]``: the whole kiosk on the
virtual table and a simulated printer, with screenshots, printed stamps and a summary."""

from __future__ import annotations

import argparse
import dataclasses
import logging
from pathlib import Path
from typing import Any

from kiosk.config import load_config
from kiosk.devices.state import FAULTS
from kiosk.display import choose_driver
from kiosk.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help="run the kiosk on the virtual table and a simulated printer")
    p.add_argument("--seconds", type=float, default=60.0, help="how long to run (default 60)")
    p.add_argument("--out", type=Path, default=Path("demo-out"), help="screenshots, stamps, summary")
    p.add_argument("--summary", type=Path, default=None, help="JSON summary file (default OUT/summary.json)")
    p.add_argument("--headless", action="store_true", help="no window (also when there is no display)")
    p.add_argument("--camera", default="virtual", help="virtual (default) or chaos")
    p.add_argument("--printer", default="dummy", help="dummy (default) or flaky")
    p.add_argument("--state-dir", type=Path, default=None, help="queue and counters (default OUT/state)")
    p.add_argument("--size", default="1024x600", help="screen size WxH (default 1024x600)")
    p.set_defaults(func=run)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size must be WxH like 1024x600, not {text!r}") from None
    if not (320 <= w <= 4096 and 240 <= h <= 4096):
        raise UsageError(f"--size {text}: width 320..4096 and height 240..4096")
    return w, h


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.seconds <= 24 * 3600:
        raise UsageError("--seconds must be between 1 and 86400")
    if args.camera not in ("virtual", "chaos"):
        raise UsageError(f"--camera must be virtual or chaos, not {args.camera!r}")
    if args.printer not in ("dummy", "flaky"):
        raise UsageError(f"--printer must be dummy or flaky, not {args.printer!r}")
    size = _size(args.size)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    choose_driver(args.headless)

    from kiosk.demo import build_script, run_demo, write_summary
    from kiosk.runtime import build_services
    from kiosk.ui.app import App

    out: Path = args.out
    state = args.state_dir or out / "state"
    stamps_dir = out / "stamps"
    for option, folder in (("--out", out), ("--state-dir", state), ("--out", stamps_dir)):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise UsageError(f"{option} {folder}: a file is in the way; give a folder") from None
        except OSError as exc:
            raise UsageError(f"{option} {folder}: cannot create the folder ({exc.strerror})") from None
    config = load_config(Path("/nonexistent/kiosk-demo.toml"))  # the documented defaults
    config = config.replace("display", fullscreen=False)
    config = config.replace("kiosk", idle_seconds=max(config.kiosk.idle_seconds, args.seconds + 10))
    printer = dataclasses.replace(config.printer, backend="dummy", strip_pause_s=0.01)
    script = build_script(args.seconds)
    printed: list[str] = []
    source_options: dict[str, object] = {
        "deck_id": "affiche-belge",
        "script": script.table,
        "mat": True,
        "realtime": True,
    }
    faults: dict[str, Any] = {}
    connect = None
    if args.camera == "chaos":
        from kiosk.vision.sources.chaos import ChaosLog

        source_options["log"] = faults["camera"] = ChaosLog()
    if args.printer == "flaky":
        from kiosk.devices.flaky import FlakyPrinter

        flaky = FlakyPrinter(seed=1, every=3.0, duration=2.0)  # most stamps meet a fault
        faults["printer"] = flaky.log
        connect = lambda: flaky  # noqa: E731 - the same misbehaving device after each reconnect

    def on_printed(job: Any) -> None:
        card_id = job.card_id
        (stamps_dir / f"{len(printed) + 1:02d}-{card_id}.png").write_bytes(job.image)
        printed.append(card_id)
        if "printer" in faults:
            faults["printer"].printed()

    services = build_services(
        config,
        state=state,
        camera=args.camera,
        printer=printer,
        source_options=source_options,
        connect_printer=connect,
        on_printed=on_printed,
        demo=True,
    )
    app = App(config, services, size=size, fullscreen=False)
    try:
        table = run_demo(
            app, script, args.seconds, out, lambda: getattr(getattr(services.vision, "source", None), "index", 0)
        )
    finally:
        from kiosk.demo import wait_for

        stamps = services.stamps
        if stamps is not None:
            wait_for(lambda: stamps.pending() == 0, timeout=10.0)
        counters = stamps.counters() if stamps is not None else {}
        pending = stamps.pending() if stamps is not None else 0
        app.close()
    requested, parked = app.passport.requested, counters.get("parked_now", 0)
    summary = {
        **table,
        "stamps_requested": requested,
        "stamps_printed": len(printed),
        "stamps_pending": pending,
        "stamps_parked": parked,
        "stamps_lost": max(0, requested - len(printed) - pending - parked),
        "stamps_refused": dict(sorted(app.passport.refusals.items())),  # by reason: cool-down, storage, ...
        "queue": counters,
        "stamp_files": sorted(p.name for p in stamps_dir.glob("*.png")),
        "faults": {name: log.summary() for name, log in faults.items()},  # type: ignore[attr-defined]
        "storage": FAULTS.summary(),  # state files failing now, and those set aside or recovered
    }
    write_summary(args.summary or out / "summary.json", summary)
    refused = ", ".join(f"{key.rsplit('.', 1)[1]} {n}" for key, n in summary["stamps_refused"].items())
    storage = [*FAULTS.current().values(), *FAULTS.events()]
    print(
        f"demo: {summary['frames']} frames at {summary['fps']} fps; cards shown {summary['cards_shown']}, "
        f"confirmed {summary['cards_confirmed']} ({len(summary['confirmed'])} confirmations), "
        f"false {summary['false_confirmations']}; stamps requested {requested}, printed {len(printed)}, "
        f"parked {parked}, lost {summary['stamps_lost']}, refused {sum(app.passport.refusals.values())}"
        f"{f' ({refused})' if refused else ''}; output in {out}"
    )
    for line in storage:
        print(f"demo: storage: {line}")

    return 0 if summary["false_confirmations"] == 0 and summary["stamps_lost"] == 0 else 1
