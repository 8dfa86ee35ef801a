"""The idle screen: invites visitors to show a card, offers the languages and the referee."""

from __future__ import annotations

import math
from typing import Any

import pygame

from kiosk.i18n import LANGUAGES
from kiosk.ui import artwork, theme, widgets
from kiosk.ui.screens.base import Screen

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
    name = "attract"
    redraw_interval = 0.1  # the fanned cards sway gently

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        top = int(h * 0.16)
        bw, bh = int(w * 0.085), int(h * 0.10)
        langs = [(code.upper(), "language", {"lang": code}) for code in LANGUAGES]
        self.buttons = widgets.button_row(pygame.Rect(w - 4 * bw - 3 * 10 - int(w * 0.03), top, 4 * bw + 30, bh), langs)
        for b in self.buttons:
            b.selected = b.params["lang"] == self.app.lang
            b.colour = theme.WHITE if not b.selected else theme.YELLOW
        play = widgets.Button(
            pygame.Rect(int(w * 0.52), int(h * 0.72), int(w * 0.45), int(h * 0.13)),
            self.t("app.play"),
            "referee",
            {},
            theme.RED,
            theme.WHITE,
        )
        self.buttons.append(play)

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "language":
            self.app.set_language(params["lang"])
        elif action == "referee":
            self.app.goto("menu")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        w, h = surface.get_size()
        self.header(surface, self.t("app.title"))
        body = self.privacy_line(surface)
        self._fan(surface, pygame.Rect(int(w * 0.02), int(h * 0.2), int(w * 0.46), body.bottom - int(h * 0.22)))
        right = pygame.Rect(int(w * 0.52), int(h * 0.30), int(w * 0.45), int(h * 0.40))
        used = widgets.text(surface, self.t("app.question"), right, int(h * 0.075), theme.INK, bold=True)
        widgets.text(
            surface,
            self.t("app.invite"),
            pygame.Rect(right.left, right.top + used + 10, right.width, right.height - used - 10),
            int(h * 0.045),
            theme.INK,
        )
        status = self.app.vision_status_key()
        if status:
            widgets.text(
                surface,
                self.t(status),
                pygame.Rect(right.left, int(h * 0.66), right.width, int(h * 0.05)),
                int(h * 0.035),
                theme.RED if status == "app.camera_lost" else theme.GREY,
                max_lines=1,
            )
        self.draw_buttons(surface)

    def _fan(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Four cards fanned like a hand, gently swaying so the screen looks alive."""
        card_w = int(min(area.width * 0.42, area.height * 0.62))
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
