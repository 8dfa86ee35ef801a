"""Drawing helpers and the big touch button: wrapped text, banners, buttons, the card outline."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from kiosk.ui import theme

_OPERATORS = frozenset("×+−-=÷")  # not ":", which French sets apart with spaces too


def _units(paragraph: str) -> list[str]:
    """The words of ``paragraph``, a calculation (``7 × 8 = 56``) kept as one: a child must not
    read ``7`` on one line and ``× 8`` on the next."""
    units: list[str] = []
    for word in paragraph.split():
        if units and (word in _OPERATORS or units[-1].rsplit(" ", 1)[-1] in _OPERATORS):
            units[-1] += " " + word
        else:
            units.append(word)
    return units


def wrap(text: str, fnt: pygame.font.Font, width: int) -> list[str]:
    """Greedy word wrap; a single word (or calculation) wider than ``width`` stays on its own line."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in _units(paragraph):
            candidate = f"{line} {word}".strip()
            if fnt.size(candidate)[0] <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


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
) -> int:
    """Draw wrapped text inside ``rect``, shrinking the font until it fits in height (and in
    ``max_lines``); returns the height used. Nothing is ever cut off mid-sentence."""
    size = px
    while True:
        fnt = theme.font(size, bold)
        lines = wrap(content, fnt, rect.width)
        fits_lines = max_lines is None or len(lines) <= max_lines
        fits_width = all(fnt.size(line)[0] <= rect.width for line in lines)
        height = len(lines) * fnt.get_linesize()
        if (height <= rect.height and fits_lines and fits_width) or size <= 9:
            break
        size = max(9, int(size * 0.92))
    y = rect.top if valign == "top" else rect.centery - height // 2
    for line in lines:
        img = fnt.render(line, True, colour)
        if align == "center":
            x = rect.centerx - img.get_width() // 2
        elif align == "right":
            x = rect.right - img.get_width()
        else:
            x = rect.left
        surface.blit(img, (x, y))
        y += fnt.get_linesize()
    return height


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
        inner = self.rect.inflate(-self.rect.height // 3, -self.rect.height // 5)
        fnt_px = int(self.rect.height * 0.42)
        fnt = theme.font(fnt_px, True)
        lines = wrap(self.label, fnt, inner.width)
        while (len(lines) * fnt.get_linesize() > inner.height) and fnt_px > 10:
            fnt_px = int(fnt_px * 0.88)
            fnt = theme.font(fnt_px, True)
            lines = wrap(self.label, fnt, inner.width)
        y = self.rect.centery - len(lines) * fnt.get_linesize() // 2
        for line in lines:
            img = fnt.render(line, True, self.text_colour)
            surface.blit(img, (self.rect.centerx - img.get_width() // 2, y))
            y += fnt.get_linesize()

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.rect.collidepoint(pos)


def banner(surface: pygame.Surface, rect: pygame.Rect, message: str, level: str) -> None:
    """A ruling: green valid, red violation, amber reminder."""
    colour = theme.LEVEL_COLOURS.get(level, theme.BLUE)
    pygame.draw.rect(surface, colour, rect, border_radius=rect.height // 5)
    inner = rect.inflate(-rect.height // 2, -rect.height // 6)
    text(surface, message, inner, int(rect.height * 0.36), theme.WHITE, bold=True, align="center", valign="center")


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
