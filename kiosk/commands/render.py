"""``kiosk render card|sheet|scene|mat|passport``: the renderer's images as files, for people and scripts.

Every argument is checked before anything is drawn, so a typo costs one clear line (exit 2),
never a traceback or a half-written file.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import cv2

from kiosk.config import load_config
from kiosk.decks import DECK_IDS, Deck, load_deck
from kiosk.errors import KioskError, UsageError
from kiosk.i18n import LANGUAGES
from kiosk.mat import PAPER_MM


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("render", help="render card faces, printable sheets, table scenes, the mat, the passport")
    kinds = p.add_subparsers(dest="what", metavar="WHAT", parser_class=type(p))
    kinds.required = True

    card = kinds.add_parser("card", help="one card face as an image (PNG, JPEG ...)")
    card.add_argument("deck", metavar="DECK")
    card.add_argument("card_id", metavar="ID")
    card.add_argument("-o", "--output", required=True, metavar="FILE")
    card.add_argument("--style", help="face design (see the deck's styles)")
    card.add_argument("--width", type=int, default=500, help="width in pixels (default 500)")
    card.set_defaults(func=run_card)

    sheet = kinds.add_parser("sheet", help="a whole deck on printable A4 pages (PDF, cut marks)")
    sheet.add_argument("deck", metavar="DECK")
    sheet.add_argument("-o", "--output", required=True, metavar="FILE.pdf")
    sheet.add_argument("--level", metavar="L", help="only this math level (math-pairs)")
    sheet.add_argument("--style", help="face design")
    sheet.set_defaults(func=run_sheet)

    scene = kinds.add_parser("scene", help="a rendered photo of cards on a table, with its truth")
    scene.add_argument("--deck", required=True)
    scene.add_argument("--cards", type=int, default=5, metavar="N")
    scene.add_argument("--seed", type=int, default=0, metavar="S")
    scene.add_argument("--size", default="1280x720", metavar="WxH")
    scene.add_argument("--split", choices=("train", "heldout"), default="train")
    scene.add_argument("--hand", action="store_true", help="a hand over the table")
    scene.add_argument("--distractors", action="store_true", help="phones, paper, coins, pens")
    scene.add_argument("--no-overlap", action="store_true", help="cards never touch")
    scene.add_argument("-o", "--output", required=True, metavar="FILE.png")
    scene.add_argument("--truth", metavar="FILE.json", help="write the ground truth here")
    scene.set_defaults(func=run_scene)

    mat = kinds.add_parser("mat", help="the printable table mat with its ArUco markers (PDF or PNG)")
    mat.add_argument("--paper", choices=sorted(PAPER_MM), default="A3")
    mat.add_argument("--game", help="outline this game's zones")
    mat.add_argument("--players", type=int, help="number of players (zones per seat)")
    mat.add_argument("--dpi", type=int, default=150)
    mat.add_argument("-o", "--output", required=True, metavar="FILE.pdf")
    mat.set_defaults(func=run_mat)

    passport = kinds.add_parser(
        "passport", help="the printable passport: A5 booklet, two pages to an A4 sheet for folding (PDF)"
    )
    passport.add_argument("-o", "--output", required=True, metavar="FILE.pdf")
    passport.add_argument("--lang", choices=LANGUAGES, help="language (default: the config's kiosk.language)")
    passport.add_argument("--name", help="venue name on the cover (default: the config's kiosk.name)")
    passport.add_argument("--pages", action="store_true", help="the A5 pages in reading order, not imposed")
    passport.set_defaults(func=run_passport)


def _deck(deck_id: str) -> Deck:
    if deck_id not in DECK_IDS:
        raise UsageError(f"unknown deck {deck_id!r}; choose one of {', '.join(DECK_IDS)}")
    return load_deck(deck_id)


def _output(path: str, suffixes: tuple[str, ...]) -> Path:
    out = Path(path)
    if out.suffix.lower() not in suffixes:
        raise UsageError(f"{path}: the output must end in {' or '.join(suffixes)}")
    if not out.parent.is_dir():
        raise UsageError(f"{path}: folder {out.parent} does not exist")
    return out


def _style(deck_id: str, style: str | None) -> str | None:
    from kiosk.render.faces import face_styles

    if style is not None and style not in face_styles(deck_id):
        raise UsageError(f"deck {deck_id} has no style {style!r}; styles: {', '.join(face_styles(deck_id))}")
    return style


def parse_size(text: str) -> tuple[int, int]:
    """``1280x720`` -> (1280, 720); anything else, or a side outside 32..8192, is a UsageError."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not m:
        raise UsageError(f"--size {text!r}: expected WIDTHxHEIGHT, for example 1280x720")
    w, h = int(m.group(1)), int(m.group(2))
    if not (32 <= w <= 8192 and 32 <= h <= 8192):
        raise UsageError(f"--size {text!r}: each side must be between 32 and 8192 pixels")
    return w, h


def _saved(path: Path, what: str) -> int:
    print(f"{what} -> {path}")
    return 0


