"""Enrolment of standard decks with foreign index layouts: per layout, cards named by the index
model alone, by the enrolled reader alone (all cards, the number cards and aces, the courts), and
by both (the enrolled reader where the index model gives no answer), wrong names, the enrolment
time per card and the enrolled reader's time per card. Run:
``OPENBLAS_NUM_THREADS=1 python bench/bench_enroll.py [--scenes-per-card 5]``."""

from __future__ import annotations

import argparse
import time

import numpy as np

from kiosk.decks import load_deck
from kiosk.render.foreign import foreign_styles, tilted
from kiosk.render.scenes import render_scene
from kiosk.vision.detect import Detector
from kiosk.vision.enrolled import EnrolledReader, enrol_photos
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.identify import Identifier, default_models_dir
from kiosk.vision.pips import load_pip_reader

DECK, SIZE, PER_SCENE = "standard-52", (1920, 1080), 6


def bench_layout(style: str, per_card: int, detector: Detector, identifier: Identifier) -> str:
    ids = load_deck(DECK).ids
    photos = [
        (f"{c}.jpg", c, render_scene(DECK, 1, 100 + i, SIZE, card_ids=[c], styles=(style,), table="grey").image)
        for i, c in enumerate(ids)
    ]
    start = time.perf_counter()
    done = enrol_photos(DECK, photos, detector)
    per_card_ms = 1000 * (time.perf_counter() - start) / len(ids)
    reader = EnrolledReader(done.gallery, load_pip_reader(default_models_dir()))
    rng = np.random.default_rng(53)
    seen = index_right = index_wrong = both_right = both_wrong = 0
    alone = {"all": [0, 0, 0], "numbers": [0, 0, 0], "courts": [0, 0, 0]}  # seen, right, wrong
    read_s = 0.0
    for s in range(len(ids) * per_card // PER_SCENE):
        chosen = [ids[(s * PER_SCENE + k) % len(ids)] for k in range(PER_SCENE)]
        scene = render_scene(DECK, PER_SCENE, 1000 + s, SIZE, card_ids=chosen, styles=(style,), split="heldout")
        scene = tilted(scene, rng.uniform(0, 20), rng.uniform(0, 2 * np.pi))
        found = detector.detect(scene.image)
        for card in scene.cards:
            match = [d for d in found if polygon_iou(d.corners, card.corners) > 0.7]
            if not match:
                continue
            seen += 1
            by_index = identifier.identify_cards(match[:1])[0].card_id
            start = time.perf_counter()
            enrolled = reader.read(match[0].face)
            read_s += time.perf_counter() - start
            by_enrolled = None if enrolled is None else enrolled.card_id
            for kind in ("all", "courts" if card.card_id[:-1] in ("J", "Q", "K") else "numbers"):
                alone[kind][0] += 1
                alone[kind][1] += by_enrolled == card.card_id
                alone[kind][2] += by_enrolled is not None and by_enrolled != card.card_id
            answer = by_index if by_index is not None else by_enrolled
            index_right += by_index == card.card_id
            index_wrong += by_index is not None and by_index != card.card_id
            both_right += answer == card.card_id
            both_wrong += answer is not None and answer != card.card_id
    (n, right, wrong), (nn, nright, nwrong), (nc, cright, cwrong) = alone["all"], alone["numbers"], alone["courts"]
    return (
        f"{style:16s} cards {seen:4d}  index alone {index_right / seen:6.1%} ({index_wrong} wrong)  "
        f"enrolled alone {right / n:6.1%} ({wrong} wrong), A-10 {nright / nn:6.1%} ({nwrong} wrong), "
        f"courts {cright / max(nc, 1):6.1%} ({cwrong} wrong)  "
        f"both {both_right / seen:6.1%} ({both_wrong} wrong)  refused photos {len(done.refused)}  "
        f"enrol {per_card_ms:.0f} ms/card  read {1000 * read_s / n:.1f} ms/card"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes-per-card", type=int, default=5, help="appearances of each card in the test scenes")
    args = parser.parse_args()
    detector, identifier = Detector(), Identifier(DECK)
    for style in foreign_styles():
        print(bench_layout(style, args.scenes_per_card, detector, identifier), flush=True)


if __name__ == "__main__":
    main()
