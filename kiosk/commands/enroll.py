"""``kiosk enroll --deck DECK DIR``: teach the kiosk a venue's own printing of a deck.

For a face deck, DIR holds one photo or scan per card, cropped to the card and named by card id
(``rat-1.jpg``, ``7x8.png``). For an index deck (``standard-52``), DIR holds one ordinary photo
per card lying on the table, named by card id (``7H.jpg``) or, with ``--in-order``, named in any
way that sorts in the deck's order; a photo showing no card or several is refused by name and the
rest are kept. ``--forget DECK`` removes what was enrolled. The gallery goes to the state
directory, where the readers find it. The operator menu's "Teach a deck" teaches an index deck
the same way from the camera (:mod:`kiosk.modes.enrolment`).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from kiosk.decks import deck_ids, load_deck
from kiosk.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("enroll", help="enrol photos of a printed deck (one per card), or forget one")
    p.add_argument("--deck", help=f"deck id: {', '.join(deck_ids())}")
    p.add_argument("--forget", metavar="DECK", help="remove the enrolled gallery of DECK")
    p.add_argument("--in-order", action="store_true", help="photos of an index deck named in the deck's order")
    p.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help="where the gallery is stored (default $KIOSK_STATE_DIR or ~/.local/state/kiosk)",
    )
    p.add_argument("--models-dir", type=Path, default=None, help="folder of the .tflite models")
    p.add_argument("folder", type=Path, nargs="?", help="folder of images named by card id")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.forget is not None:
        if args.deck is not None or args.folder is not None:
            raise UsageError("--forget DECK takes no --deck and no folder")
        return _forget(args.forget, args.state_dir)
    if args.deck is None or args.folder is None:
        raise UsageError("give --deck DECK and a folder of photos, or --forget DECK")
    if args.deck not in deck_ids():
        raise UsageError(f"unknown deck {args.deck!r}; known decks: {', '.join(deck_ids())}")
    if not args.folder.is_dir():
        raise UsageError(f"{args.folder}: not a folder")
    if load_deck(args.deck).identify_by == "index":
        return _enrol_photos(args)
    if args.in_order:
        raise UsageError("--in-order is for index decks (one photo per card on the table)")
    from kiosk.vision.gallery import build_gallery

    gallery = build_gallery(args.deck, args.folder, args.models_dir)
    path = gallery.save(args.state_dir)
    print(f"enrolled {len(gallery.answers) // 2} images ({len(set(gallery.answers))} cards) of {args.deck} -> {path}")
    return 0


def _forget(deck_id: str, state_dir: Path | None) -> int:
    from kiosk.vision.gallery import forget_gallery, gallery_path

    if deck_id not in deck_ids():
        raise UsageError(f"unknown deck {deck_id!r}; known decks: {', '.join(deck_ids())}")
    path = gallery_path(deck_id, state_dir)
    if not forget_gallery(deck_id, state_dir):
        print(f"{deck_id}: nothing enrolled ({path})")
        return 0
    print(f"{deck_id}: forgotten ({path} removed)")
    return 0


def photo_cards(deck_id: str, folder: Path, in_order: bool) -> list[tuple[str, str, Path]]:
    """(file name, card id, path) of each image in ``folder``: named by card id, or with
    ``in_order`` the files in natural order (``photo-2`` before ``photo-10``) as the deck's cards."""
    from kiosk.vision.gallery import IMAGE_SUFFIXES

    deck = load_deck(deck_id)
    files = sorted((p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES), key=_natural)
    if not files:
        raise UsageError(f"{folder}: no images ({', '.join(IMAGE_SUFFIXES)})")
    if in_order:
        if len(files) != len(deck):
            raise UsageError(
                f"{folder}: {len(files)} images for the {len(deck)} cards of {deck_id}; "
                "with --in-order there is one per card, in the deck's order"
            )
        return [(p.name, card.id, p) for p, card in zip(files, deck.cards, strict=True)]
    unknown = [p.name for p in files if p.stem.upper() not in deck]
    if unknown:
        raise UsageError(f"not named by a card id of {deck_id} (e.g. 7H.jpg, 10S.png): {', '.join(unknown)}")
    return [(p.name, p.stem.upper(), p) for p in files]


def _natural(path: Path) -> list[int | str]:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def _enrol_photos(args: argparse.Namespace) -> int:
    from kiosk.vision.detect import Detector
    from kiosk.vision.enrolled import missing_cards
    from kiosk.vision.gallery import Gallery
    from kiosk.vision.teaching import enrol_photos

    photos = photo_cards(args.deck, args.folder, args.in_order)
    previous = Gallery.load(args.deck, args.state_dir)
    done = enrol_photos(args.deck, photos, Detector(), previous)
    path = done.gallery.save(args.state_dir)
    for line in done.refused:
        print(f"refused {line}")
    missing = missing_cards(done.gallery)
    print(f"enrolled {len(done.taught)} cards of {args.deck} -> {path}")
    if missing:
        print(f"still to enrol ({len(missing)}): {', '.join(missing)}; the deck is read this way once all are")
    return 1 if done.refused else 0
