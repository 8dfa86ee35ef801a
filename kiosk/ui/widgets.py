"""Drawing helpers and the big touch button: wrapped text, banners, panels, buttons, labels.

Every text goes through :func:`text` (buttons' and banners' too), which shrinks a text to fit
but never under the screen's smallest size (:func:`kiosk.ui.theme.min_px`), or is a one-line
:func:`label` on a picture. Inside
:func:`recording`, each text and each box drawn is kept as a :class:`Drawn`, so a test can check
that nothing overflows or overlaps; outside it, recording costs one comparison per call.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pygame

from kiosk.ui import theme

_OPERATORS = frozenset("×+−-=÷")
#: Signs French sets apart with a space ("passeport !"): they stay with the word before them.
_CLOSING = frozenset(":;!?»")
#: Characters after which a balanced wrap prefers to break: the end of a phrase.
_PHRASE_ENDS = frozenset(",;:.!?")
ELLIPSIS = "…"


@dataclass(frozen=True)
class Drawn:
    """A text or a box as drawn, kept by :func:`recording`.

    For a text: ``rect`` is the box it was given, ``used`` what its lines took, ``px`` the font
    size it was drawn at, ``cut`` whether lines or words had to be left out. For a box
    (``kind`` button, banner, panel, picture): ``rect`` and ``used`` are the box.
    """

    kind: str
    rect: pygame.Rect
    used: pygame.Rect
    content: str = ""
    px: int = 0
    cut: bool = False


_recorded: list[Drawn] | None = None


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Keep every text and box drawn inside the ``with`` block, in drawing order."""
    global _recorded
    previous, _recorded = _recorded, []
    try:
        yield _recorded
    finally:
        _recorded = previous


def mark(rect: pygame.Rect, kind: str) -> None:
    """Record a box that no text of another box may cover (a button, a banner, the live picture)."""
    if _recorded is not None:
        _recorded.append(Drawn(kind, pygame.Rect(rect), pygame.Rect(rect)))


def _units(paragraph: str) -> list[str]:
    """The words of ``paragraph`` as they may be wrapped: a calculation (``7 × 8 = 56``) kept as
    one, since a child must not read ``7`` on one line and ``× 8`` on the next; a number kept with
    the word before it (``Joueur 3``); French closing signs (``passeport !``) with their word."""
    units: list[str] = []
    for word in paragraph.split():
        glued = units and (
            word in _OPERATORS or units[-1].rsplit(" ", 1)[-1] in _OPERATORS or word[0] in _CLOSING or _is_number(word)
        )
        if glued:
            units[-1] += " " + word
        else:
            units.append(word)
    return units


def _is_number(word: str) -> bool:
    return word.rstrip(",.;:!?)").isdigit()


#: A piece of a paragraph that may start a line, and whether it follows the one before it
#: without a space (the second half of a word broken after its hyphen).
_Unit = tuple[str, bool]
_HYPHEN = re.compile(r"(?<=\w-)(?=\w)")  # after the hyphen of "Drucker-Testseite"


def wrap(text: str, fnt: pygame.font.Font, width: int, balance: bool = False) -> list[str]:
    """Word wrap into ``width``; a word too wide for it is broken after a hyphen it holds
    (``Drucker-`` / ``Testseite``), and without one stays on its own line.

    Greedy by default. ``balance`` keeps the same number of lines but evens their lengths and
    breaks at the end of a phrase (after a comma, a colon) where that costs little: centred
    messages then read phrase by phrase.
    """
    return list(_wrapped(text, fnt, width, balance))


