"""The how-to-play pictures: a game's own card faces on its own mat, drawn from a short spec.

A spec is words separated by spaces: a card id of the game's deck (``9C``, ``rat-1``, ``7x8``),
``#`` for a card face down, ``#7`` for seven of them. A row picture (:attr:`Picture.row`) also
takes signs, one of :data:`SIGNS` or a short literal after a quote (``'+100``, ``'×2``), stacks
(``10S/9H`` is the 9 of hearts laid on the 10 of spades, as in a column) and ``|``, which starts
a new line. A zone of a mat picture (:attr:`Picture.zones`) may start with how its cards lie
(:data:`MODES`): ``row`` (default, side by side, overlapping when they must), ``pile`` (stacked,
the last on top), ``column`` (a cascade downwards), ``grid`` (rows and columns) or ``double``
(each card on a face-down one).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from kiosk import mat
from kiosk.decks import Deck
from kiosk.howto import Picture
from kiosk.referee.zones import Layout
from kiosk.render.faces import ASPECT, corner_mask, render_face
from kiosk.render.mat import FIELD, label_turn, render_mat
from kiosk.render.text import font

SIGNS: frozenset[str] = frozenset("+ = → ← ↔ ↺ ✓ ✗ ? ★ < > ♣ ♦ ♥ ♠".split())
MODES: tuple[str, ...] = ("row", "pile", "column", "grid", "double")
SIGN_COLOURS = {"✓": (120, 220, 130), "✗": (255, 92, 92), "♦": (255, 120, 120), "♥": (255, 120, 120)}
SIGN_INK = (236, 232, 210)  # the mat's light ink on the felt
LIT = (253, 218, 36)  # the kiosk's yellow: the zones a step is about
FACE_PX = 240  # faces are rendered once at this width and resized: the face cache stays small
SUPERSAMPLE = 2


@dataclass(frozen=True)
class Item:
    """One thing in a spec: a ``card`` (its id), a ``back`` (a face-down card), a ``sign``, a
    ``stack`` (``10S/9H``: the 9 of hearts laid on the 10 of spades) or a line ``break``."""

    kind: str
    value: str = ""


def parse(spec: str, deck: Deck, signs: bool = False) -> tuple[str, list[Item]]:
    """The lay mode and the items of ``spec``; a word that is no card of ``deck`` (nor, with
    ``signs``, a sign or a stack) is a ValueError naming it."""
    words = spec.split()
    mode = words.pop(0) if words and words[0] in MODES else "row"
    items: list[Item] = []
    for word in words:
        if word == "#" or (word.startswith("#") and word[1:].isdigit()):
            items += [Item("back")] * (int(word[1:]) if len(word) > 1 else 1)
        elif word in deck:
            items.append(Item("card", word))
        elif signs and word == "|":
            items.append(Item("break"))
        elif signs and (word in SIGNS or (word.startswith("'") and 1 < len(word) <= 6)):
            items.append(Item("sign", word.removeprefix("'")))
        elif signs and "/" in word and all(part in deck for part in word.split("/")):
            items.append(Item("stack", word))
        else:
            allowed = (
                f"a stack (9S/8H), '|', a sign ({' '.join(sorted(SIGNS))}) or a quoted literal" if signs else "a mode"
            )
            raise ValueError(f"picture {spec!r}: {word!r} is no card of deck {deck.id!r}, '#', '#N' nor {allowed}")
    return mode, items


def render_picture(picture: Picture, deck: Deck, layout: Layout, size: tuple[int, int]) -> Image.Image:
    """``picture`` as an RGB image that fits ``size``: a row fills it, a mat keeps the mat's shape."""
    if picture.zones:
        width = min(size[0], round(size[1] * mat.ASPECT))
        out = (width, round(width / mat.ASPECT))
        img = _mat_picture(picture, deck, layout, (out[0] * SUPERSAMPLE, out[1] * SUPERSAMPLE))
    else:
        out = size
        img = _row_picture(picture.row, deck, (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE))
    return img.resize(out, Image.Resampling.LANCZOS)


