"""How to play one game, a picture and its words a page: the goal, the setup on the game's mat,
then each step. Opened from the game menu, or over a game in progress: the game is paused under
it, keeps following the table (a card laid meanwhile still counts) and comes back as it was left.

Landscape: the picture on the left, the words on the right; portrait: the picture across the
top, the words under it. The page arrows are at the bottom, the way back in the header.
"""

from __future__ import annotations

from typing import Any

import pygame

from kiosk.howto import GUIDES
from kiosk.table import TableView
from kiosk.ui import howto_art, theme, widgets
from kiosk.ui.images import fit
from kiosk.ui.screens.base import Screen, body, gap, header_buttons


def areas(size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
    """(picture, words, page bar) of the screen at ``size``."""
    area, g = body(size), gap(size)
    bar_h = int(theme.unit(size) * 0.11)
    bar = pygame.Rect(area.left, area.bottom - bar_h, area.width, bar_h)
    room = pygame.Rect(area.left, area.top, area.width, bar.top - g - area.top)
    if theme.portrait(size):
        picture = pygame.Rect(room.left, room.top, room.width, min(room.width * 3 // 4, room.height // 2))
        words = pygame.Rect(room.left, picture.bottom + 2 * g, room.width, room.bottom - picture.bottom - 2 * g)
    else:
        picture = pygame.Rect(room.left, room.top, room.width * 47 // 100, room.height)
        words = pygame.Rect(picture.right + 3 * g, room.top, room.right - picture.right - 3 * g, room.height)
    return picture, words, bar


class HowtoScreen(Screen):
    """Params: ``game``; ``over``, the screen of a game in progress to return to; ``players``,
    the menu's player count to return with."""

    name = "howto"
    redraw_interval = 0.25  # a picture drawn in the background shows up soon after it is ready

    def enter(self) -> None:
        self.game: str = self.params.get("game", next(iter(GUIDES)))  # without a game: the first one's
        self.guide = GUIDES[self.game]
        self.over: Screen | None = self.params.get("over")
        self.page = 0

    @property
    def session(self) -> Any:
        """The paused game's referee session, if any: the app then treats this screen as in game."""
        return getattr(self.over, "session", None)

    # input ---------------------------------------------------------------------------------
    def on_view(self, view: TableView) -> None:
        if self.over is not None:
            self.over.on_view(view)

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "page":
            self.page = max(0, min(self.guide.pages - 1, self.page + params["delta"]))
        elif action == "back" and self.over is not None:
            self.app.resume(self.over)
        elif action == "back":
            self.app.goto(
                "menu", game=self.game, players=self.params.get("players", 2), options=self.params.get("options")
            )

    # drawing ---------------------------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> None:
        _, _, bar = areas(size)
        back = self.t("howto.back_to_game") if self.over is not None else self.t("app.back")
        arrow = bar.width // 4
        first, last = self.page == 0, self.page == self.guide.pages - 1
        self.buttons = [  # "next" first: three arcade buttons read the pages with "select"
            widgets.Button(
                pygame.Rect(bar.right - arrow, bar.top, arrow, bar.height),
                "▶",
                "page",
                {"delta": 1},
                theme.LIGHT if last else theme.YELLOW,
            ),
            widgets.Button(
                pygame.Rect(bar.left, bar.top, arrow, bar.height),
                "◀",
                "page",
                {"delta": -1},
                theme.LIGHT if first else theme.YELLOW,
            ),
            *header_buttons(size, [(back, "back", {})]),
        ]

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        size = surface.get_size()
        self.header(surface, self.t("howto.title", game=self.t(f"app.game.{self.game}")))
        picture_box, words, bar = areas(size)
        art = howto_art.picture(self.game, self.page, picture_box.size)
        howto_art.prepare(self.game, self.page + 1, picture_box.size)
        if art is not None:
            scaled, rect, _ = fit(art, picture_box)
            surface.blit(scaled, rect)
        widgets.mark(picture_box, "picture")
        self._words(surface, words)
        widgets.text(
            surface,
            f"{self.page + 1} / {self.guide.pages}",
            bar.inflate(-bar.width // 2, 0),
            theme.min_px(size),
            theme.GREY,
            bold=True,
            align="center",
            valign="center",
            max_lines=1,
        )
        self.draw_buttons(surface)

    def _words(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """The page's title (the goal, the setup, step n of N) over its words."""
        steps = self.guide.pages - 2
        title = (
            self.t(("howto.goal", "howto.setup")[self.page])
            if self.page < 2
            else self.t("howto.step", n=self.page - 1, total=steps)
        )
        size = surface.get_size()
        px = theme.min_px(size) * 23 // 20
        title_h = theme.font(px, True).get_linesize()
        widgets.text(
            surface, title, pygame.Rect(box.left, box.top, box.width, title_h), px, theme.RED, bold=True, max_lines=1
        )
        room = pygame.Rect(box.left, box.top + title_h + gap(size) // 2, box.width, box.height - title_h - gap(size))
        widgets.text(surface, self.t(self.guide.text_key(self.page)), room, px, theme.INK)
