"""The glyph fallback (:mod:`kiosk.vision.glyph_fallback`) on unenrolled foreign index layouts: per
layout, cards named right and wrong by the index model alone ("before"), with its refused corners
weighed by their rank glyphs (:mod:`kiosk.vision.glyph_weight`, "weighed") and with the glyph
fallback reading the cards still refused ("after"), on the same found cards; the fallback's time per
refused card; and the index ink's redness on the refused red and black cards (the colour bounds'
evidence). Tune on foreign-low and foreign-side; foreign-narrow, foreign-stack and foreign-side-7
are held out. Run: ``OPENBLAS_NUM_THREADS=1 python bench/bench_glyph_fallback.py [--scenes-per-card 3]``."""

from __future__ import annotations

import argparse
import time

import numpy as np
from _vision import foreign_sightings

from kiosk.decks import load_deck
from kiosk.decks.model import RED_SUITS
from kiosk.vision.detect import Detector
from kiosk.vision.glyph_fallback import GlyphFallback
from kiosk.vision.glyph_reader import load_glyph_reader
from kiosk.vision.glyph_weight import GlyphWeigher
from kiosk.vision.glyphs import found_indices as corners
from kiosk.vision.index_reader import IndexReader
from kiosk.vision.members import Members, default_models_dir
from kiosk.vision.pips import load_pip_reader

DECK, PER_SCENE = "standard-52", 6
STYLES = ("foreign-low", "foreign-side", "foreign-narrow", "foreign-stack", "foreign-side-7")


def bench_style(style: str, per_card: int, detector: Detector, alone: IndexReader, fallback: GlyphFallback) -> str:
    ids = load_deck(DECK).ids
    seen = 0
    tally = {"before": [0, 0], "weighed": [0, 0], "after": [0, 0]}  # right, wrong
    refused, spent = 0, 0.0
    redness: dict[bool, list[float]] = {True: [], False: []}
    for _, card, found in foreign_sightings(style, len(ids) * per_card // PER_SCENE, 1000, detector, DECK):
        seen += 1
        before = alone.identify_cards([found])[0].card_id
        weighed = after = fallback.primary.identify_cards([found])[0].card_id
        if weighed is None:
            refused += 1
            start = time.perf_counter()
            answer = fallback.name(found.face)
            spent += time.perf_counter() - start
            after = None if answer is None else answer.card_id
            redness[card.card_id[-1] in RED_SUITS] += [i.redness for _, i in corners(found.face)]
        for name, named in (("before", before), ("weighed", weighed), ("after", after)):
            tally[name][0] += named == card.card_id
            tally[name][1] += named is not None and named != card.card_id
    (br, bw), (wr, ww), (ar, aw) = tally["before"], tally["weighed"], tally["after"]
    spread = "  ".join(
        f"{'red' if red else 'black'} redness p5/p50/p95 "
        + ("/".join(f"{v:.2f}" for v in np.percentile(values, (5, 50, 95))) if values else "-")
        for red, values in redness.items()
    )
    return (
        f"{style:15s} cards {seen:4d}  before {br / seen:6.1%} ({bw} wrong)  weighed {wr / seen:6.1%} ({ww} wrong)  "
        f"after {ar / seen:6.1%} ({aw} wrong)  "
        f"fallback {1000 * spent / max(refused, 1):.1f} ms per refused card ({refused})\n  {'':15s} {spread}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes-per-card", type=int, default=3, help="appearances of each card in the scenes")
    parser.add_argument("--styles", nargs="*", default=STYLES, help="foreign styles to run")
    args = parser.parse_args()
    models = default_models_dir()
    glyphs = load_glyph_reader(models)
    if glyphs is None:
        raise SystemExit(f"no glyph model in {models}: run 'kiosk train --glyphs'")
    deck, pips = load_deck(DECK), load_pip_reader(models)
    members = Members(deck, models)
    weigher = GlyphWeigher(deck, glyphs, members.answers)
    fallback = GlyphFallback(IndexReader(deck, members, pips, weigher), glyphs, pips)
    detector = Detector()
    for style in args.styles:
        print(
            bench_style(style, args.scenes_per_card, detector, IndexReader(deck, members, pips), fallback), flush=True
        )


if __name__ == "__main__":
    main()
