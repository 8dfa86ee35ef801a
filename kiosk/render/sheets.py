"""Printable sheets of a whole deck: A4 pages of nine real-size cards (63 x 88 mm) with cut marks,
so a venue can print the math and animal decks (or any deck) on card stock and cut them out.

Cards touch each other, so one straight cut serves two cards; the marks sit in the margin, on
the extension of every cut line, where the blade starts.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from kiosk.decks import Card, load_deck
from kiosk.render.faces import face_styles, render_face
from kiosk.render.text import draw_fitted

A4_MM = (210, 297)
CARD_MM = (63, 88)
GRID = (3, 3)
DEFAULT_DPI = 300


def _mm(v: float, dpi: int) -> int:
    return round(v / 25.4 * dpi)


def deck_cards(deck_id: str, level: str | None = None) -> list[Card]:
    """The cards of a deck, or of one math level (blank cards, such as the Pouilleux, always)."""
    deck = load_deck(deck_id)
    if level is None:
        return list(deck.cards)
    if level not in deck.levels:
        known = ", ".join(deck.levels) or "none"
        raise ValueError(f"deck {deck_id} has no level {level!r}; levels: {known}")
    return [c for c in deck.cards if level in c.levels or c.kind == "blank"]


def render_sheets(
    deck_id: str, level: str | None = None, style: str | None = None, dpi: int = DEFAULT_DPI
) -> list[Image.Image]:
    """The A4 pages (RGB, portrait) holding every card of the deck (or level) once."""
    cards = deck_cards(deck_id, level)
    if style is not None and style not in face_styles(deck_id):
        raise ValueError(f"deck {deck_id} has no face style {style!r}; styles: {face_styles(deck_id)}")
    page_w, page_h = _mm(A4_MM[0], dpi), _mm(A4_MM[1], dpi)
    card_w, card_h = _mm(CARD_MM[0], dpi), _mm(CARD_MM[1], dpi)
    cols, rows = GRID
    left, top = (page_w - cols * card_w) // 2, (page_h - rows * card_h) // 2
    mark, gap = _mm(5, dpi), _mm(1.5, dpi)
    per_page = cols * rows
    n_pages = max(1, -(-len(cards) // per_page))
    pages = []
    for p in range(n_pages):
        page = Image.new("RGB", (page_w, page_h), (255, 255, 255))
        draw = ImageDraw.Draw(page)
        for k, card in enumerate(cards[p * per_page : (p + 1) * per_page]):
            x, y = left + (k % cols) * card_w, top + (k // cols) * card_h
            # Sheets are rendered once and are large: bypass the face cache.
            face = render_face.__wrapped__(card, style, card_w)
            page.paste(face.resize((card_w, card_h)) if face.height != card_h else face, (x, y))
        line = max(1, dpi // 150)
        for i in range(cols + 1):
            x = left + i * card_w
            draw.line([(x, top - gap - mark), (x, top - gap)], fill=(0, 0, 0), width=line)
            draw.line(
                [(x, top + rows * card_h + gap), (x, top + rows * card_h + gap + mark)],
                fill=(0, 0, 0),
                width=line,
            )
        for j in range(rows + 1):
            y = top + j * card_h
            draw.line([(left - gap - mark, y), (left - gap, y)], fill=(0, 0, 0), width=line)
            draw.line(
                [(left + cols * card_w + gap, y), (left + cols * card_w + gap + mark, y)],
                fill=(0, 0, 0),
                width=line,
            )
        label = f"{deck_id}{' · ' + level if level else ''} · {p + 1}/{n_pages} · 63 × 88 mm · 100 %"
        draw_fitted(
            page,
            label,
            (left, page_h - top // 2 - _mm(2, dpi), page_w - left, page_h - top // 2 + _mm(2, dpi)),
            "DejaVuSans-Bold",
            (120, 120, 120),
        )
        pages.append(page)
    return pages


def save_sheets_pdf(
    path: Path | str,
    deck_id: str,
    level: str | None = None,
    style: str | None = None,
    dpi: int = DEFAULT_DPI,
) -> int:
    """Write the deck's sheets as one multi-page A4 PDF; returns the number of pages."""
    pages = render_sheets(deck_id, level, style, dpi)
    pages[0].save(str(path), "PDF", resolution=float(dpi), save_all=True, append_images=pages[1:])
    return len(pages)
