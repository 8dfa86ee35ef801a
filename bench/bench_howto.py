"""What the how-to-play costs: drawing each game's pictures (in the worker thread, off the frame
path) and drawing its screen once they are ready (on the frame path), headless.

    .venv/bin/python bench/bench_howto.py [--size 800x480] [--repeat 20]

Prints, per game, the milliseconds to draw all its pictures at the screen's picture box and the
median milliseconds of one draw of each page; the machine is shared, so compare runs on the same
machine only.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

import pygame  # noqa: E402

from kiosk.config import load_config  # noqa: E402
from kiosk.howto import GUIDES  # noqa: E402
from kiosk.runtime import build_services  # noqa: E402
from kiosk.ui import howto_art  # noqa: E402
from kiosk.ui.app import App  # noqa: E402
from kiosk.ui.screens.howto import HowtoScreen, areas  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="800x480", help="screen size, WIDTHxHEIGHT")
    parser.add_argument("--repeat", type=int, default=20, help="draws of each page to take the median of")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    assert len(size) == 2, "--size is WIDTHxHEIGHT"
    box = areas(size)[0].size  # type: ignore[arg-type]
    config = load_config(Path("/nonexistent.toml")).replace("display", fullscreen=False)
    config = config.replace("lights", kind="none").replace("buttons", pins=[])
    printer = dataclasses.replace(config.printer, backend="dummy")
    with tempfile.TemporaryDirectory() as state:
        services = build_services(config, state=Path(state), camera="/dev/video-absent", printer=printer, demo=True)
        app = App(config, services, size=size, fullscreen=False)  # type: ignore[arg-type]
        surface = pygame.Surface(size)
        print(f"{'game':<14} {'pictures ms':>12} {'draw ms':>8}   (picture box {box[0]}x{box[1]})")
        for game, guide in GUIDES.items():
            start = time.perf_counter()
            for page in range(guide.pages):
                howto_art.draw_picture(game, page, box)
            pictures = (time.perf_counter() - start) * 1000
            screen = HowtoScreen(app, game=game)
            screen.enter()
            draws = []
            for page in range(guide.pages):
                howto_art.picture(game, page, box, wait=60)
                screen.page = page
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    screen.layout(size)  # type: ignore[arg-type]
                    screen.draw(surface)
                    draws.append((time.perf_counter() - start) * 1000)
            print(f"{game:<14} {pictures:>12.0f} {statistics.median(draws):>8.1f}")
        app.close()


if __name__ == "__main__":
    main()
