"""Something broke inside a screen or a referee: a friendly word, then back to the start."""

from __future__ import annotations

import pygame

from kiosk.ui import theme, widgets
from kiosk.ui.screens.base import Screen, body

RETURN_AFTER = 4.0


class FailsafeScreen(Screen):
    name = "failsafe"

    def update(self, now: float) -> None:
        if now - self.entered_at > RETURN_AFTER:
            self.app.goto("attract")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        self.header(surface, self.t("app.title"))
        area = body(surface.get_size(), self.privacy_line(surface).bottom)
        widgets.text(
            surface,
            self.t("app.error"),
            area,
            int(theme.unit(surface.get_size()) * 0.08),
            theme.INK,
            bold=True,
            align="center",
            valign="center",
        )
