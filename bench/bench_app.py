"""The kiosk's UI frame rate and the time from a card's arrival on the table to its stamp being
queued, on the virtual table with the real pipeline (headless).

    .venv/bin/python bench/bench_app.py [--seconds 40]

Prints medians; the machine is shared, so compare runs on the same machine only.
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

from kiosk.config import load_config  # noqa: E402
from kiosk.demo import build_script  # noqa: E402
from kiosk.render.timeline import FPS  # noqa: E402
from kiosk.runtime import build_services  # noqa: E402
from kiosk.ui.app import App  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    script = build_script(args.seconds)
    script.steps = [s for s in script.steps if s.shot is None]  # no screenshots in a bench
    config = load_config(Path("/nonexistent.toml")).replace("display", fullscreen=False)
    printer = dataclasses.replace(config.printer, backend="dummy", strip_pause_s=0.0)
    with tempfile.TemporaryDirectory() as state:
        services = build_services(
            config,
            state=Path(state),
            camera="virtual",
            printer=printer,
            source_options={"deck_id": "affiche-belge", "script": script.table, "mat": True, "realtime": True},
            demo=True,
        )
        queued: dict[str, float] = {}
        request = services.stamps.request

        def timed_request(card_id: str, lang: str) -> bool:
            queued.setdefault(card_id, time.monotonic())
            return request(card_id, lang)

        services.stamps.request = timed_request  # type: ignore[method-assign]
        app = App(config, services, size=(1024, 600), fullscreen=False)
        durations: list[float] = []
        last = time.monotonic()
        epoch: float | None = None  # the virtual table's time zero (before it loops)

        def on_frame(app: App) -> None:
            nonlocal last, epoch
            now = time.monotonic()
            durations.append(now - last)
            last = now
            source = services.vision.source
            if epoch is None and source is not None:
                epoch = source._epoch

        stats = app.run(args.seconds, on_frame=on_frame)
        app.close()
    assert epoch is not None, "the virtual table never started"
    arrivals = {s["card"]: epoch + s["at"] / FPS for s in script.table if "card" in s}
    latencies = sorted(queued[c] - arrivals[c] for c in queued if c in arrivals)
    print(
        f"UI: {stats.frames} frames in {stats.seconds:.1f} s = {stats.fps:.1f} fps "
        f"(median frame {statistics.median(durations) * 1000:.1f} ms, redraws {stats.draws})"
    )
    print(f"vision: {services.vision.frames} camera frames = {services.vision.frames / stats.seconds:.1f} fps")
    if latencies:
        print(
            f"card at rest -> stamp queued: median {statistics.median(latencies) * 1000:.0f} ms, "
            f"max {max(latencies) * 1000:.0f} ms over {len(latencies)} cards"
        )


if __name__ == "__main__":
    main()
