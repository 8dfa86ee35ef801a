"""Frames from a card's arrival (the frame it comes to rest) to its confirmation, on the virtual
table, at the kiosk's 15 fps (every other frame of the 30 fps table). Target: <= 5.

Usage: ``python bench/bench_confirm_latency.py [--seeds 6] [--frames 900] [--deck standard-52]``.
A card confirmed while still sliding in counts as 0; one never confirmed while resting is a miss.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys

import cv2
from _vision import add_oracle_option, pick_identifier

from kiosk.render.timeline import VirtualTable
from kiosk.vision.pipeline import VisionPipeline

TARGET = 5  # frames at 15 fps


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--frames", type=int, default=900, help="30 fps frames per table")
    ap.add_argument("--deck", default="standard-52")
    add_oracle_option(ap)
    ap.add_argument("--step", type=int, default=2)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    identifier, oracle = pick_identifier(args.deck, args.oracle)
    if identifier is None:
        return 0
    latencies: list[int] = []
    missed: list[str] = []
    slow: list[str] = []
    for seed in range(args.seeds):
        table = VirtualTable(args.deck, seed=1000 + seed, size=(1280, 720))
        pipe = VisionPipeline(identifier, oracle.detector if oracle else None)
        confirmed_at: dict[str, list[int]] = {}
        for i in range(0, min(args.frames, len(table)), args.step):
            frame, truth = table.frame(i)
            if oracle:
                oracle.truth = truth
            for e in pipe.process(frame).events:
                if e.kind == "confirmed":
                    confirmed_at.setdefault(e.card.card_id, []).append(i)
        for at, card in table.arrivals:
            if at + 10 * args.step >= min(args.frames, len(table)):
                continue  # too close to the end of the film to judge
            after = [f for f in confirmed_at.get(card, []) if f >= at - 16]  # from the slide-in on
            if not after:
                missed.append(f"seed {1000 + seed} {card} at {at}")
                continue
            latencies.append(max(0, (after[0] - at) // args.step))
            if latencies[-1] > TARGET:
                slow.append(f"seed {1000 + seed} {card} at {at}: {latencies[-1]} frames")
    if latencies:
        ordered = sorted(latencies)
        print(
            f"arrivals {len(latencies) + len(missed)}: confirmation latency in 15 fps frames: "
            f"median {statistics.median(ordered)}, "
            f"p95 {ordered[math.ceil(0.95 * len(ordered)) - 1]}, "  # nearest rank
            f"max {ordered[-1]}; never confirmed {len(missed)}"
        )
    for line in missed[:10]:
        print(f"  missed {line}")
    for line in slow[:10]:
        print(f"  over {TARGET} frames: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
