"""Something broke inside a screen or a referee: a friendly word, then back to the start."""

from __future__ import annotations

import pygame

from kiosk.ui import theme, widgets
from kiosk.ui.screens.base import Screen

RETURN_AFTER = 4.0


class FailsafeScreen(Screen):
    name = "failsafe"

    def update(self, now: float) -> None:
        if now - self.entered_at > RETURN_AFTER:
            self.app.goto("attract")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        w, h = surface.get_size()
        self.header(surface, self.t("app.title"))
        widgets.text(
            surface,
            self.t("app.error"),
            pygame.Rect(int(w * 0.1), int(h * 0.4), int(w * 0.8), int(h * 0.2)),
            int(h * 0.08),
            theme.INK,
            bold=True,
            align="center",
        )
        self.privacy_line(surface)
