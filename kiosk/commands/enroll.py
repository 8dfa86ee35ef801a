"""``kiosk enroll --deck DECK DIR``: teach the kiosk a venue's own printing of a face deck.

DIR holds one photo or scan per card, cropped to the card and named by card id (``rat-1.jpg``,
``7x8.png``). The gallery goes to the state directory, where the identifier finds it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kiosk.decks import deck_ids
from kiosk.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("enroll", help="enrol photos of a printed face deck (one per card, named by id)")
    p.add_argument("--deck", required=True, help=f"deck id: {', '.join(deck_ids())}")
    p.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help="where the gallery is stored (default $KIOSK_STATE_DIR or ~/.local/state/kiosk)",
    )
    p.add_argument("--models-dir", type=Path, default=None, help="folder of the .tflite models")
    p.add_argument("folder", type=Path, help="folder of images named by card id")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kiosk.vision.gallery import build_gallery

    if args.deck not in deck_ids():
        raise UsageError(f"unknown deck {args.deck!r}; known decks: {', '.join(deck_ids())}")
    if not args.folder.is_dir():
        raise UsageError(f"{args.folder}: not a folder")
    gallery = build_gallery(args.deck, args.folder, args.models_dir)
    path = gallery.save(args.state_dir)
    print(f"enrolled {len(gallery.answers) // 2} images ({len(set(gallery.answers))} cards) of {args.deck} -> {path}")
    return 0
