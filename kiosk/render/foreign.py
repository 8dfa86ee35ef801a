"""Standard faces with corner indices laid out unlike the kiosk's own: test decks for enrolment,
benchmarks and training, never one of the kiosk's decks.

Four layouts the index model never saw, each a family drawn from a seed:

* ``low``: a big rank printed low in the corner, reaching below the fixed index crop, with a
  small suit beside it, outside that crop;
* ``side``: rank and suit side by side along the top edge;
* ``narrow``: a tall, narrow bold rank and no suit under it (the suit shows only in the body);
* ``stack``: a small condensed rank with its suit under it, set in from the corner.

A style is named ``foreign-<layout>`` (seed 0) or ``foreign-<layout>-<seed>``; the same name
always gives the same pixels. The body (pips, aces, courts) is the standard one, drawn with a
pip family and court art chosen by the seed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image

from kiosk.decks import Card
from kiosk.render.faces import RGB, Look, draw_body, ink_colour
from kiosk.render.pips import PIP_FAMILIES, draw_pip
from kiosk.render.scenes import Scene
from kiosk.render.text import draw_fitted

Box = tuple[float, float, float, float]

#: The decks whose cards can be drawn in a foreign layout.
FOREIGN_DECKS: tuple[str, ...] = ("standard-52", "piquet-32")
_STYLE = re.compile(r"foreign-(low|side|narrow|stack)(?:-(\d{1,9}))?")
_COURTS: tuple[str, ...] = ("portrait", "monogram", "silhouette")


@dataclass(frozen=True)
class Layout:
    """Where a foreign index sits, as fractions (x0, y0, x1, y1) of the face; no suit box: the
    index is the rank alone."""

    rank_box: Box
    suit_box: Box | None
    rank_font: str


# fmt: off
LAYOUTS: dict[str, Layout] = {
    "low": Layout(rank_box=(0.03, 0.15, 0.17, 0.36), suit_box=(0.175, 0.29, 0.24, 0.35),
                  rank_font="DejaVuSerif-Bold"),
    "side": Layout(rank_box=(0.035, 0.025, 0.125, 0.095), suit_box=(0.135, 0.03, 0.205, 0.09),
                   rank_font="DejaVuSans-Bold"),
    "narrow": Layout(rank_box=(0.04, 0.03, 0.105, 0.17), suit_box=None, rank_font="DejaVuSans-Bold"),
    "stack": Layout(rank_box=(0.07, 0.07, 0.15, 0.135), suit_box=(0.075, 0.145, 0.145, 0.195),
                    rank_font="DejaVuSansCondensed-Bold"),
}
# fmt: on


def foreign_styles() -> tuple[str, ...]:
    """The seed-0 style of each layout."""
    return tuple(f"foreign-{name}" for name in LAYOUTS)


def is_foreign_style(style: str) -> bool:
    return _STYLE.fullmatch(style) is not None


@lru_cache(maxsize=64)
def foreign_look(style: str) -> tuple[Look, Layout]:
    """The body's look and the index layout of ``style``: seed 0 is the layout as listed; other
    seeds move and resize its boxes by up to 0.012 of the face; the seed draws pips, court art,
    paper and inks either way."""
    match = _STYLE.fullmatch(style)
    if match is None:
        raise ValueError(f"{style!r} is no foreign style; expected foreign-<low|side|narrow|stack>[-<seed>]")
    name, seed = match.group(1), int(match.group(2) or 0)
    layout = LAYOUTS[name]
    rng = np.random.default_rng([seed, list(LAYOUTS).index(name), 53])
    if seed:
        suit_box = None if layout.suit_box is None else _jittered(layout.suit_box, rng)
        layout = replace(layout, rank_box=_jittered(layout.rank_box, rng), suit_box=suit_box)
    look = Look(
        rank_font=layout.rank_font,
        pips=PIP_FAMILIES[int(rng.integers(len(PIP_FAMILIES)))],
        court=_COURTS[int(rng.integers(len(_COURTS)))],
        paper=_rgb(np.minimum(255, rng.integers(238, 253) + rng.integers(0, 4, 3))),
        red=_rgb((rng.integers(180, 235), rng.integers(0, 50), rng.integers(20, 70))),
        black=_rgb(rng.integers(0, 45, 3)),
        rank_box=layout.rank_box,
        suit_box=layout.suit_box or layout.rank_box,
        pip_size=float(rng.uniform(0.15, 0.19)),
        ace_size=float(rng.uniform(0.25, 0.4)),
    )
    return look, layout


def _rgb(values: Iterable[int | np.integer]) -> RGB:
    r, g, b = (int(v) for v in values)
    return r, g, b


def _jittered(box: Box, rng: np.random.Generator) -> Box:
    dx, dy, grow = rng.uniform(-0.012, 0.012, 3)
    x0, y0, x1, y1 = box
    return (x0 + dx, y0 + dy - grow, x1 + dx, y1 + dy + grow)


def draw_foreign_face(card: Card, style: str, size: tuple[int, int]) -> Image.Image:
    """The upright face of ``card`` in foreign ``style`` at ``size`` (square corners: the caller
    rounds them)."""
    look, layout = foreign_look(style)
    w, h = size
    img = Image.new("RGB", size, look.paper)
    draw_body(img, card, look)
    if card.rank is None or card.suit is None:
        return img
    colour = ink_colour(card, look)
    for _turn in range(2):
        draw_fitted(img, card.rank, _pixels(layout.rank_box, w, h), layout.rank_font, colour)
        if layout.suit_box is not None:
            draw_pip(img, card.suit, look.pips, _pixels(layout.suit_box, w, h), colour)
        img.paste(img.rotate(180))
    return img


def _pixels(frac: Box, w: int, h: int) -> tuple[int, int, int, int]:
    return round(frac[0] * w), round(frac[1] * h), round(frac[2] * w), round(frac[3] * h)


def tilted(scene: Scene, degrees: float, direction: float) -> Scene:
    """``scene`` as a camera turned ``degrees`` away from looking straight down would see it,
    leaning towards ``direction`` (radians in the image plane); cards no longer wholly in the
    frame are dropped from the truth (their pixels stay)."""
    h, w = scene.image.shape[:2]
    f = float(max(w, h))
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    axis = np.array([np.cos(direction), np.sin(direction), 0.0]) * np.radians(degrees)
    turn = k @ cv2.Rodrigues(axis)[0] @ np.linalg.inv(k)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    seen = cv2.perspectiveTransform(src[None], turn)[0]
    # the turned frame shrunk back into the image, as a camera re-aimed at the table would see it
    (x0, y0), (x1, y1) = seen.min(axis=0), seen.max(axis=0)
    scale = min(w / (x1 - x0), h / (y1 - y0))
    dx, dy = (w - (x1 - x0) * scale) / 2 - x0 * scale, (h - (y1 - y0) * scale) / 2 - y0 * scale
    fit = np.array([[scale, 0, dx], [0, scale, dy], [0, 0, 1]])
    m = fit @ turn
    image = cv2.warpPerspective(scene.image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    cards = []
    for card in scene.cards:
        corners = cv2.perspectiveTransform(card.corners[None].astype(np.float64), m)[0].astype(np.float32)
        if corners.min() >= 0 and corners[:, 0].max() < w and corners[:, 1].max() < h:
            cards.append(replace(card, corners=corners))
    return replace(scene, image=image, cards=cards, labels=None)
