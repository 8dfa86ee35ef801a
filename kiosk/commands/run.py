"""``kiosk run [--window] [--camera SPEC] [--config FILE]``: the kiosk itself."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from kiosk.config import load_config
from kiosk.display import choose_driver


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("run", help="run the kiosk (fullscreen; --window on a laptop)")
    p.add_argument("--config", type=Path, default=None, help="configuration file")
    p.add_argument("--window", action="store_true", help="a window instead of fullscreen")
    p.add_argument("--headless", action="store_true", help="no display at all (SDL dummy driver)")
    p.add_argument("--camera", default=None, help="camera spec, overrides the config (auto, virtual, 0, ...)")
    p.add_argument("--mode", choices=["passport", "referee"], default=None)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kiosk.devices.state import state_dir

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = load_config(args.config)
    if args.mode:
        config = config.replace("kiosk", mode=args.mode)
    driver = choose_driver(args.headless)
    from kiosk.runtime import build_services
    from kiosk.ui.app import App

    services = build_services(config, state=state_dir(), camera=args.camera)
    fullscreen = config.display.fullscreen and not args.window and driver != "dummy"
    app = App(config, services, fullscreen=fullscreen)
    try:
        app.run()
    finally:
        app.close()
    return 0
