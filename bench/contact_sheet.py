"""Contact sheet of every passport stamp, to judge them by eye; median render time, the size of
a stamp's ESC/POS job (and its transfer time over the default 19200-baud serial link) and how
alike the two most alike landmarks are (intersection over union of their printed ink).

    .venv/bin/python bench/contact_sheet.py /tmp/stamps.png [--width 384|576] [--lang fr]

The sheet is written where you say (not into the repository); each stamp is shown at its
printed size, one thermal dot per pixel, on a grey background so the paper edge shows.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from datetime import date
from pathlib import Path

import numpy as np
from escpos.printer import Dummy
from PIL import Image, ImageDraw

from kiosk.decks import load_deck
from kiosk.devices.printer import PrinterSettings, print_stamp
from kiosk.devices.stamp import DECK_ID, render_stamp, stamp_motif
from kiosk.render.text import font

COLUMNS, GAP, LABEL = 6, 16, 18


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path, help="PNG file to write")
    parser.add_argument("--width", type=int, default=384, help="printer dots: 384 or 576")
    parser.add_argument("--lang", default="fr", choices=("fr", "nl", "de", "en"))
    parser.add_argument("--name", default="Kiosk Belgica", help="kiosk name on the stamps")
    args = parser.parse_args()

    cards = list(load_deck(DECK_ID))
    stamps, seconds = [], []
    for card in cards:
        start = time.perf_counter()
        stamps.append(render_stamp(card.id, day=date.today(), lang=args.lang, width=args.width, kiosk_name=args.name))
        seconds.append(time.perf_counter() - start)

    w, h = args.width, stamps[0].height
    rows = -(-len(stamps) // COLUMNS)
    sheet = Image.new("L", (COLUMNS * (w + GAP) + GAP, rows * (h + GAP + LABEL) + GAP), 160)
    draw = ImageDraw.Draw(sheet)
    for i, (card, img) in enumerate(zip(cards, stamps, strict=True)):
        x = GAP + (i % COLUMNS) * (w + GAP)
        y = GAP + (i // COLUMNS) * (h + GAP + LABEL)
        sheet.paste(img.convert("L"), (x, y))
        draw.text(
            (x, y + h + 2),
            f"{card.id}  {card.name(args.lang)}",
            fill=0,
            font=font("DejaVuSans-Bold", 13),
        )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(args.output)
    settings = PrinterSettings(width=args.width, profile="POS-5890" if w <= 384 else "TM-T20II")
    sizes = []
    for img in stamps:
        dev = Dummy(profile=settings.profile)
        print_stamp(dev, img, settings, pause=lambda s: None)
        sizes.append(len(dev.output))
    job = statistics.median(sizes)
    serial_s = job * 10 / settings.baudrate  # 8N1: 10 bits per byte
    pauses = -(-h // settings.strip_rows) * settings.strip_pause_s
    print(f"{args.output}: {len(stamps)} stamps, {w} dots wide, sheet {sheet.width}x{sheet.height}")
    print(f"render median {statistics.median(seconds) * 1000:.1f} ms, max {max(seconds) * 1000:.1f} ms")
    print(
        f"ESC/POS job median {job / 1024:.1f} KiB: {serial_s:.1f} s at {settings.baudrate} baud"
        f" + {pauses:.1f} s of strip pauses"
    )
    motifs = {card.id: np.asarray(stamp_motif(card.id, w)) for card in cards}
    iou, a, b = max(
        ((motifs[a] & motifs[b]).sum() / (motifs[a] | motifs[b]).sum(), a, b)
        for a, b in itertools.combinations(motifs, 2)
    )
    print(f"{len(motifs)} landmarks; the two most alike, {a} and {b}: ink IoU {iou:.2f}")


if __name__ == "__main__":
    main()
