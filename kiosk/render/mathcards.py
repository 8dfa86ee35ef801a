"""Math-pairs faces: the calculation or its result, big and clear, for children at a table.

Calculations and results use different colours and frames so a child (and the camera) tells
them apart at a glance; the same text sits small in two corners so a card held in a fan can
still be read. The blank Pouilleux card carries only its name, small, under a louse.
"""

from __future__ import annotations

import re

from PIL import Image, ImageDraw

from kiosk.decks import Card
from kiosk.render.shapes import Shape, shapes_mask
from kiosk.render.text import draw_fitted

RGB = tuple[int, int, int]
CALC: tuple[RGB, RGB] = ((20, 70, 150), (232, 242, 255))  # ink, paper
RESULT: tuple[RGB, RGB] = ((170, 40, 20), (255, 244, 226))
BLANK: tuple[RGB, RGB] = ((60, 60, 60), (250, 250, 250))
_LOUSE: list[Shape] = [
    ("ellipse", (34, 30, 66, 80)),
    ("ellipse", (40, 16, 60, 34)),
    *[
        (
            "line",
            [(50 + k * 14, 40 + i * 12), (50 + k * 28, 36 + i * 14), (50 + k * 34, 46 + i * 14)],
            3,
        )
        for i in range(3)
        for k in (-1, 1)
    ],
    ("hole_line", [(42, 50), (58, 50)], 2),
    ("hole_line", [(42, 62), (58, 62)], 2),
]


def card_text(card: Card) -> str:
    """What the card shows: ``7 × 8`` for a calculation, ``56`` for a result."""
    if card.expression:
        text = re.sub(r"(?<=\d)\s*[x*]\s*(?=\d)", " × ", card.expression)
        text = re.sub(r"\s*([+\-:÷=])\s*", r" \1 ", text)
        return " ".join(text.replace("-", "−").split())
    if card.value is not None:
        return str(card.value)
    return card.name("fr")


def draw_math_face(card: Card, size: tuple[int, int]) -> Image.Image:
    w, h = size
    ink, paper = BLANK if card.kind == "blank" else (CALC if card.expression else RESULT)
    img = Image.new("RGB", size, paper)
    d = ImageDraw.Draw(img)
    inset = round(w * 0.05)
    d.rounded_rectangle(
        [inset, inset, w - inset, h - inset],
        radius=round(w * 0.07),
        outline=ink,
        width=max(2, w // 60 if card.expression else w // 40),
    )
    if card.kind == "blank":
        art = round(w * 0.4)
        img.paste(
            ink,
            ((w - art) // 2, round(h * 0.3), (w - art) // 2 + art, round(h * 0.3) + art),
            shapes_mask(_LOUSE, (art, art)),
        )
        draw_fitted(
            img,
            card.name("fr"),
            (round(w * 0.2), round(h * 0.62), round(w * 0.8), round(h * 0.68)),
            "DejaVuSerif",
            ink,
            squeeze=0.7,
        )
        return img
    text = card_text(card)
    underline = reads_otherwise_upside_down(text)
    took = draw_fitted(
        img,
        text,
        (round(w * 0.12), round(h * 0.36), round(w * 0.88), round(h * 0.64)),
        "DejaVuSans-Bold",
        ink,
        squeeze=0.8,
    )
    if underline:
        _underline(d, took, ink, max(2, h // 70))
    for _turn in range(2):
        took = draw_fitted(
            img,
            text,
            (round(w * 0.1), round(h * 0.06), round(w * 0.5), round(h * 0.12)),
            "DejaVuSans-Bold",
            ink,
            align="left",
            squeeze=0.8,
        )
        if underline:
            _underline(d, took, ink, max(1, h // 200))
        img.paste(img.rotate(180))
    return img


_TURNED = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6", " ": " ", "+": "+", "×": "×", "−": "−"}


def reads_otherwise_upside_down(text: str) -> bool:
    """Whether ``text`` turned 180 degrees reads as another text (``6`` and ``9``, ``18`` and
    ``81``, ``8 × 6`` and ``9 × 8``): such cards are underlined, as billiard balls are, so that a
    child and the camera know which way up they are."""
    if not all(ch in _TURNED for ch in text):
        return False
    return "".join(_TURNED[ch] for ch in reversed(text)) != text


def _underline(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], ink: RGB, thick: int) -> None:
    x0, _, x1, y1 = box
    d.rectangle([x0, y1 + thick, x1, y1 + 2 * thick], fill=ink)