@lru_cache(maxsize=1024)
def _wrapped(text: str, fnt: pygame.font.Font, width: int, balance: bool) -> tuple[str, ...]:
    """:func:`wrap`, kept: a screen redrawn at the camera's rate wraps the same texts again."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        units = [piece for unit in _units(paragraph) for piece in _pieces(unit, fnt, width)]
        greedy = _greedy(units, fnt, width)
        lines += _balanced(units, fnt, width, len(greedy)) if balance and len(greedy) > 1 else greedy
    return tuple(lines)


def _pieces(unit: str, fnt: pygame.font.Font, width: int) -> list[_Unit]:
    """``unit`` whole, or broken after its hyphens where it is too wide for ``width``."""
    if fnt.size(unit)[0] <= width:
        return [(unit, False)]
    return [(piece, i > 0) for i, piece in enumerate(_HYPHEN.split(unit))]


def _join(units: list[_Unit]) -> str:
    return "".join(text if i == 0 or glued else " " + text for i, (text, glued) in enumerate(units))


def _greedy(units: list[_Unit], fnt: pygame.font.Font, width: int) -> list[str]:
    lines: list[str] = []
    line: list[_Unit] = []
    for unit in units:
        if not line or fnt.size(_join([*line, unit]))[0] <= width:
            line.append(unit)
        else:
            lines.append(_join(line))
            line = [unit]
    return [*lines, _join(line)]


def _balanced(units: list[_Unit], fnt: pygame.font.Font, width: int, count: int) -> list[str]:
    """``units`` in ``count`` lines no wider than ``width``, with the least cost: the squared
    share of each line left empty, plus a fixed cost for a break inside a phrase (twice that
    inside a word)."""
    n = len(units)
    inf = float("inf")
    # best[k][i]: cost of the first i units in k lines; back[k][i]: where the k-th line starts
    best = [[inf] * (n + 1) for _ in range(count + 1)]
    back = [[0] * (n + 1) for _ in range(count + 1)]
    best[0][0] = 0.0
    for k in range(1, count + 1):
        for i in range(1, n + 1):
            for j in range(i - 1, -1, -1):
                w = fnt.size(_join(units[j:i]))[0]
                if w > width and i - j > 1:
                    break
                if best[k - 1][j] == inf:
                    continue
                cost = best[k - 1][j] + ((width - w) / width) ** 2
                if i < n and units[i][1]:
                    cost += 0.5
                elif i < n and units[i - 1][0][-1] not in _PHRASE_ENDS:
                    cost += 0.25
                if cost < best[k][i]:
                    best[k][i], back[k][i] = cost, j
    if best[count][n] == inf:
        return _greedy(units, fnt, width)
    lines, i = [], n
    for k in range(count, 0, -1):
        j = back[k][i]
        lines.append(_join(units[j:i]))
        i = j
    return lines[::-1]


def _cut(lines: list[str], fnt: pygame.font.Font, width: int, keep: int) -> list[str]:
    """The first ``keep`` lines, each no wider than ``width``, the last ending with an ellipsis."""
    out = lines[:keep]
    out[-1] += ELLIPSIS if len(lines) > keep else ""
    for i, line in enumerate(out):
        while fnt.size(line)[0] > width and len(line) > 1:
            line = line[:-2].rstrip() + ELLIPSIS
        out[i] = line
    return out


def text(
    surface: pygame.Surface,
    content: str,
    rect: pygame.Rect,
    px: int,
    colour: tuple[int, int, int] = theme.INK,
    bold: bool = False,
    align: str = "left",
    max_lines: int | None = None,
    valign: str = "top",
    balance: bool = False,
) -> int:
    """Draw ``content`` wrapped inside ``rect`` at ``px``, shrinking the font until it fits in
    height and in ``max_lines``, but never under the screen's smallest size
    (:func:`~kiosk.ui.theme.min_px`); returns the height used. What still does not fit at that
    size is cut after the last line that fits, with an ellipsis (the layout test fails on it)."""
    floor = min(px, theme.min_px(surface.get_size()))
    size = px
    while True:
        fnt = theme.font(size, bold)
        lines = wrap(content, fnt, rect.width, balance)
        fits = (
            (max_lines is None or len(lines) <= max_lines)
            and len(lines) * fnt.get_linesize() <= rect.height
            and all(fnt.size(line)[0] <= rect.width for line in lines)
        )
        if fits or size <= floor:
            break
        size = max(floor, int(size * 0.92))
    if not fits:
        keep = max(1, min(max_lines or len(lines), rect.height // fnt.get_linesize()))
        lines = _cut(lines, fnt, rect.width, keep)
    height = len(lines) * fnt.get_linesize()
    y = rect.top if valign == "top" else rect.centery - height // 2
    used: pygame.Rect | None = None
    for line in lines:
        img = fnt.render(line, True, colour)
        if align == "center":
            x = rect.centerx - img.get_width() // 2
        elif align == "right":
            x = rect.right - img.get_width()
        else:
            x = rect.left
        surface.blit(img, (x, y))
        box = pygame.Rect(x, y, img.get_width(), fnt.get_linesize())
        used = box if used is None else used.union(box)
        y += fnt.get_linesize()
    if _recorded is not None:
        empty = pygame.Rect(rect.topleft, (0, 0))
        _recorded.append(Drawn("text", pygame.Rect(rect), used or empty, content, size, not fits))
    return height


def fits(content: str, px: int, width: int, bold: bool = True) -> bool:
    """Whether ``content`` takes no more than ``width`` on one line at ``px``."""
    return theme.font(px, bold).size(content)[0] <= width


def label(
    surface: pygame.Surface,
    content: str,
    centre: tuple[int, int],
    px: int,
    within: pygame.Rect,
    colour: tuple[int, int, int] = theme.WHITE,
    background: tuple[int, int, int] = theme.GREEN,
) -> pygame.Rect:
    """A one-line tag on a picture (a card's name on the live view), centred on ``centre`` and
    moved inside ``within``; returns its box."""
    img = theme.font(px, True).render(content, True, colour)
    box = img.get_rect(center=centre).inflate(10, 2).clamp(within)
    pygame.draw.rect(surface, background, box, border_radius=4)
    surface.blit(img, img.get_rect(center=box.center))
    if _recorded is not None:
        _recorded.append(Drawn("text", pygame.Rect(box), pygame.Rect(box), content, px, box.width > within.width))
    return box


def panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """A white card with a light edge (the score sheet): texts lie on it."""
    pygame.draw.rect(surface, theme.WHITE, rect, border_radius=10)
    pygame.draw.rect(surface, theme.LIGHT, rect, width=2, border_radius=10)
    mark(rect, "panel")


def label_box(rect: pygame.Rect) -> pygame.Rect:
    """Where a button of ``rect`` writes its label."""
    return rect.inflate(-min(rect.height // 4, rect.width // 10), -rect.height // 8)


@dataclass
class Button:
    """A big rounded touch target; ``action``/``params`` are what a tap sends to the screen."""

    rect: pygame.Rect
    label: str
    action: str
    params: dict[str, Any] = field(default_factory=dict)
    colour: tuple[int, int, int] = theme.YELLOW
    text_colour: tuple[int, int, int] = theme.INK
    selected: bool = False

    def draw(self, surface: pygame.Surface) -> None:
        radius = max(6, self.rect.height // 5)
        shadow = self.rect.move(0, max(2, self.rect.height // 16))
        pygame.draw.rect(surface, theme.GREY, shadow, border_radius=radius)
        pygame.draw.rect(surface, self.colour, self.rect, border_radius=radius)
        if self.selected:
            pygame.draw.rect(surface, theme.INK, self.rect, width=max(3, self.rect.height // 14), border_radius=radius)
        mark(self.rect, "button")
        text(
            surface,
            self.label,
            label_box(self.rect),
            int(self.rect.height * 0.42),
            self.text_colour,
            bold=True,
            align="center",
            valign="center",
            balance=True,
        )

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.rect.collidepoint(pos)


def banner_pad(size: tuple[int, int]) -> int:
    """The space around a banner's text on a screen of ``size``."""
    return max(4, theme.unit(size) // 40)


def banner_height(size: tuple[int, int], message: str, width: int) -> int:
    """The height a banner ``width`` wide takes to show ``message`` at the smallest text size."""
    fnt = theme.font(theme.min_px(size), True)
    lines = len(wrap(message, fnt, width - 2 * banner_pad(size), balance=True))
    return lines * fnt.get_linesize() + banner_pad(size)


def banner(surface: pygame.Surface, rect: pygame.Rect, message: str, level: str) -> None:
    """A ruling or a stamp's state: green valid, red violation, amber reminder; bold, at the
    smallest text size (:func:`banner_height` sizes it), its phrases balanced on the lines."""
    colour = theme.LEVEL_COLOURS.get(level, theme.BLUE)
    pygame.draw.rect(surface, colour, rect, border_radius=min(16, rect.height // 4))
    mark(rect, "banner")
    pad = banner_pad(surface.get_size())
    text(
        surface,
        message,
        rect.inflate(-2 * pad, -pad),
        theme.min_px(surface.get_size()),
        theme.WHITE,
        bold=True,
        align="center",
        valign="center",
        balance=True,
    )


def button_row(
    area: pygame.Rect,
    specs: list[tuple[str, str, dict[str, Any]]],
    gap: int = 10,
    colour: tuple[int, int, int] = theme.YELLOW,
) -> list[Button]:
    """Lay ``(label, action, params)`` buttons side by side, filling ``area``."""
    if not specs:
        return []
    width = (area.width - gap * (len(specs) - 1)) // len(specs)
    return [
        Button(
            pygame.Rect(area.left + i * (width + gap), area.top, width, area.height),
            label,
            action,
            dict(params),
            colour,
        )
        for i, (label, action, params) in enumerate(specs)
    ]


def button_grid(
    area: pygame.Rect,
    specs: list[tuple[str, str, dict[str, Any]]],
    columns: int,
    row_height: int,
    gap: int = 10,
) -> list[Button]:
    """Lay buttons out in a grid of ``columns`` starting at the top of ``area``."""
    width = (area.width - gap * (columns - 1)) // columns
    out = []
    for i, (label, action, params) in enumerate(specs):
        r, c = divmod(i, columns)
        rect = pygame.Rect(area.left + c * (width + gap), area.top + r * (row_height + gap), width, row_height)
        out.append(Button(rect, label, action, dict(params)))
    return out
