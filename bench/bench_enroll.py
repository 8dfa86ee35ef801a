"""Enrolment of standard decks with foreign index layouts: per layout, cards named by the index
model alone, by the enrolled reader alone (all cards, the cards whose index shows in a corner not
covered by another card, the number cards and aces, the courts), and by both as the kiosk's
identifier combines them (:func:`~kiosk.vision.identify.settle`), wrong names, the enrolment time
per card and the enrolled reader's time per card; then why the enrolled reader refused the cards it did not name
(:data:`~kiosk.vision.enrolled.REFUSALS`; "index covered": no corner of the card shows its whole
index). Run: ``OPENBLAS_NUM_THREADS=1 python bench/bench_enroll.py [--scenes-per-card 5]``."""

from __future__ import annotations

import argparse
import time
from collections import Counter

import cv2
import numpy as np

from kiosk.decks import load_deck
from kiosk.render.foreign import foreign_look, foreign_styles, tilted
from kiosk.render.scenes import Scene, render_scene
from kiosk.vision.detect import Detector
from kiosk.vision.enrolled import REFUSALS, EnrolledReader, enrol_photos
from kiosk.vision.face import FACE_SIZE, face_homography
from kiosk.vision.geometry import polygon_iou
from kiosk.vision.identify import Identifier, default_models_dir, settle
from kiosk.vision.pips import load_pip_reader

DECK, SIZE, PER_SCENE = "standard-52", (1920, 1080), 6
SHOWN = 0.95  # share of a corner's index box the card's own pixels cover for its index to show


def index_shown(scene: Scene, style: str) -> dict[str, bool]:
    """Per card of the untilted ``scene``, whether one of its corners shows the whole index box of
    ``style``'s layout (rank and suit), no other card over it."""
    layout = foreign_look(style)[1]
    x0, y0, x1, y1 = layout.rank_box
    if layout.suit_box is not None:
        sx0, sy0, sx1, sy1 = layout.suit_box
        x0, y0, x1, y1 = min(x0, sx0), min(y0, sy0), max(x1, sx1), max(y1, sy1)
    w, h = FACE_SIZE
    box = slice(round(y0 * h), round(y1 * h)), slice(round(x0 * w), round(x1 * w))
    assert scene.labels is not None
    out = {}
    for k, card in enumerate(scene.cards):
        own = (scene.labels == k).astype(np.uint8)
        face = cv2.warpPerspective(own, face_homography(card.corners, FACE_SIZE), FACE_SIZE, flags=cv2.INTER_NEAREST)
        out[card.card_id] = max(face[box].mean(), face[::-1, ::-1][box].mean()) >= SHOWN
    return out


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
    alone = {k: [0, 0, 0] for k in ("all", "shown", "numbers", "courts")}  # seen, right, wrong
    refused: Counter[tuple[str, bool]] = Counter()  # (reason, court): cards
    read_s = 0.0
    for s in range(len(ids) * per_card // PER_SCENE):
        chosen = [ids[(s * PER_SCENE + k) % len(ids)] for k in range(PER_SCENE)]
        scene = render_scene(DECK, PER_SCENE, 1000 + s, SIZE, card_ids=chosen, styles=(style,), split="heldout")
        shown = index_shown(scene, style)
        scene = tilted(scene, rng.uniform(0, 20), rng.uniform(0, 2 * np.pi))
        found = detector.detect(scene.image)
        for card in scene.cards:
            match = [d for d in found if polygon_iou(d.corners, card.corners) > 0.7]
            if not match:
                continue
            seen += 1
            by_index_answer = identifier.identify_cards(match[:1])[0]
            by_index = by_index_answer.card_id
            start = time.perf_counter()
            verdict = reader.judge(match[0].face)
            read_s += time.perf_counter() - start
            by_enrolled = None if verdict.answer is None else verdict.answer.card_id
            court = card.card_id[:-1] in ("J", "Q", "K")
            if by_enrolled is None:
                refused[(verdict.reason if shown[card.card_id] else "index covered", court)] += 1
            kinds = ("all", "courts" if court else "numbers")
            for kind in kinds + (("shown",) if shown[card.card_id] else ()):
                alone[kind][0] += 1
                alone[kind][1] += by_enrolled == card.card_id
                alone[kind][2] += by_enrolled is not None and by_enrolled != card.card_id
            answer = settle(by_index_answer, verdict, reader.suit_glyphs.usable).card_id
            index_right += by_index == card.card_id
            index_wrong += by_index is not None and by_index != card.card_id
            both_right += answer == card.card_id
            both_wrong += answer is not None and answer != card.card_id
    (n, right, wrong), (ns, sright, swrong) = alone["all"], alone["shown"]
    (nn, nright, nwrong), (nc, cright, cwrong) = alone["numbers"], alone["courts"]
    reasons = "; ".join(
        f"{why} {refused[why, False]} A-10, {refused[why, True]} courts"
        for why in ("index covered", *REFUSALS)
        if refused[why, False] + refused[why, True]
    )
    return (
        f"{style:16s} cards {seen:4d}  index alone {index_right / seen:6.1%} ({index_wrong} wrong)  "
        f"enrolled alone {right / n:6.1%} ({wrong} wrong), index shown {sright / max(ns, 1):6.1%} of {ns} "
        f"({swrong} wrong), A-10 {nright / nn:6.1%} ({nwrong} wrong), courts {cright / max(nc, 1):6.1%} "
        f"({cwrong} wrong)  both {both_right / seen:6.1%} ({both_wrong} wrong)  refused photos "
        f"{len(done.refused)}  enrol {per_card_ms:.0f} ms/card  read {1000 * read_s / n:.1f} ms/card\n"
        f"{'':16s} refused: {reasons}"
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
