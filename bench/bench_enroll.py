"""Enrolment of standard decks with foreign index layouts: per layout, cards named by the kiosk
with nothing enrolled (the index model and the glyph fallback), by the enrolled reader alone (all
cards, the cards whose index shows in a corner not covered by another card, the number cards and
aces, the courts), and by both as the kiosk's identifier combines them
(:func:`~kiosk.vision.identify.settle`), wrong names, the enrolment time per card and the enrolled
reader's time per card; then why the enrolled reader refused the cards it did not name
(:data:`~kiosk.vision.enrolled.REFUSALS`; "index covered": no corner of the card shows its whole
index). The test scenes are piles unless ``--apart`` lays their cards apart. Run:
``OPENBLAS_NUM_THREADS=1 python bench/bench_enroll.py [--scenes-per-card 5] [--apart] [--seed 1000]``."""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field

import cv2
import numpy as np
from _vision import foreign_sightings

from kiosk.decks import load_deck
from kiosk.render.foreign import foreign_look, foreign_styles
from kiosk.render.scenes import Scene, render_scene
from kiosk.vision.detect import Detector
from kiosk.vision.enrolled import REFUSALS, EnrolledReader
from kiosk.vision.face import FACE_SIZE, face_homography
from kiosk.vision.glyph_reader import GlyphReader, load_glyph_reader, vote
from kiosk.vision.glyphs import found_indices as located_corners
from kiosk.vision.identify import Identifier, default_models_dir, settle
from kiosk.vision.pips import load_pip_reader
from kiosk.vision.reading import Identification
from kiosk.vision.teaching import enrol_photos

DECK, SIZE, PER_SCENE = "standard-52", (1920, 1080), 6
KINDS = ("all", "shown", "numbers", "courts")
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


@dataclass
class Tally:
    """One enrolled reader's figures on one layout."""

    alone: dict[str, list[int]] = field(default_factory=lambda: {k: [0, 0, 0] for k in KINDS})  # seen, right, wrong
    refused: Counter[tuple[str, bool]] = field(default_factory=Counter)  # (reason, court): cards
    both: list[int] = field(default_factory=lambda: [0, 0])  # right, wrong as the identifier settles
    read_s: float = 0.0

    def add(
        self, reader: EnrolledReader, face: np.ndarray, card_id: str, shown: bool, by_index: Identification
    ) -> None:
        start = time.perf_counter()
        verdict = reader.judge(face, pips=by_index.card_id is not None and not reader.suit_glyphs.usable)
        self.read_s += time.perf_counter() - start
        named = None if verdict.answer is None else verdict.answer.card_id
        court = card_id[:-1] in ("J", "Q", "K")
        if named is None:
            self.refused[(verdict.reason if shown else "index covered", court)] += 1
        for kind in ("all", "courts" if court else "numbers") + (("shown",) if shown else ()):
            self.alone[kind][0] += 1
            self.alone[kind][1] += named == card_id
            self.alone[kind][2] += named is not None and named != card_id
        answer = settle(by_index, verdict, reader.suit_glyphs.usable).card_id
        self.both[0] += answer == card_id
        self.both[1] += answer is not None and answer != card_id

    def line(self, name: str) -> str:
        (n, right, wrong), (ns, sright, swrong) = self.alone["all"], self.alone["shown"]
        (nn, nright, nwrong), (nc, cright, cwrong) = self.alone["numbers"], self.alone["courts"]
        reasons = "; ".join(
            f"{why} {self.refused[why, False]} A-10, {self.refused[why, True]} courts"
            for why in ("index covered", *REFUSALS)
            if self.refused[why, False] + self.refused[why, True]
        )
        return (
            f"  {name:13s} alone {right / n:6.1%} ({wrong} wrong), index shown {sright / max(ns, 1):6.1%} of {ns} "
            f"({swrong} wrong), A-10 {nright / max(nn, 1):6.1%} ({nwrong} wrong), courts {cright / max(nc, 1):6.1%} "
            f"({cwrong} wrong)  both {self.both[0] / n:6.1%} ({self.both[1]} wrong)  read "
            f"{1000 * self.read_s / n:.1f} ms/card\n  {'':13s} refused: {reasons}"
        )


