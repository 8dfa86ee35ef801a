"""Real photos never used in training (``../shared/data/real-cards/``): pp2021's corner crops of
another brand under a card-feeder's colour casts, and edje-tfod's cluttered tables named through
the detector. Every test takes the ``real_cards`` fixture, which skips it where the folder is
absent (a plain clone)."""

from __future__ import annotations

from pathlib import Path

import cv2
from conftest import bench_module

from kiosk.vision.detect import Detector
from kiosk.vision.identify import Identifier
from kiosk.vision.recognize import read_still


def test_pp2021_corners_sample_stays_above_the_measured_floor(real_cards: Path) -> None:
    crop = bench_module("bench_identify").pp_corner_crop
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
    # A regression floor, not the target (99 %): on this sample the shipped pair of index
    # members names 103 of 104 right and none wrong, 96 without a refused corner weighed by its
    # rank glyph (alone, the seed-2 member names 91 and 7 wrong, the seed-3 member 99 and 2, a
    # single model of an older recipe 80 and 9: single runs of one recipe differ this much here,
    # which is why two are averaged); the full set's figures are in models/MODEL.md. Photos
    # without a card must never be named.
    assert right >= 0.95 * len(cards)
    assert wrong <= 0.02 * len(cards)
    assert all(a is None for t, a in zip(truth, answers, strict=True) if t is None)


def test_edje_tfod_test_split_names_no_rank_that_is_not_there(real_cards: Path) -> None:
    """edje-tfod's test split (67 phone and webcam photos, clutter, overlaps), named as ``kiosk
    recognize`` names cards (in other views where a photo names none): a card named where no
    labelled card of that rank lies is what a kiosk would confirm as a wrong card. A regression
    floor, not the issue's target (95 %): the shipped pair of index members names 107 of 143
    boxed cards' ranks and no rank that is not there (each member alone 106 and 1 or 2, a single
    model of an older recipe 105 and 3)."""
    bench = bench_module("bench_real_photos")
    detector, identifier = Detector(), Identifier("standard-52")
    boxed = right = elsewhere = 0
    for photo in sorted(p for p in (real_cards / "edje-tfod" / "test").iterdir() if p.suffix.lower() == ".jpg"):
        labels = bench.load_boxes(photo.with_suffix(".xml"))
        img = cv2.imread(str(photo))
        read = read_still(img, identifier, detector)
        quads = [q for q, _ in read]
        ranks = [a.card_id[:-1] if a.card_id else "none" for _, a in read]
        boxed += len(labels)
        right += sum(ranks[j] == labels[i][0] for i, j in bench.match([b for _, b in labels], quads, img.shape).items())
        elsewhere += bench.named_elsewhere(labels, quads, ranks, img.shape)
    assert boxed == 143
    assert right >= 0.7 * boxed
    assert elsewhere <= 1


def test_single_cards_in_portrait_phone_photos_are_named_by_another_view(real_cards: Path) -> None:
    """378 x 504 phone photos of one card in which every cue named nothing, nor zoomed out:
    turned a quarter, the outline model sees the card a third larger (IMG_2510's king of spades
    on a white cat, IMG_2470's ace of clubs on a printed box in the sun); where that names
    nothing either, zoomed in 1.5 times, in tiles (IMG_2553's jack of hearts beside a sheet of
    paper, IMG_2512's ace of spades on a carpet)."""
    identifier, detector = Identifier("standard-52"), Detector()
    # fmt: off
    for split, name, card in (("test", "IMG_2510", "KS"), ("test", "IMG_2470", "AC"),
                              ("train", "IMG_2553", "JH"), ("train", "IMG_2512", "AS")):
        # fmt: on
        img = cv2.imread(str(real_cards / "edje-tfod" / split / f"{name}.JPG"))
        assert [a.card_id for _, a in read_still(img, identifier, detector) if a.card_id is not None] == [card]
