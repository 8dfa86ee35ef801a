"""A place appears: its card, name, region, province and fact, and the stamp being printed.

Also the Manneken-Pis surprise. Returns to the attract screen after a while without a new card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from kiosk.decks import load_deck
from kiosk.render.passport_layout import page_of
from kiosk.ui import artwork, theme, widgets
from kiosk.ui.screens.base import Screen, body, gap, header_buttons

REGION_COLOURS = {"flanders": theme.INK, "wallonia": theme.RED, "brussels": theme.BLUE}
#: The stamp's states shown in green: it prints, it printed, or it was just printed (cool-down);
#: every other (waiting for the printer, parked, not stored, no printer) is shown in red.
STAMP_GOING = frozenset({"app.stamp.printing", "app.stamp.done", "devices.stamp.cooldown", "devices.stamp.rate"})
STAMP_ASPECT = 0.75  # a stamp's height over its width (kiosk.devices.stamp), a little over


def page_line(t: Callable[..., str], card_id: str) -> str | None:
    """The page of the printed passport (``kiosk render passport``) that holds the place's box."""
    page = page_of(card_id)
    return None if page is None else t("passport.page", page=page)


class PassportScreen(Screen):
    name = "passport"

    def enter(self) -> None:
        self.deck = load_deck("affiche-belge")
        self.card = self.deck[self.params["card_id"]]
        self.surprise = self.card.kind == "joker"

    def layout(self, size: tuple[int, int]) -> None:
        self.buttons = header_buttons(size, [(self.t("app.back"), "back", {})])

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "back":
            self.app.goto("attract")

    def update(self, now: float) -> None:
        if now - self.entered_at > self.app.config.passport.show_seconds and not self.app.card_in_view():
            self.app.goto("attract")

    def draw(self, surface: pygame.Surface) -> None:
        """Landscape: the card with its stamp under it on the left, the words on the right.
        Portrait: the card beside its stamp on top, the words under them."""
        super().draw(surface)
        size = surface.get_size()
        u, g, lang = theme.unit(size), gap(size), self.app.lang
        self.header(surface, self.t("app.surprise.title") if self.surprise else self.t("app.title"))
        area = body(size, self.privacy_line(surface).bottom)
        if theme.portrait(size):
            face_w = area.width * 2 // 5
            stamp_w = area.width - face_w - 3 * g
            stamp_at = (area.right - stamp_w, area.top)
            col = pygame.Rect(area.left, area.top + face_w * 7 // 5 + 2 * g, area.width, 0)
        else:  # the card and the stamp under it fill the height: 7/5 of the width, and the stamp's 3/4
            face_w = int((area.height - 2 * g) / (7 / 5 + STAMP_ASPECT))
            stamp_w = face_w
            stamp_at = (area.left, area.top + face_w * 7 // 5 + 2 * g)
            col = pygame.Rect(area.left + face_w + 3 * g, area.top, area.width - face_w - 3 * g, 0)
        col.height = area.bottom - col.top
        self._picture(surface, artwork.card_face("affiche-belge", self.card.id, face_w), area.topleft)
        if self.surprise:
            widgets.text(surface, self.t("app.surprise.text"), col, int(u * 0.06), theme.INK, bold=True)
            self.draw_buttons(surface)
            return
        preview = self.app.previews.get(self.card.id, lang, self.app.config.kiosk.name, stamp_w)
        self._picture(surface, artwork.stamp_surface(preview), stamp_at, framed=True)
        self._words(surface, col)
        self.draw_buttons(surface)

    def _picture(
        self, surface: pygame.Surface, image: pygame.Surface | None, at: tuple[int, int], framed: bool = False
    ) -> None:
        if image is None:
            return
        rect = image.get_rect(topleft=at)
        if framed:
            pygame.draw.rect(surface, theme.WHITE, rect.inflate(8, 8))
        surface.blit(image, rect)
        widgets.mark(rect, "picture")

    def _words(self, surface: pygame.Surface, col: pygame.Rect) -> None:
        """The place's name, region and province, its fact, the passport's page, the stamp's state."""
        size = surface.get_size()
        u, g, lang = theme.unit(size), gap(size), self.app.lang
        px = theme.min_px(size)
        used = widgets.text(
            surface,
            self.card.name(lang),
            pygame.Rect(col.left, col.top, col.width, int(u * 0.12)),
            int(u * 0.09),
            REGION_COLOURS.get(self.card.region or "", theme.INK),
            bold=True,
            max_lines=1,
        )
        y = col.top + used + g
        if self.card.region:
            icon_w = int(u * 0.08)
            icon = artwork.emblem(self.card.region, icon_w)
            if icon is not None:
                surface.blit(icon, (col.left, y))
            province = self.deck.provinces.get(self.card.province or "", {})
            line = self.t(f"app.region.{self.card.region}")
            line += " · " + (province.get(lang) or province.get("fr", "")) if province else ""
            fnt = theme.font(px)
            width = col.width - icon_w - g
            height = max(icon_w, len(widgets.wrap(line, fnt, width)) * fnt.get_linesize())
            widgets.text(
                surface, line, pygame.Rect(col.left + icon_w + g, y, width, height), px, theme.GREY, valign="center"
            )
            y += height + g
        status_key = self.app.passport.stamp_status_key(self.params.get("refused", ""), self.params.get("job"))
        message = self.t(status_key)
        banner_h = widgets.banner_height(size, message, col.width)
        banner = pygame.Rect(col.left, col.bottom - banner_h, col.width, banner_h)
        widgets.banner(surface, banner, message, "ok" if status_key in STAMP_GOING else "violation")
        page = page_line(self.t, self.card.id)
        bottom = banner.top - g
        if page:
            line_h = theme.font(px).get_linesize()
            bottom -= line_h
            widgets.text(surface, page, pygame.Rect(col.left, bottom, col.width, line_h), px, theme.GREY, max_lines=1)
        widgets.text(
            surface, self.card.fact(lang), pygame.Rect(col.left, y, col.width, bottom - g - y), int(u * 0.05), theme.INK
        )
