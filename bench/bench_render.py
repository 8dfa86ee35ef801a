"""Renderer speed: faces, table scenes, empty tables and virtual-table frames (medians).

    .venv/bin/python bench/bench_render.py [--repeats N] [--size 1280x720]

Numbers, not pass/fail: each line is the median over ``--repeats`` runs, single thread, after one
warm-up run (so cached faces count as what they are in training: cached).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import cv2

from kiosk.decks import load_deck
from kiosk.render.faces import render_face
from kiosk.render.scenes import render_empty, render_scene
from kiosk.render.timeline import VirtualTable


def median_seconds(fn: Callable[[int], object], repeats: int) -> float:
    """Median wall time of ``fn(i)`` for i in range(repeats), after one warm-up call."""
    fn(-1)
    times = []
    for i in range(repeats):
        t = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def report(label: str, seconds: float, unit: str) -> None:
    print(f"{label:<42} {seconds * 1000:8.1f} ms  {1 / seconds:7.1f} {unit}")


def scene_case(size: tuple[int, int], extras: dict[str, bool]) -> Callable[[int], object]:
    return lambda i: render_scene("standard-52", 8, 1000 + i, size, **extras)


def table_case(table: VirtualTable) -> Callable[[int], object]:
    return lambda i: table.frame(30 + i * 7)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--size", default="1280x720")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    cv2.setNumThreads(1)
    n = args.repeats

    cards = load_deck("standard-52").cards
    face = median_seconds(lambda i: render_face.__wrapped__(cards[i % 52], "classic", 500), n)
    report("face 500 px (face cache bypassed)", face, "faces/s")
    for seed in range(40):  # steady state, as in training: the faces are cached
        render_scene("standard-52", 8, 5000 + seed, (w, h))
    report(f"scene {w}x{h}, 8 cards", median_seconds(scene_case((w, h), {}), n), "scenes/s")
    both = {"hand": True, "distractors": True}
    report(
        f"scene {w}x{h}, 8 cards + hand, clutter",
        median_seconds(scene_case((w, h), both), n),
        "scenes/s",
    )
    empty = median_seconds(lambda i: render_empty(2000 + i, (w, h)), n)
    report(f"empty table {w}x{h}", empty, "frames/s")
    for size in ((w, h), (640, 480)):
        table = VirtualTable("standard-52", 1, size, mat=True)
        frame = median_seconds(table_case(table), max(n, 60))
        report(f"virtual table frame {size[0]}x{size[1]}", frame, "fps")


if __name__ == "__main__":
    main()
