"""``kiosk recognize --deck DECK [--json] IMAGE...``: the cards in still images.

Text: one line per image, then one line per card (id, confidence, corners). ``--json``: one
JSON object per image and per line, ``{"image": path, "cards": [{"id", "confidence",
"corners"}]}``. An image that cannot be read, or is too large to decode
(:mod:`kiosk.vision.stills`: its size is checked from the header first), prints one error line
on stderr, the others are still processed, and the exit code is 1.
"""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.decks import deck_ids
from kiosk.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("recognize", help="name the cards in still images")
    p.add_argument("--deck", required=True, help="deck id (see `kiosk decks`)")
    p.add_argument("--json", action="store_true", help="one JSON object per image")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.deck not in deck_ids():
        raise UsageError(f"unknown deck {args.deck!r} (known: {', '.join(deck_ids())})")
    from kiosk.vision.detect import Detector
    from kiosk.vision.identify import Identifier
    from kiosk.vision.recognize import recognize
    from kiosk.vision.stills import ImageError, read_image

    identifier = Identifier(args.deck)
    detector = Detector()
    status = 0
    for path in args.images:
        try:
            image = read_image(path)
        except ImageError as exc:
            print(f"kiosk: error: {exc}", file=sys.stderr)
            status = 1
            continue
        cards = recognize(image, identifier, detector)
        if args.json:
            print(json.dumps({"image": path, "cards": [c.to_json() for c in cards]}))
            continue
        print(f"{path}: {len(cards)} card{'s' if len(cards) != 1 else ''}")
        for c in cards:
            corners = " ".join(f"({x:.0f},{y:.0f})" for x, y in c.corners)
            print(f"  {c.card_id:<6} {c.confidence:.2f}  {corners}")
        sys.stdout.flush()
    return status