def run_card(args: argparse.Namespace) -> int:
    from kiosk.render.faces import render_face

    deck = _deck(args.deck)
    by_id = {c.id: c for c in deck.cards}
    if args.card_id not in by_id:
        raise UsageError(f"deck {deck.id} has no card {args.card_id!r} (e.g. {', '.join(list(by_id)[:4])} ...)")
    if not 16 <= args.width <= 4000:
        raise UsageError("--width must be between 16 and 4000 pixels")
    out = _output(args.output, (".png", ".jpg", ".jpeg", ".webp", ".bmp"))
    img = render_face(by_id[args.card_id], _style(deck.id, args.style), args.width)
    try:
        img.save(out)
    except OSError as exc:
        raise KioskError(f"{out}: cannot write: {exc}") from exc
    return _saved(out, f"{deck.id} {args.card_id}")


def run_sheet(args: argparse.Namespace) -> int:
    from kiosk.render.sheets import save_sheets_pdf

    deck = _deck(args.deck)
    if args.level is not None and args.level not in deck.levels:
        known = ", ".join(deck.levels) or "none in this deck"
        raise UsageError(f"--level {args.level!r}: levels: {known}")
    out = _output(args.output, (".pdf",))
    try:
        pages = save_sheets_pdf(out, deck.id, args.level, _style(deck.id, args.style))
    except OSError as exc:
        raise KioskError(f"{out}: cannot write: {exc}") from exc
    return _saved(out, f"{deck.id}: {pages} page(s)")


def run_scene(args: argparse.Namespace) -> int:
    from kiosk.render.scenes import render_scene

    deck = _deck(args.deck)
    size = parse_size(args.size)
    if not 0 <= args.cards <= len(deck.cards):
        raise UsageError(f"--cards must be between 0 and {len(deck.cards)} for deck {deck.id}")
    out = _output(args.output, (".png", ".jpg", ".jpeg", ".bmp"))
    truth = _output(args.truth, (".json",)) if args.truth else None
    scene = render_scene(
        deck.id,
        args.cards,
        args.seed,
        size,
        split=args.split,
        overlap=not args.no_overlap,
        hand=args.hand,
        distractors=args.distractors,
    )
    if not cv2.imwrite(str(out), scene.image):
        raise KioskError(f"{out}: cannot write the image")
    if truth is not None:
        data = {
            "size": list(size),
            "deck": deck.id,
            "seed": args.seed,
            "cards": [
                {
                    "id": c.card_id,
                    "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in c.corners],
                    "occluded": c.occluded,
                    "index_visible": c.index_visible,
                }
                for c in scene.cards
            ],
        }
        try:
            truth.write_text(json.dumps(data, indent=1), encoding="utf-8")
        except OSError as exc:
            raise KioskError(f"{truth}: cannot write: {exc}") from exc
    return _saved(out, f"{deck.id}: {len(scene.cards)} card(s)")


def run_mat(args: argparse.Namespace) -> int:
    from kiosk.games.registry import get_game
    from kiosk.referee.registry import BUILTIN, available_referees
    from kiosk.referee.zones import seats_layout
    from kiosk.render.mat import render_mat, save_mat_pdf

    if args.players is not None and not 1 <= args.players <= 10:
        raise UsageError("--players must be between 1 and 10")
    if not 30 <= args.dpi <= 600:
        raise UsageError("--dpi must be between 30 and 600")
    layout = None
    if args.game is not None:
        if args.game not in BUILTIN:
            raise UsageError(f"unknown game {args.game!r}; games: {', '.join(BUILTIN)}")
        referee = available_referees().get(args.game)
        if referee is None:
            raise KioskError(f"game {args.game!r} has no referee installed yet, so no table layout")
        engine = get_game(args.game)
        players = args.players or max(engine.min_players, min(4, engine.max_players))
        if not engine.min_players <= players <= engine.max_players:
            takes = (
                f"{engine.min_players}"
                if engine.min_players == engine.max_players
                else f"{engine.min_players} to {engine.max_players}"
            )
            raise UsageError(f"--players {players}: {args.game} is played by {takes}")
        layout = referee.layout(players)
    elif args.players is not None:
        layout = seats_layout(args.players)
    out = _output(args.output, (".pdf", ".png"))
    try:
        if out.suffix.lower() == ".pdf":
            save_mat_pdf(out, args.paper, layout, args.dpi)
        else:
            render_mat(args.paper, layout, args.dpi).save(out)
    except OSError as exc:
        raise KioskError(f"{out}: cannot write: {exc}") from exc
    return _saved(out, f"mat {args.paper}")


def run_passport(args: argparse.Namespace) -> int:
    from kiosk.render.passport_book import save_passport_pdf

    config = load_config()
    name = config.kiosk.name if args.name is None else args.name.strip()
    if not 1 <= len(name) <= 40:
        raise UsageError("--name must be 1 to 40 characters (the venue's name on the cover)")
    lang = args.lang or config.kiosk.language
    out = _output(args.output, (".pdf",))
    try:
        count = save_passport_pdf(out, lang, name, imposed=not args.pages)
    except OSError as exc:
        raise KioskError(f"{out}: cannot write: {exc}") from exc
    what = "A5 page(s)" if args.pages else "A4 side(s): print both sides, flip on the short edge, fold"
    return _saved(out, f"passport ({lang}): {count} {what}")
