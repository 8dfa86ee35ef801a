"""The whole pipeline (detect, identify, track) on the virtual table: frames per second on one
thread, and what it confirmed against the table's truth.

A frame that shows nothing new on a settled table is not analysed (kiosk.vision.stillness), so
the frame times are of two kinds: the throughput is the mean, and the share of frames analysed
is printed; ``--analyse-all`` turns the skipping off for a comparison. ``--model-threads N``
runs each TFLite model on N threads, as the kiosk's ``[vision] model_threads`` does (the rest
stays on one; the wall-clock fps is then the figure to read).

Usage: ``python bench/bench_pipeline.py [--frames 600] [--deck standard-52] [--seed 7]
[--analyse-all] [--model-threads 1]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys

import cv2
from _vision import Timer, add_oracle_option, pick_identifier

from kiosk.render.timeline import VirtualTable
from kiosk.vision.detect import Detector, DetectorConfig
from kiosk.vision.pipeline import VisionPipeline
from kiosk.vision.stillness import StillFrames


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--deck", default="standard-52")
    ap.add_argument("--seed", type=int, default=7)
    add_oracle_option(ap)
    ap.add_argument("--step", type=int, default=2, help="use every n-th frame (30 fps table -> 15 fps)")
    ap.add_argument("--analyse-all", action="store_true", help="analyse every frame, even a still one")
    ap.add_argument("--model-threads", type=int, default=1, help="threads each TFLite model may use")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    identifier, oracle = pick_identifier(args.deck, args.oracle, args.model_threads)
    if identifier is None:
        return 0
    table = VirtualTable(args.deck, seed=args.seed, size=(1280, 720))
    still = StillFrames.never() if args.analyse_all else None
    detector = oracle.detector if oracle else Detector(DetectorConfig(model_threads=args.model_threads))
    pipe = VisionPipeline(identifier, detector, still=still)
    analysed = 0
    timer = Timer()
    wrong: list[str] = []
    confirmed = 0
    for i in range(0, args.frames * args.step, args.step):
        frame, truth = table.frame(i)
        if oracle:
            oracle.truth = truth
        before = pipe.still.analysed_frames
        view = timer(lambda f=frame: pipe.process(f))
        analysed += pipe.still.analysed_frames - before
        present = {c.card_id for c in truth}
        for event in view.events:
            if event.kind == "confirmed":
                confirmed += 1
                if event.card.card_id not in present:
                    wrong.append(f"frame {i}: {event.card.card_id} (table: {sorted(present)})")
    n = len(timer.wall)
    mean_wall, mean_cpu = statistics.fmean(timer.wall), statistics.fmean(timer.cpu)
    print(f"virtual table {args.deck} seed {args.seed}: {n} frames 1280x720, {analysed} analysed ({analysed / n:.0%})")
    print(
        f"  pipeline {timer.summary()}; mean {mean_wall * 1000:.1f} ms wall, {mean_cpu * 1000:.1f} ms CPU "
        f"-> {1 / mean_wall:.1f} fps wall, {1 / mean_cpu:.1f} fps CPU"
    )
    print(f"  confirmations {confirmed}, of a card not on the table: {len(wrong)}")
    for line in wrong[:10]:
        print(f"    {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
