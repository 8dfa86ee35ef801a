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
        """The yellow band with the kiosk's name and a title; returns the area below it."""
        w, h = surface.get_size()
        band = pygame.Rect(0, 0, w, int(h * 0.13))
        pygame.draw.rect(surface, theme.YELLOW, band)
        pygame.draw.rect(surface, theme.INK, (0, band.bottom, w, 4))
        pygame.draw.rect(surface, theme.RED, (0, band.bottom + 4, w, 4))
        widgets.text(
            surface,
            title,
            band.inflate(-int(w * 0.04), -int(band.height * 0.25)),
            int(band.height * 0.5),
            theme.INK,
            bold=True,
            max_lines=1,
        )
        return pygame.Rect(0, band.bottom + 8, w, h - band.bottom - 8)

    def privacy_line(self, surface: pygame.Surface) -> pygame.Rect:
        """The seed's privacy promise, always visible at the bottom; returns the area above it."""
        w, h = surface.get_size()
        strip = pygame.Rect(0, h - int(h * 0.07), w, int(h * 0.07))
        pygame.draw.rect(surface, theme.INK, strip)
        widgets.text(
            surface,
            self.t("app.privacy"),
            strip.inflate(-int(w * 0.03), -int(strip.height * 0.3)),
            int(strip.height * 0.42),
            theme.WHITE,
            align="center",
            max_lines=1,
        )
        return pygame.Rect(0, 0, w, strip.top)
