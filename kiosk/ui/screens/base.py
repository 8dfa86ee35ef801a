"""The shape every screen has: enter, react to the table and to input, update, draw."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from kiosk.table import TableView
from kiosk.ui import theme, widgets

if TYPE_CHECKING:
    from kiosk.ui.app import App


class Screen:
    """Base screen: draws its buttons and dispatches taps and GPIO actions to :meth:`on_action`.

    GPIO buttons send ``next`` (move the focus), ``select`` (press the focused button) and
    ``back``; so every screen is usable with three arcade buttons as well as by touch.
    """

    name: ClassVar[str] = "screen"
    #: Seconds between redraws when nothing happens (timers, animations, printer status).
    redraw_interval: ClassVar[float] = 0.5
    #: Whether the screen shows the live camera (then every new frame is drawn).
    shows_camera: ClassVar[bool] = False

    def __init__(self, app: App, **params: Any) -> None:
        self.app = app
        self.params = params
        self.buttons: list[widgets.Button] = []
        self.focus = 0
        self.entered_at = app.now()

    # lifecycle -----------------------------------------------------------------------------
    def enter(self) -> None:
        """Called once when the screen becomes active."""

    def exit(self) -> None:
        """Called once when another screen replaces this one."""

    # input --------------------------------------------------------------------------------
    def on_view(self, view: TableView) -> None:
        """A new table snapshot with its card events."""

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        """A button of this screen was pressed."""

    def on_tap(self, pos: tuple[int, int]) -> None:
        for button in self.buttons:
            if button.hit(pos):
                self.app.touched()
                self.on_action(button.action, button.params)
                return

    def on_gpio(self, action: str) -> None:
        if action == "back":
            self.on_action("back", {})
        elif self.buttons and action == "next":
            self.focus = (self.focus + 1) % len(self.buttons)
        elif self.buttons and action == "select":
            button = self.buttons[self.focus % len(self.buttons)]
            self.on_action(button.action, button.params)

    # frame --------------------------------------------------------------------------------
    def update(self, now: float) -> None:
        """Time passes (timeouts, animations)."""

    def layout(self, size: tuple[int, int]) -> None:
        """(Re)build ``self.buttons`` for the screen size; called before every draw."""

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.PAPER)

    def draw_buttons(self, surface: pygame.Surface) -> None:
        for i, button in enumerate(self.buttons):
            button.selected = self.app.gpio_used and i == self.focus % max(1, len(self.buttons))
            button.draw(surface)

    def t(self, key: str, **params: Any) -> str:
        return self.app.t(key, **params)

    # shared pieces -------------------------------------------------------------------------
    def header(self, surface: pygame.Surface, title: str) -> pygame.Rect:
        """The yellow band with a title; returns the area below it."""
        w, h = surface.get_size()
        band = pygame.Rect(0, 0, w, header_height((w, h)))
        pygame.draw.rect(surface, theme.YELLOW, band)
        pygame.draw.rect(surface, theme.INK, (0, band.bottom, w, 4))
        pygame.draw.rect(surface, theme.RED, (0, band.bottom + 4, w, 4))
        margin = gap((w, h)) * 2
        room = band.inflate(-2 * margin, -band.height // 5)
        in_band = [b.rect.left for b in self.buttons if b.rect.colliderect(band)]
        room.width = min(room.width, min(in_band, default=room.right + margin) - margin // 2 - room.left)
        widgets.text(
            surface,
            title,
            room,
            int(band.height * 0.5),
            theme.INK,
            bold=True,
            max_lines=2,
            valign="center",
            balance=True,
        )
        return pygame.Rect(0, band.bottom + 8, w, h - band.bottom - 8)

    def privacy_line(self, surface: pygame.Surface) -> pygame.Rect:
        """The seed's privacy promise, always visible at the bottom; returns the area above it."""
        w, h = surface.get_size()
        message = self.t("app.privacy")
        strip = privacy_strip((w, h), message)
        pygame.draw.rect(surface, theme.INK, strip)
        widgets.text(
            surface,
            message,
            strip.inflate(-2 * gap((w, h)), -gap((w, h)) // 2),
            theme.min_px((w, h)),
            theme.WHITE,
            align="center",
            valign="center",
            balance=True,
        )
        return pygame.Rect(0, 0, w, strip.top)


def gap(size: tuple[int, int]) -> int:
    """The space between two things on a screen of ``size``."""
    return max(6, theme.unit(size) // 48)


def header_height(size: tuple[int, int]) -> int:
    """The yellow band's height: a title of two lines at the smallest size, or one large."""
    return int(theme.unit(size) * 0.13)


def body(size: tuple[int, int], bottom: int | None = None) -> pygame.Rect:
    """The area under the header (and above ``bottom``), less the screen's margins."""
    w, h = size
    g = gap(size)
    top = header_height(size) + 8 + g
    return pygame.Rect(g * 2, top, w - g * 4, (h if bottom is None else bottom) - top - g)


def header_buttons(size: tuple[int, int], specs: list[tuple[str, str, dict[str, Any]]]) -> list[widgets.Button]:
    """``(label, action, params)`` buttons in the header band, right-aligned, each as wide as its
    label (back, how to play)."""
    band = header_height(size)
    height = band - band // 5
    fnt = theme.font(int(height * 0.42), True)
    right = size[0] - gap(size) * 2
    out: list[widgets.Button] = []
    for label, action, params in reversed(specs):
        width = fnt.size(label)[0] + height // 2
        right -= width
        out.insert(
            0,
            widgets.Button(
                pygame.Rect(right, (band - height) // 2, width, height), label, action, dict(params), theme.WHITE
            ),
        )
        right -= gap(size)
    return out


def button_height(size: tuple[int, int], label: str = "", width: int = 0) -> int:
    """A touch button: a tenth of the shorter side, taller where ``label`` takes more than one
    line of ``width`` at the smallest text size."""
    base = int(theme.unit(size) * 0.1)
    if not label:
        return base
    fnt = theme.font(theme.min_px(size), True)
    lines = len(widgets.wrap(label, fnt, widgets.label_box(pygame.Rect(0, 0, width, base)).width, balance=True))
    return max(base, lines * fnt.get_linesize() * 8 // 7 + 4)


def privacy_strip(size: tuple[int, int], message: str) -> pygame.Rect:
    """The bottom strip that holds ``message`` at the smallest text size, on as many lines as it takes."""
    w, h = size
    px = theme.min_px(size)
    fnt = theme.font(px)
    lines = len(widgets.wrap(message, fnt, w - 4 * gap(size)))
    height = lines * fnt.get_linesize() + gap(size)
    return pygame.Rect(0, h - height, w, height)
