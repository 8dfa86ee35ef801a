"""``kiosk stamp CARD_ID -o FILE.png``: preview a place's passport stamp exactly as it prints."""

from __future__ import annotations

import argparse
from datetime import date
from pathlib import Path

from kiosk.config import load_config
from kiosk.decks import load_deck
from kiosk.devices.stamp import DECK_ID, render_stamp
from kiosk.errors import KioskError, UsageError
from kiosk.i18n import LANGUAGES


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("stamp", help="render the passport stamp of a place card to a PNG")
    p.add_argument("card_id", metavar="CARD_ID", help="an L'Affiche Belge card id (7H, QS, JK1 ...)")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="FILE.png")
    p.add_argument("--lang", choices=LANGUAGES, help="language of the stamp (default: config)")
    p.add_argument(
        "--width",
        type=int,
        metavar="DOTS",
        help="printer width in dots: 384 for 58 mm, 576 for 80 mm (default: config)",
    )
    p.add_argument("--date", type=date.fromisoformat, metavar="YYYY-MM-DD", help="default: today")
    p.add_argument("--bilingual", action="store_true", help="place name in French and Dutch")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = load_config()
    if args.output.suffix.lower() != ".png":
        raise UsageError(
            f"-o {args.output}: a stamp is a 1-bit PNG, exactly the dots the printer gets; name the file .png"
        )
    if args.card_id not in load_deck(DECK_ID):
        raise UsageError(f"{args.card_id!r} is not an L'Affiche Belge card (ids like 7H, 10S, QD, JK1)")
    width = config.printer.width if args.width is None else args.width
    if width <= 0 or width % 8 or width > 2048:
        raise UsageError(f"--width {width}: a multiple of 8 dots (384 for 58 mm, 576 for 80 mm)")
    image = render_stamp(
        args.card_id,
        day=args.date or date.today(),
        lang=args.lang or config.kiosk.language,
        width=width,
        kiosk_name=config.kiosk.name,
        bilingual=args.bilingual,
    )
    try:
        image.save(args.output, "PNG")
    except OSError as exc:
        raise KioskError(f"cannot write {args.output}: {exc}") from exc
    print(f"{args.output}: {image.width}x{image.height} dots, 1-bit PNG")
    return 0