def glyphs_alone(glyphs: GlyphReader, face: np.ndarray, card_id: str) -> str | None:
    """The rank the glyph reader alone surely reads on the card's found corners (None: none, or two)."""
    found = [i for _, i in located_corners(face)]
    return vote(glyphs.read(found)).rank if found else None


def bench_layout(
    style: str,
    per_card: int,
    detector: Detector,
    identifier: Identifier,
    glyphs: GlyphReader,
    overlap: bool,
    seed: int = 1000,
) -> str:
    ids = load_deck(DECK).ids
    photos = [
        (f"{c}.jpg", c, render_scene(DECK, 1, 100 + i, SIZE, card_ids=[c], styles=(style,), table="grey").image)
        for i, c in enumerate(ids)
    ]
    start = time.perf_counter()
    done = enrol_photos(DECK, photos, detector)
    per_card_ms = 1000 * (time.perf_counter() - start) / len(ids)
    pips = load_pip_reader(default_models_dir())
    readers = {
        "enrolled": EnrolledReader(done.gallery, pips),
        "with glyphs": EnrolledReader(done.gallery, pips, glyphs),
    }
    tallies = {name: Tally() for name in readers}
    seen = index_right = index_wrong = 0
    glyph = [0, 0, 0]  # cards whose index shows, their rank read right, wrong by the glyph reader alone
    shown: dict[str, bool] = {}
    flat_before: Scene | None = None
    for flat, card, found in foreign_sightings(style, len(ids) * per_card // PER_SCENE, seed, detector, DECK, overlap):
        if flat is not flat_before:
            shown, flat_before = index_shown(flat, style), flat
        seen += 1
        by_index = identifier.identify_cards([found])[0]
        index_right += by_index.card_id == card.card_id
        index_wrong += by_index.card_id is not None and by_index.card_id != card.card_id
        for name, reader in readers.items():
            tallies[name].add(reader, found.face, card.card_id, shown[card.card_id], by_index)
        if shown[card.card_id]:
            rank = glyphs_alone(glyphs, found.face, card.card_id)
            glyph[0] += 1
            glyph[1] += rank == card.card_id[:-1]
            glyph[2] += rank is not None and rank != card.card_id[:-1]
    return (
        f"{style:16s} cards {seen:4d}  unenrolled {index_right / seen:6.1%} ({index_wrong} wrong)  glyph reader "
        f"alone, rank of {glyph[0]} shown {glyph[1] / max(glyph[0], 1):6.1%} ({glyph[2]} wrong)  refused photos "
        f"{len(done.refused)}  enrol {per_card_ms:.0f} ms/card\n"
        + "\n".join(t.line(name) for name, t in tallies.items())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes-per-card", type=int, default=5, help="appearances of each card in the test scenes")
    parser.add_argument("--styles", nargs="*", help="foreign styles to run (default: the four layouts)")
    parser.add_argument("--apart", action="store_true", help="the test scenes' cards lie apart (default: piles)")
    parser.add_argument("--seed", type=int, default=1000, help="the first test scene's seed")
    args = parser.parse_args()
    detector, identifier = Detector(), Identifier(DECK)
    glyphs = load_glyph_reader(default_models_dir())
    if glyphs is None:
        raise SystemExit(f"no glyph model in {default_models_dir()}: run 'kiosk train --glyphs'")
    for style in args.styles or foreign_styles():
        line = bench_layout(style, args.scenes_per_card, detector, identifier, glyphs, not args.apart, args.seed)
        print(line, flush=True)


if __name__ == "__main__":
    main()
