"""``kiosk decks [--json]``: the shipped decks and their card counts."""

from __future__ import annotations

import argparse
import json

from kiosk.decks import deck_ids, load_deck


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("decks", help="list the decks and their card counts")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    decks = [load_deck(i) for i in deck_ids()]
    if args.json:
        print(
            json.dumps(
                [{"id": d.id, "cards": len(d), "identify_by": d.identify_by, "name": dict(d.names)} for d in decks],
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        for d in decks:
            print(f"{d.id:<16} {len(d):>4} cards  {d.name('en')}")
    return 0
