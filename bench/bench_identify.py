"""Identification benchmark: held-out synthetic accuracy, real corner photos, confusions, speed.

    .venv/bin/python bench/bench_identify.py [--per-class N] [--repeats N] [--models DIR] [--only ...]

1. Synthetic held-out faces (a seed never used in training: new random brands, tables, light),
   for the index decks and each face deck: exact-card accuracy, refusals, confusions, and how
   many "not a card" faces were (wrongly) named.
2. ``../shared/data/real-cards/pp2021-corners``: 224 x 224 photos of a card's top-left corner
   from a card-feeder rig (never used in training). The index box is cut from the card's
   top-left corner, found from the image's strongest edges; its size is the rig's scale (the
   card is about 2.4 crop heights tall), fixed for the whole set.
3. Softened corners: the kiosk's own faces and random brands' (held-out seed), shrunk 2-4 times
   and blurred (sigma 0-3 at the shrunk size), as a card far away in a tilted or defocused view
   shows its index; per level, how many the kiosk's reading names right, refuses, names wrong.
4. Speed: one ``identify`` call for 8 faces (16 corner crops), single thread, median of runs.
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


#: (shrink, blur sigma at the shrunk size) of :func:`bench_soft`.
SOFTENINGS = [(s, b) for s in (2.0, 3.0, 4.0) for b in (0.0, 1.0, 2.0, 3.0)]


def _softened(face: np.ndarray, shrink: float, sigma: float) -> np.ndarray:
    """``face`` (FACE_SIZE BGR) seen ``shrink`` times smaller and blurred by ``sigma``, back at its size."""
    w, h = FACE_SIZE
    small = cv2.resize(face, (int(w / shrink), int(h / shrink)), interpolation=cv2.INTER_AREA)
    if sigma:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def bench_soft(models: Path | None) -> None:
    from kiosk.render.faces import face_styles, render_face
    from kiosk.vision.face import index_crops
    from kiosk.vision.train.synth import synth_face

    rng = np.random.default_rng(HELD_OUT_SEED)
    deck = load_deck("standard-52")
    ident = Identifier("standard-52", models)
    style = face_styles(deck.id)[0]
    faces = [(c.id, np.asarray(render_face(c, style, FACE_SIZE[0]))) for c in deck if c.suit]
    faces += [(c.id, synth_face(rng, c.rank or "", c.suit or "")) for c in deck if c.suit for _ in range(2)]
    faces = [(t, cv2.resize(cv2.cvtColor(f, cv2.COLOR_RGB2BGR), FACE_SIZE)) for t, f in faces]
    total = Counter[str]()
    for shrink, sigma in SOFTENINGS:
        crops = [index_crops(_softened(f, shrink, sigma))[0] for _, f in faces]
        answers = [r.card_id for r in ident.identify_index(crops)]
        right = sum(a == t for (t, _), a in zip(faces, answers, strict=True))
        wrong = Counter((t, a) for (t, _), a in zip(faces, answers, strict=True) if a is not None and a != t)
        total.update(right=right, wrong=sum(wrong.values()), cards=len(faces))
        print(
            f"softened corners, shrunk {shrink:g}x, blur {sigma:g}: {len(faces)} cards, {right} right, "
            f"{sum(wrong.values())} wrong {dict(wrong.most_common(3))}"
        )
    print(f"softened corners, all levels: {total['cards']} cards, {total['right']} right, {total['wrong']} wrong")


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
    parser.add_argument(
        "--only", nargs="+", choices=("speed", "pp2021", "synthetic", "soft"), help="these sections alone"
    )
    args = parser.parse_args(argv)
    sections = {
        "speed": lambda: bench_speed(args.models, args.repeats),
        "pp2021": lambda: bench_pp2021(args.models),
        "synthetic": lambda: bench_synthetic(args.models, args.per_class),
        "soft": lambda: bench_soft(args.models),
    }
    for name, run in sections.items():
        if args.only is None or name in args.only:
            run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
