"""Identification benchmark: held-out synthetic accuracy, real corner photos, confusions, speed.

    .venv/bin/python bench/bench_identify.py [--per-class N] [--repeats N] [--models DIR]

1. Synthetic held-out faces (a seed never used in training: new random brands, tables, light),
   for the index decks and each face deck: exact-card accuracy, refusals, confusions, and how
   many "not a card" faces were (wrongly) named.
2. ``../shared/data/real-cards/pp2021-corners``: 224 x 224 photos of a card's top-left corner
   from a card-feeder rig (never used in training). The index box is cut from the card's
   top-left corner, found from the image's strongest edges; its size is the rig's scale (the
   card is about 2.4 crop heights tall), fixed for the whole set.
3. Speed: one ``identify`` call for 8 faces (16 corner crops), single thread, median of runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from kiosk.decks import load_deck
from kiosk.vision.face import FACE_SIZE, INDEX_BOX
from kiosk.vision.identify import Identifier
from kiosk.vision.members import NONE_LABEL
from kiosk.vision.train.dataset import INDEX_LABELS, index_sample
from kiosk.vision.train.faces import face_labels, face_sample

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cards"
HELD_OUT_SEED = 777_001
#: pp2021 rig: index box width as a fraction of the 224-pixel crop (height keeps INDEX_BOX's ratio).
PP_BOX_WIDTH = 0.40


def pp_corner_crop(img: np.ndarray) -> np.ndarray:
    """The index box of a pp2021 photo: from the card's left edge (the strongest dark-to-bright
    column) and top edge (the strongest change in a thin strip along that edge)."""
    g = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), (5, 5), 0)
    h, w = g.shape
    rising = np.median((g[:, 4:] - g[:, :-4])[h // 3 :], axis=0)
    x = int(np.argmax(rising[: int(w * 0.75)])) + 2
    strip = g[:, x + 2 : x + 7]
    change = np.abs(np.median(strip[3:] - strip[:-3], axis=1))
    y = int(np.argmax(change[: int(h * 0.6)])) + 1
    bw = PP_BOX_WIDTH * w
    bh = bw * (INDEX_BOX[3] - INDEX_BOX[1]) * FACE_SIZE[1] / ((INDEX_BOX[2] - INDEX_BOX[0]) * FACE_SIZE[0])
    m = np.array([[1, 0, -x], [0, 1, -y]], np.float32)
    return cv2.warpAffine(img, m, (int(bw), int(bh)), borderMode=cv2.BORDER_REPLICATE)


def _report(name: str, truth: list[str], answers: list[str | None]) -> None:
    cards = [(t, a) for t, a in zip(truth, answers, strict=True) if t != NONE_LABEL]
    clutter = [a for t, a in zip(truth, answers, strict=True) if t == NONE_LABEL]
    right = sum(t == a for t, a in cards)
    refused = sum(a is None for _, a in cards)
    wrong = Counter((t, a) for t, a in cards if a is not None and a != t)
    print(
        f"{name}: {len(cards)} cards: {right / max(1, len(cards)):.2%} right, "
        f"{refused / max(1, len(cards)):.2%} refused (None), "
        f"{sum(wrong.values()) / max(1, len(cards)):.2%} wrong"
    )
    if clutter:
        named = Counter(a for a in clutter if a is not None)
        print(
            f"  not-a-card: {len(clutter)} images, {sum(named.values())} named as a card {dict(named.most_common(5))}"
        )
    if wrong:
        print(
            "  confusions (truth -> answer: count): "
            + ", ".join(f"{t}->{a}: {n}" for (t, a), n in wrong.most_common(12))
        )


def bench_synthetic(models: Path | None, per_class: int) -> None:
    rng = np.random.default_rng(HELD_OUT_SEED)
    ident = Identifier("standard-52", models)
    labels = [lab for lab in INDEX_LABELS if lab != "JK"]
    crops, truth = [], []
    for lab in labels:
        for _ in range(per_class):
            crops.append(index_sample(rng, lab))
            truth.append(lab)
    _report(
        "synthetic corners, standard-52 (held-out seed)",
        truth,
        [r.card_id for r in ident.identify_index(crops)],
    )
    for deck_id in ("kakkerlakken-64", "math-pairs"):
        deck = load_deck(deck_id)
        fident = Identifier(deck_id, models)
        faces, truth = [], []
        for lab in face_labels(deck):
            for _ in range(max(2, per_class // (4 if len(deck.species or deck.ids) > 60 else 1))):
                faces.append(face_sample(deck_id, rng, lab))
                truth.append(lab)
        _report(
            f"synthetic faces, {deck_id} (held-out seed)",
            truth,
            [r.card_id for r in fident.identify(faces)],
        )


def bench_pp2021(models: Path | None) -> None:
    root = REAL / "pp2021-corners"
    if not root.is_dir():
        print(f"pp2021-corners: skipped, {root} not found")
        return
    ident = Identifier("standard-52", models)
    crops, truth = [], []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.jpg")):
            img = cv2.imread(str(path))
            if img is not None:
                crops.append(pp_corner_crop(img))
                truth.append(NONE_LABEL if folder.name == "NONE" else folder.name)
    _report(
        "pp2021-corners (real, never trained on)",
        truth,
        [r.card_id for r in ident.identify_index(crops)],
    )


def _median_ms(ident: Identifier, faces: list[np.ndarray], repeats: int) -> tuple[float, float]:
    """(median, min) milliseconds of one ``identify`` call on ``faces``, after one warm-up call."""
    ident.identify(faces)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        ident.identify(faces)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3, min(times) * 1e3


def bench_speed(models: Path | None, repeats: int) -> None:
    from kiosk.render.faces import render_face

    rng = np.random.default_rng(5)
    for deck_id, what in (
        ("standard-52", "8 faces = 16 corners"),
        ("kakkerlakken-64", "8 kakkerlakken faces"),
        ("math-pairs", "8 math faces, text matching"),
    ):
        deck = load_deck(deck_id)
        faces = [
            cv2.cvtColor(np.asarray(render_face(deck.cards[int(i)], None, FACE_SIZE[0])), cv2.COLOR_RGB2BGR)
            for i in rng.integers(len(deck), size=8)
        ]
        median, fastest = _median_ms(Identifier(deck_id, models), faces, repeats)
        print(f"speed: identify({what}), 1 thread: median {median:.2f} ms (min {fastest:.2f}, {repeats} runs)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=40, help="held-out synthetic samples per class")
    parser.add_argument("--repeats", type=int, default=200, help="timed runs for the speed figure")
    parser.add_argument("--models", type=Path, default=None, help="models folder (default: models/)")
    args = parser.parse_args(argv)
    bench_speed(args.models, args.repeats)
    bench_pp2021(args.models)
    bench_synthetic(args.models, args.per_class)
    return 0


if __name__ == "__main__":
    sys.exit(main())
