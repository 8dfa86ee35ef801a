"""The idle screen: invites visitors to show a card, offers the languages and the referee."""

from __future__ import annotations

import math
from typing import Any

import pygame

from kiosk.i18n import LANGUAGES
from kiosk.ui import artwork, theme, widgets
from kiosk.ui.screens.base import Screen, body, gap, privacy_strip

SHOWCASE = ("KC", "JS", "3H", "AH")  # Antwerpen, the Choux, Lier and an ace, fanned on the left
_ROTATIONS: dict[tuple[int, int], pygame.Surface] = {}


def _rotated(face: pygame.Surface, angle: int) -> pygame.Surface:
    """A card face turned by ``angle`` degrees, computed once per face and angle."""
    key = (id(face), angle)
    if key not in _ROTATIONS:
        if len(_ROTATIONS) > 512:
            _ROTATIONS.clear()
        _ROTATIONS[key] = pygame.transform.rotozoom(face, -angle, 1.0)
    return _ROTATIONS[key]


class AttractScreen(Screen):
    """Landscape: the fanned cards on the left, the words and buttons on the right. Portrait: the
    languages on top, the cards, the words, then the referee's button."""

    name = "attract"
    redraw_interval = 0.1  # the fanned cards sway gently

    def layout(self, size: tuple[int, int]) -> None:
        u, g = theme.unit(size), gap(size)
        area = body(size, privacy_strip(size, self.t("app.privacy")).top)
        langs_h, play_h = int(u * 0.1), int(u * 0.13)
        if theme.portrait(size):
            column = area
            words_top = area.top + langs_h + g + (area.height - langs_h - play_h) * 11 // 20
            self.fan_area = pygame.Rect(
                area.left, area.top + langs_h + g, area.width, words_top - area.top - langs_h - 2 * g
            )
        else:
            fan_w = area.width * 9 // 20
            column = pygame.Rect(area.left + fan_w + g, area.top, area.width - fan_w - g, area.height)
            words_top = area.top + langs_h + 2 * g
            self.fan_area = pygame.Rect(area.left, area.top, fan_w - g, area.height)
        play = pygame.Rect(column.left, column.bottom - play_h, column.width, play_h)
        self.words = pygame.Rect(column.left, words_top, column.width, play.top - g - words_top)
        langs = [(code.upper(), "language", {"lang": code}) for code in LANGUAGES]
        row_w = min(column.width, int(u * 0.7))
        self.buttons = widgets.button_row(pygame.Rect(column.right - row_w, column.top, row_w, langs_h), langs, gap=g)
        for b in self.buttons:
            b.selected = b.params["lang"] == self.app.lang
            b.colour = theme.WHITE if not b.selected else theme.YELLOW
        self.buttons.append(widgets.Button(play, self.t("app.play"), "referee", {}, theme.RED, theme.WHITE))

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "language":
            self.app.set_language(params["lang"])
        elif action == "referee":
            self.app.goto("menu")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        size = surface.get_size()
        u, g = theme.unit(size), gap(size)
        self.header(surface, self.t("app.title"))
        self.privacy_line(surface)
        self._fan(surface, self.fan_area)
        right = self.words
        status = self.app.status_key()
        if status:  # under the words
            fnt = theme.font(theme.min_px(size))
            line = len(widgets.wrap(self.t(status), fnt, right.width)) * fnt.get_linesize()
            right = pygame.Rect(right.left, right.top, right.width, right.height - line - g)
            widgets.text(
                surface,
                self.t(status),
                pygame.Rect(right.left, right.bottom + g, right.width, line),
                theme.min_px(size),
                theme.GREY if status == "app.preparing" else theme.RED,
            )
        if status == "app.camera_lost":  # no invitation to show a card nobody can see
            widgets.text(surface, self.t("app.camera_missing"), right, int(u * 0.06), theme.RED, bold=True)
        else:
            used = widgets.text(surface, self.t("app.question"), right, int(u * 0.07), theme.INK, bold=True)
            widgets.text(
                surface,
                self.t("app.invite"),
                pygame.Rect(right.left, right.top + used + g, right.width, right.height - used - g),
                int(u * 0.045),
                theme.INK,
            )
        self.draw_buttons(surface)

    def _fan(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Four cards fanned like a hand, gently swaying so the screen looks alive."""
        widgets.mark(area, "picture")
        card_w = int(min(area.width * 0.38, area.height * 0.55))
        sway = math.sin(self.app.now() * 0.8) * 3
        n = len(SHOWCASE)
        for i, card_id in enumerate(SHOWCASE):
            face = artwork.card_face("affiche-belge", card_id, card_w)
            if face is None:
                continue
            angle = round((i - (n - 1) / 2) * 14 + sway)  # whole degrees: the rotations are cached
            rotated = _rotated(face, angle)
            cx = area.centerx + int((i - (n - 1) / 2) * card_w * 0.42)
            cy = area.centery + int(abs(i - (n - 1) / 2) * card_w * 0.08)
            surface.blit(rotated, rotated.get_rect(center=(cx, cy)))