# cards -------------------------------------------------------------------------------------------
def _card(deck: Deck, item: Item, height: int) -> Image.Image:
    width = max(4, round(height / ASPECT))
    if item.kind == "back":
        return _back((width, height))
    return render_face(deck[item.value], width=FACE_PX).resize((width, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def _back(size: tuple[int, int]) -> Image.Image:
    """A card face down: the Belgian red, a yellow lattice, inside a white border."""
    w, h = size
    img = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(img)
    inset = max(2, round(w * 0.07))
    draw.rounded_rectangle([inset, inset, w - inset, h - inset], radius=max(2, w // 12), fill=(190, 30, 45))
    step = max(4, w // 5)
    line = max(1, w // 60)
    for k in range(-h, w + h, step):
        draw.line([(k, inset), (k + h, inset + h)], fill=(253, 218, 36), width=line)
        draw.line([(k, inset), (k - h, inset + h)], fill=(253, 218, 36), width=line)
    draw.rectangle([0, 0, w, inset - 1], fill=(255, 255, 255))
    draw.rectangle([0, h - inset + 1, w, h], fill=(255, 255, 255))
    draw.rectangle([0, 0, inset - 1, h], fill=(255, 255, 255))
    draw.rectangle([w - inset + 1, 0, w, h], fill=(255, 255, 255))
    out = Image.new("RGB", size, (255, 255, 255))
    out.paste(img, (0, 0), corner_mask(size))
    return out


def _lay(canvas: Image.Image, card: Image.Image, x: float, y: float) -> None:
    """Paste ``card`` with its top-left at (x, y), rounded, over a soft shadow."""
    x, y = round(x), round(y)
    mask = corner_mask(card.size)
    shadow = max(1, card.width // 30)
    canvas.paste((20, 45, 32), (x + shadow, y + shadow, x + shadow + card.width, y + shadow + card.height), mask)
    canvas.paste(card, (x, y), mask)


# a row of cards and signs ------------------------------------------------------------------------
STACK_STEP = (0.14, 0.22)  # how far each card of a stack lies from the one under it (card widths, heights)
LINE_GAP = 0.12  # between two lines of a row picture, in card heights


def _row_picture(spec: str, deck: Deck, size: tuple[int, int]) -> Image.Image:
    """The cards and signs of ``spec``, line by line, as large as the box lets the widest line be."""
    w, h = size
    img = Image.new("RGB", size, FIELD)
    _, items = parse(spec, deck, signs=True)
    lines: list[list[Item]] = [[]]
    for item in items:
        if item.kind == "break":
            lines.append([])
        else:
            lines[-1].append(item)
    tallest = max((len(i.value.split("/")) for i in items if i.kind == "stack"), default=1)
    line_h = 1 + STACK_STEP[1] * (tallest - 1)  # in card heights
    block = len(lines) * line_h + LINE_GAP * (len(lines) - 1)
    card_h = h * 0.8 / block
    card_h *= min(1.0, w * 0.94 / max(_row_spans(line, card_h)[1] for line in lines))
    draw = ImageDraw.Draw(img)
    for k, line in enumerate(lines):
        spans, width = _row_spans(line, card_h)
        shift = (w - width) / 2
        top = (h - block * card_h) / 2 + k * (line_h + LINE_GAP) * card_h
        for item, (left, right) in zip(line, spans, strict=True):
            if item.kind == "sign":
                draw.text(
                    ((left + right) / 2 + shift, top + line_h * card_h / 2),
                    item.value,
                    anchor="mm",
                    font=_sign_font(card_h),
                    fill=SIGN_COLOURS.get(item.value, SIGN_INK),
                )
                continue
            parts = [Item("card", c) for c in item.value.split("/")] if item.kind == "stack" else [item]
            y = top + (line_h - 1 - STACK_STEP[1] * (len(parts) - 1)) * card_h / 2
            for n, part in enumerate(parts):
                _lay(
                    img,
                    _card(deck, part, round(card_h)),
                    left + shift + n * STACK_STEP[0] * card_h / ASPECT,
                    y + n * STACK_STEP[1] * card_h,
                )
    return img


def _sign_font(card_h: float) -> ImageFont.FreeTypeFont:
    return font("DejaVuSans-Bold", max(8, round(card_h * 0.4)))


def _row_spans(items: list[Item], card_h: float) -> tuple[list[tuple[float, float]], float]:
    """Where each item of a row lies (left, right) for cards ``card_h`` tall, and the row's width;
    face-down cards side by side overlap, as a hand does."""
    cw = card_h / ASPECT
    gap = cw * 0.1
    spans: list[tuple[float, float]] = []
    right = 0.0
    for i, item in enumerate(items):
        if item.kind == "sign":
            left, width = right + gap, max(cw * 0.3, _sign_font(card_h).getlength(item.value))
        elif item.kind == "back" and i and items[i - 1].kind == "back":
            left, width = spans[-1][0] + cw * 0.3, cw
        else:
            left, width = right + gap, cw * (1 + STACK_STEP[0] * item.value.count("/"))
        spans.append((left, left + width))
        right = left + width
    return spans, right + gap


# cards on the game's mat ------------------------------------------------------------------------
def _free_area(zone_rect: tuple[float, float, float, float], turn: int) -> tuple[float, float, float, float]:
    """The part of a zone (pixels) that its printed label leaves free."""
    x0, y0, x1, y1 = zone_rect
    band = min(x1 - x0, y1 - y0) * 0.2
    if turn == 0:
        y1 -= band
    elif turn == 180:
        y0 += band
    elif turn == 90:
        x1 -= band
    else:
        x0 += band
    pad = min(x1 - x0, y1 - y0) * 0.05
    return x0 + pad, y0 + pad, x1 - pad, y1 - pad


def _fit(mode: str, count: int, area: tuple[float, float, float, float]) -> float:
    """The tallest card that lets ``count`` cards lie in ``area`` the way ``mode`` says."""
    aw, ah = area[2] - area[0], area[3] - area[1]
    by_width = aw * ASPECT  # a single card as wide as the area
    if mode == "column":
        return min(ah / (1 + 0.25 * (count - 1)), by_width)
    if mode == "grid":
        return _grid(count, area)[1]
    if mode == "double":
        return min(ah / 1.08, aw / (count * 1.14) * ASPECT)
    if mode == "row":
        return min(ah, by_width / (1 + 0.15 * (count - 1)))  # overlapping down to 15 % showing
    return min(ah / 1.05, by_width / 1.05)  # pile


def _grid(count: int, area: tuple[float, ...]) -> tuple[int, float]:
    """The number of columns that lets ``count`` cards lie largest in ``area``, and their height."""
    aw, ah = area[2] - area[0], area[3] - area[1]
    sizes = [(min(ah / (-(-count // cols) * 1.06), aw / (cols * 1.06) * ASPECT), cols) for cols in range(1, count + 1)]
    height, cols = max(sizes)
    return cols, height


def _place(
    canvas: Image.Image, deck: Deck, mode: str, items: list[Item], area: tuple[float, ...], card_h: float
) -> None:
    x0, y0, x1, y1 = area
    ch = round(card_h)
    cw = ch / ASPECT
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    n = len(items)
    if mode == "pile":
        visible = items[-4:]
        for k, item in enumerate(visible):
            off = (k - (len(visible) - 1) / 2) * cw * 0.04
            _lay(canvas, _card(deck, item, ch), cx - cw / 2 + off, cy - ch / 2 - off)
    elif mode == "column":
        step = min(ch * 0.25, (y1 - y0 - ch) / max(1, n - 1))
        for k, item in enumerate(items):
            _lay(canvas, _card(deck, item, ch), cx - cw / 2, y0 + k * step)
    elif mode == "grid":
        cols = _grid(n, area)[0]
        rows = -(-n // cols)
        for k, item in enumerate(items):
            r, c = divmod(k, cols)
            _lay(
                canvas,
                _card(deck, item, ch),
                cx + (c - (cols - 1) / 2) * cw * 1.06 - cw / 2,
                cy + (r - (rows - 1) / 2) * ch * 1.06 - ch / 2,
            )
    else:
        gap = 1.14 if mode == "double" else 1.08
        step = min(cw * gap, (x1 - x0 - cw) / max(1, n - 1)) if n > 1 else 0.0
        left = cx - (step * (n - 1) + cw) / 2
        for k, item in enumerate(items):
            x = left + k * step
            if mode == "double":
                _lay(canvas, _back((round(cw), ch)), x + cw * 0.08, cy - ch / 2 + ch * 0.05)
                x, y = x - cw * 0.02, cy - ch / 2 - ch * 0.03
            else:
                y = cy - ch / 2
            _lay(canvas, _card(deck, item, ch), x, y)


def _mat_picture(picture: Picture, deck: Deck, layout: Layout, size: tuple[int, int]) -> Image.Image:
    w, h = size
    dpi = max(20, round(w / (mat.PAPER_MM["A3"][0] / 25.4)))
    img = render_mat("A3", layout, dpi).resize(size, Image.Resampling.LANCZOS)
    lay: list[tuple[str, list[Item], tuple[float, float, float, float]]] = []
    for name, spec in picture.zones.items():
        zone = layout[name]
        rect = (zone.rect[0] * w, zone.rect[1] * h, zone.rect[2] * w, zone.rect[3] * h)
        mode, items = parse(spec, deck)
        if items:
            lay.append((mode, items, _free_area(rect, label_turn(zone))))
    card_h = min([_fit(mode, len(items), area) for mode, items, area in lay], default=0.0)
    card_h = min(card_h, h * 0.26)
    for mode, items, area in lay:
        _place(img, deck, mode, items, area, card_h)
    draw = ImageDraw.Draw(img)
    for name in picture.lit:
        x0, y0, x1, y1 = layout[name].rect
        draw.rounded_rectangle([x0 * w, y0 * h, x1 * w, y1 * h], radius=w // 60, outline=LIT, width=max(3, w // 110))
    return img
