"""``kiosk train --deck DECK --out models/``: rebuild the model that identifies a deck's cards;
``kiosk train --outline --out models/``: rebuild the detector's outline model (any deck);
``kiosk train --pips --out models/``: rebuild the pip model that checks number cards' suits;
``kiosk train --glyphs --out models/``: rebuild the glyph reader that names a located index glyph;
``kiosk train --requantize models/index.tflite``: write a float32 index member again by today's
export rule, from its own weights (:mod:`kiosk.vision.train.requantize`).

Index decks share one corner model (``index.tflite``); a face deck gets ``<deck-id>.tflite``; a
text deck (math-pairs) is read without a model, so there is nothing to train. ``--member N``
writes a further member (``index.N.tflite``, trained with another ``--seed``), whose answers
the kiosk averages with the others'.
Needs the ``train`` extra (TensorFlow); the kiosk itself only needs the TFLite runtime.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kiosk.decks import deck_ids, load_deck
from kiosk.errors import KioskError, UsageError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("train", help="train the identification model of a deck (needs TensorFlow)")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--deck", help=f"deck id: {', '.join(deck_ids())}")
    what.add_argument("--outline", action="store_true", help="the detector's outline model (all decks)")
    what.add_argument("--pips", action="store_true", help="the pip model that checks a number card's suit")
    what.add_argument("--glyphs", action="store_true", help="the glyph reader that names a located index glyph")
    what.add_argument(
        "--requantize",
        type=Path,
        metavar="FILE",
        help="write a float32 index member again by today's export rule, from its own weights",
    )
    p.add_argument("--out", type=Path, default=Path("models"), help="output folder (default: models)")
    p.add_argument("--per-class", type=int, default=None, help="synthetic training images per class")
    p.add_argument("--scenes", type=int, default=None, help="--outline: rendered training scenes")
    p.add_argument("--faces", type=int, default=None, help="--pips, --glyphs: training faces")
    p.add_argument("--epochs", type=int, default=None)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument(
        "--member",
        type=int,
        default=None,
        help="--deck: write the model's Nth member (index.N.tflite, another seed); "
        "the kiosk averages the members' answers",
    )
    p.add_argument("--workers", type=int, default=None, help="processes/threads (default 2)")
    p.add_argument(
        "--real",
        type=Path,
        default=None,
        help="optional folder of real labelled photos: one subfolder per label (card id or 'none')",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.deck is not None and args.deck not in deck_ids():
        raise UsageError(f"unknown deck {args.deck!r}; known decks: {', '.join(deck_ids())}")
    if args.deck is not None and load_deck(args.deck).identify_by == "text":
        raise UsageError(f"{args.deck} is read from its printed text, without a model: nothing to train")
    for name in ("per_class", "scenes", "faces", "epochs", "workers", "member"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1")
    for name, needs in (
        ("real", "deck"),
        ("per_class", "deck"),
        ("member", "deck"),
        ("scenes", "outline"),
    ):
        if getattr(args, name) is not None and not getattr(args, needs):
            raise UsageError(f"--{name.replace('_', '-')} goes with --{needs}")
    if args.faces is not None and not (args.pips or args.glyphs):
        raise UsageError("--faces goes with --pips or --glyphs")
    if args.requantize is not None:
        for name in ("epochs", "seed", "workers"):
            if getattr(args, name) is not None:
                raise UsageError(f"--{name} does not go with --requantize: it trains nothing")
    if args.real is not None and not args.real.is_dir():
        raise UsageError(f"--real {args.real}: not a folder")
    try:
        import tensorflow  # noqa: F401
    except ImportError as exc:
        raise KioskError("training needs TensorFlow: pip install 'kiosk[train]'") from exc
    if args.requantize is not None:
        from kiosk.vision.train.requantize import requantize

        requantize(args.requantize)
        return 0
    overrides = {
        k: v
        for k, v in (
            ("epochs", args.epochs),
            ("seed", args.seed),
            ("workers", args.workers),
        )
        if v is not None
    }
    if args.outline:
        from kiosk.vision.train.outlines import Settings as OutlineSettings
        from kiosk.vision.train.outlines import train_outlines

        if args.scenes is not None:
            overrides["samples"] = args.scenes
        train_outlines(args.out, OutlineSettings(**overrides))
        return 0
    if args.glyphs:
        from kiosk.vision.train.glyphs_fit import Settings as GlyphSettings
        from kiosk.vision.train.glyphs_fit import train_glyphs

        if args.faces is not None:
            overrides["faces"] = args.faces
        train_glyphs(args.out, GlyphSettings(**overrides))
        return 0
    if args.pips:
        from kiosk.vision.train.pips import Settings as PipSettings
        from kiosk.vision.train.pips import train_pips

        if args.faces is not None:
            overrides["faces"] = args.faces
        train_pips(args.out, PipSettings(**overrides))
        return 0
    from kiosk.vision.train.fit import Settings, train

    if args.per_class is not None:
        overrides["per_class"] = args.per_class
    if args.real is not None:
        overrides["real"] = str(args.real)
    train(args.deck, args.out, Settings(**overrides), member=args.member or 1)
    return 0
