"""Close-ups: one card filling most of the picture, as in a phone photo of a single card or a
camera mounted low. Each of the first three cards of a held-out scene (cards apart) is cut out
with a margin of M times its bounding box's longer side (cut short where the scene ends: the
card then runs off the picture) and scaled to ``--width`` pixels wide; the picture is looked at
by ``kiosk recognize`` (:func:`kiosk.vision.recognize.recognize`). Per margin: cards detected
and named (a named card's quad at IoU >= 0.7 with the card), named right, and names of a card
that is not in the scene (a neighbour reaching into the picture and named is not counted).

Usage: ``python bench/bench_close_up.py [--scenes 30] [--margins 0.02,0.08,0.15,0.3]
[--width 800] [--deck standard-52]``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import cv2
import numpy as np
from _vision import load_identifier, match_truth

from kiosk.render.scenes import render_scene
from kiosk.vision.detect import Detector
from kiosk.vision.recognize import recognize

CARDS_PER_SCENE = 3


def close_up(image: np.ndarray, corners: np.ndarray, margin: float, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``image`` round the card at ``corners`` with ``margin`` (a share of its
    bounding box's longer side) on each side, scaled to ``width``; and the card's corners there."""
    h, w = image.shape[:2]
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    m = margin * max(x1 - x0, y1 - y0)
    left, top = int(max(0, x0 - m)), int(max(0, y0 - m))
    right, bottom = int(min(w, x1 + m)), int(min(h, y1 + m))
    scale = width / (right - left)
    picture = cv2.resize(image[top:bottom, left:right], None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    return picture, (corners - np.array([left, top], np.float32)) * scale


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=30, help=f"{CARDS_PER_SCENE} close-ups each")
    ap.add_argument("--margins", default="0.02,0.08,0.15,0.3")
    ap.add_argument("--width", type=int, default=800)
    ap.add_argument("--deck", default="standard-52")
    ap.add_argument("--seed", type=int, default=900_000, help="first scene seed (held-out range)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    identifier = load_identifier(args.deck)
    if identifier is None:
        return 0
    detector = Detector()
    margins = [float(m) for m in args.margins.split(",")]
    print(
        f"close-ups of held-out cards, deck {args.deck}: {args.scenes} scenes x {CARDS_PER_SCENE} cards, "
        f"{args.width} px wide"
    )
    for margin in margins:
        counts: Counter[str] = Counter()
        missed: Counter[str] = Counter()
        share: list[float] = []
        for i in range(args.scenes):
            scene = render_scene(args.deck, 8, args.seed + i, split="heldout", overlap=False)
            present = {c.card_id for c in scene.cards}
            for card in scene.cards[:CARDS_PER_SCENE]:
                picture, truth = close_up(scene.image, card.corners, margin, args.width)
                share.append(cv2.contourArea(truth) / (picture.shape[0] * picture.shape[1]))
                named = recognize(picture, identifier, detector)
                ids = [c.card_id for c in named]
                counts["detected"] += bool(match_truth([np.array(c.corners, np.float32) for c in named], [truth], 0.7))
                counts["right"] += card.card_id in ids
                counts["elsewhere"] += sum(c not in present for c in ids)
                missed[scene.table] += card.card_id not in ids
        n = len(share)
        print(
            f"  margin {margin:g} (the card {np.median(share):.0%} of the picture, median; "
            f"{max(share):.0%} at most): "
            f"named right {counts['right'] / n:.1%} of {n}, on its outline {counts['detected'] / n:.1%}; "
            f"names of a card not in the scene {counts['elsewhere']}; not named, by table: "
            + (", ".join(f"{t} {k}" for t, k in sorted(missed.items()) if k) or "none")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
