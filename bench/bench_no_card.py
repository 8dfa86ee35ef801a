"""No card on the table: >= 5,000 frames of empty tables with hands, phones, paper, coins and
pens through the whole pipeline; every confirmation is a false one (target: 0).

Each table is filmed for ``--frames-per-table`` frames with fresh camera noise, so a clutter
object that fools the identifier steadily has every chance to be confirmed; every frame is
analysed (the kiosk would skip most of them, a still table being settled).
Usage: ``python bench/bench_no_card.py [--tables 250] [--frames-per-table 20] [--deck ID]``.
"""

from __future__ import annotations

import argparse
import sys

import cv2
import numpy as np
from _vision import Timer, load_identifier

from kiosk.render.scenes import render_empty
from kiosk.vision.pipeline import VisionPipeline
from kiosk.vision.stillness import StillFrames


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=250)
    ap.add_argument("--frames-per-table", type=int, default=20)
    ap.add_argument("--deck", default="standard-52")
    ap.add_argument("--seed", type=int, default=700_000)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    identifier = load_identifier(args.deck)
    if identifier is None:
        return 0
    rng = np.random.default_rng(args.seed)
    timer = Timer()
    frames = quads = named = 0
    false: list[str] = []
    for t in range(args.tables):
        base = render_empty(args.seed + t, (1280, 720), split="heldout").astype(np.int16)
        pipe = VisionPipeline(identifier, still=StillFrames.never())
        for _ in range(args.frames_per_table):
            noise = rng.normal(0, 2.0, base.shape).astype(np.int16)
            frame = np.clip(base + noise, 0, 255).astype(np.uint8)
            view = timer(lambda p=pipe, f=frame: p.process(f))
            frames += 1
            quads += view.detections
            false += [f"table {t}: {e.card.card_id}" for e in view.events if e.kind == "confirmed"]
        named += len(pipe.tracker.cards)
    print(f"no-card frames: {frames} ({args.tables} tables x {args.frames_per_table}), deck {args.deck}")
    print(f"  quads found {quads / frames:.2f}/frame (each to be refused by identifier or tracker)")
    print(f"  confirmed cards: {len(false)}")
    for line in false[:10]:
        print(f"    {line}")
    print(f"  pipeline {timer.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
