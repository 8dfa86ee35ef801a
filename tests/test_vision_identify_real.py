"""Real photos never used in training (``../shared/data/real-cards/pp2021-corners``): corner
crops of another brand, under a card-feeder's colour casts. Skipped when the folder is absent."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2

from kiosk.vision.identify import Identifier

_BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_identify.py"


def _pp_corner_crop():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_identify", _BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.pp_corner_crop


def test_pp2021_corners_sample_stays_above_the_measured_floor(real_cards: Path) -> None:
    crop = _pp_corner_crop()
    root = real_cards / "pp2021-corners"
    crops, truth = [], []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.jpg"))[:2]:  # two per card: a quick, fixed sample
            crops.append(crop(cv2.imread(str(path))))
            truth.append(None if folder.name == "NONE" else folder.name)
    answers = [a.card_id for a in Identifier("standard-52").identify_index(crops)]
    cards = [(t, a) for t, a in zip(truth, answers, strict=True) if t is not None]
    right = sum(t == a for t, a in cards)
    wrong = sum(a is not None and a != t for t, a in cards)
    # A regression floor, not the target (97 %): on this sample the shipped pair of index
    # members names 96 of 104 right and none wrong (session 21; alone, the seed-2 member names 91
    # and 7 wrong, the seed-3 member 99 and 2, session 18's single model 80 and 9: single runs
    # of one recipe differ this much here, which is why two are averaged); the full set's
    # figures are in models/MODEL.md. Photos without a card must never be named.
    assert right >= 0.85 * len(cards)
    assert wrong <= 0.04 * len(cards)
    assert all(a is None for t, a in zip(truth, answers, strict=True) if t is None)
