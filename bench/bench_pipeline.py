"""The whole pipeline (detect, identify, track) on the virtual table: frames per second on one
thread, and what it confirmed against the table's truth.

Usage: ``python bench/bench_pipeline.py [--frames 600] [--deck standard-52] [--seed 7]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys

import cv2
from _vision import Timer, add_oracle_option, pick_identifier

from kiosk.render.timeline import VirtualTable
from kiosk.vision.pipeline import VisionPipeline


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--deck", default="standard-52")
    ap.add_argument("--seed", type=int, default=7)
    add_oracle_option(ap)
    ap.add_argument("--step", type=int, default=2,
                    help="use every n-th frame (30 fps table -> 15 fps)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    identifier, oracle = pick_identifier(args.deck, args.oracle)
    if identifier is None:
        return 0
    table = VirtualTable(args.deck, seed=args.seed, size=(1280, 720))
    pipe = VisionPipeline(identifier, oracle.detector if oracle else None)
    timer = Timer()
    wrong: list[str] = []
    confirmed = 0
    for i in range(0, args.frames * args.step, args.step):
        frame, truth = table.frame(i)
        if oracle:
            oracle.truth = truth
        view = timer(lambda f=frame: pipe.process(f))
        present = {c.card_id for c in truth}
        for event in view.events:
            if event.kind == "confirmed":
                confirmed += 1
                if event.card.card_id not in present:
                    wrong.append(f"frame {i}: {event.card.card_id} (table: {sorted(present)})")
    fps_wall = 1 / statistics.median(timer.wall)
    fps_cpu = 1 / statistics.median(timer.cpu)
    print(f"virtual table {args.deck} seed {args.seed}: {len(timer.wall)} frames 1280x720")
    print(f"  pipeline {timer.summary()} -> {fps_wall:.1f} fps wall, {fps_cpu:.1f} fps CPU")
    print(f"  confirmations {confirmed}, of a card not on the table: {len(wrong)}")
    for line in wrong[:10]:
        print(f"    {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
