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
    # A regression floor, not the target (97 %): on this sample the shipped model names
    # 80 of 104 right and 9 wrong (session 18's run, a quarter of its samples washed out; the
    # run before named 88 and 6, 86 and 12 without the shifted second reading of unsure
    # corners: runs of one recipe differ this much here); the full set's figures are in
    # models/MODEL.md. Photos without a card must never be named.
    assert right >= 0.75 * len(cards)
    assert wrong <= 0.10 * len(cards)
    assert all(a is None for t, a in zip(truth, answers, strict=True) if t is None)
