"""A place appears: its card, name, region, province and fact, and the stamp being printed.

Also the Manneken-Pis surprise. Returns to the attract screen after a while without a new card.
"""

from __future__ import annotations

from typing import Any

import pygame

from kiosk.decks import load_deck
from kiosk.ui import artwork, theme, widgets
from kiosk.ui.screens.base import Screen

REGION_COLOURS = {"flanders": theme.INK, "wallonia": theme.RED, "brussels": theme.BLUE}


class PassportScreen(Screen):
    name = "passport"

    def enter(self) -> None:
        self.deck = load_deck("affiche-belge")
        self.card = self.deck[self.params["card_id"]]
        self.surprise = self.card.kind == "joker"

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.buttons = [
            widgets.Button(
                pygame.Rect(int(w * 0.80), int(h * 0.16), int(w * 0.17), int(h * 0.09)),
                self.t("app.back"),
                "back",
                {},
                theme.WHITE,
            )
        ]

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "back":
            self.app.goto("attract")

    def update(self, now: float) -> None:
        if now - self.entered_at > self.app.config.passport.show_seconds and not self.app.card_in_view():
            self.app.goto("attract")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        w, h = surface.get_size()
        lang = self.app.lang
        self.header(surface, self.t("app.surprise.title") if self.surprise else self.t("app.title"))
        body = self.privacy_line(surface)
        face_w = int(min(w * 0.26, (body.height - h * 0.2) * 5 / 7))
        face = artwork.card_face("affiche-belge", self.card.id, face_w)
        if face is not None:
            surface.blit(face, (int(w * 0.03), int(h * 0.18)))
        x = int(w * 0.03) + face_w + int(w * 0.03)
        col = pygame.Rect(x, int(h * 0.27), int(w * 0.97) - x, body.bottom - int(h * 0.29))
        if self.surprise:
            widgets.text(surface, self.t("app.surprise.text"), col, int(h * 0.06), theme.INK, bold=True)
            self.draw_buttons(surface)
            return
        used = widgets.text(
            surface,
            self.card.name(lang),
            pygame.Rect(col.left, col.top, col.width, int(h * 0.12)),
            int(h * 0.09),
            REGION_COLOURS.get(self.card.region or "", theme.INK),
            bold=True,
            max_lines=1,
        )
        y = col.top + used + 6
        size = int(h * 0.08)
        if self.card.region:
            icon = artwork.emblem(self.card.region, size)
            if icon is not None:
                surface.blit(icon, (col.left, y))
            region = self.t(f"app.region.{self.card.region}")
            province = self.deck.provinces.get(self.card.province or "", {})
            line = region + (" · " + (province.get(lang) or province.get("fr", "")) if province else "")
            widgets.text(
                surface,
                line,
                pygame.Rect(col.left + size + 10, y + size // 5, col.width - size - 10, size),
                int(h * 0.04),
                theme.GREY,
                max_lines=1,
            )
            y += size + 10
        stamp_w = int(col.width * 0.42)
        banner = pygame.Rect(col.left, body.bottom - int(h * 0.1), col.width, int(h * 0.085))
        fact_rect = pygame.Rect(col.left, y, col.width - stamp_w - 16, banner.top - 6 - y)
        widgets.text(surface, self.card.fact(lang), fact_rect, int(h * 0.045), theme.INK)
        stamp = artwork.stamp_preview(self.card.id, lang, self.app.config.kiosk.name, stamp_w)
        if stamp is not None:
            pos = (col.right - stamp_w, y)
            pygame.draw.rect(surface, theme.WHITE, pygame.Rect(pos, stamp.get_size()).inflate(12, 12))
            surface.blit(stamp, pos)
        status_key = self.app.stamp_status_key(self.card.id, self.params.get("stamp", True))
        colour = theme.RED if status_key == "app.stamp.waiting" else theme.GREEN
        widgets.banner(surface, banner, self.t(status_key), "violation" if colour == theme.RED else "ok")
        self.draw_buttons(surface)
