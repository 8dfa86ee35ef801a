"""The glyph reader alone (``models/glyphs.tflite``, no enrolment): per look of the standard deck
(the kiosk's own three and the three foreign layouts), on the cards the detector finds in
rendered held-out scenes (tilted up to 20 degrees), of the corners where ``find_index`` located
an index: the share whose rank glyph the reader names right (its likeliest label) and wrong,
the same for its sure readings (``glyph_reader.sure_glyph_rank``), and of the cards, the share
the sure readings of both corners name right (:func:`~kiosk.vision.glyph_reader.vote`); then the
time to read a card's two corners. Run: ``OPENBLAS_NUM_THREADS=1 python bench/bench_glyphs.py [--scenes 20]``.
"""

from __future__ import annotations

import argparse
import time

from _vision import foreign_sightings

from kiosk.render.faces import face_styles
from kiosk.render.foreign import foreign_styles
from kiosk.vision.detect import Detector
from kiosk.vision.glyph_reader import NONE, GlyphReader, load_glyph_reader, vote
from kiosk.vision.glyphs import found_indices as located_corners
from kiosk.vision.identify import default_models_dir
from kiosk.vision.params import PARAMS

DECK = "standard-52"


def bench_style(style: str, scenes: int, detector: Detector, glyphs: GlyphReader) -> str:
    corners = right = wrong = sure_right = sure_wrong = cards = named = misnamed = 0
    read_s = 0.0
    for _, card, found in foreign_sightings(style, scenes, 2000, detector, DECK):
        rank = card.card_id[:-1]
        start = time.perf_counter()
        readings = glyphs.read([i for _, i in located_corners(found.face)])
        read_s += time.perf_counter() - start
        cards += 1
        said = vote(readings).rank
        named += said == rank
        misnamed += said is not None and said != rank
        for g in readings:
            corners += 1
            right += g.rank == rank
            wrong += g.rank not in (rank, NONE)
            sure = g.sure_rank(PARAMS.glyph_reader.sure_glyph_rank)
            sure_right += sure == rank
            sure_wrong += sure is not None and sure != rank
    return (
        f"{style:16s} cards {cards:4d}, located corners {corners:4d}: rank right {right / corners:6.1%}, wrong "
        f"{wrong / corners:5.1%}; sure right {sure_right / corners:6.1%}, wrong {sure_wrong / corners:5.1%}; "
        f"cards named {named / cards:6.1%} ({misnamed} wrong); {1000 * read_s / cards:.2f} ms/card (locate + read)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=20, help="scenes of 6 cards per look")
    args = parser.parse_args()
    glyphs = load_glyph_reader(default_models_dir())
    if glyphs is None:
        raise SystemExit(f"no glyph model in {default_models_dir()}: run 'kiosk train --glyphs'")
    detector = Detector()
    for style in (*face_styles(DECK), *foreign_styles()):
        print(bench_style(style, args.scenes, detector, glyphs), flush=True)


if __name__ == "__main__":
    main()
