"""Pick a game and the number of players, then start refereeing."""

from __future__ import annotations

from typing import Any

import pygame

from kiosk.ui import theme, widgets
from kiosk.ui.screens.base import Screen


class MenuScreen(Screen):
    name = "menu"

    def enter(self) -> None:
        self.games = self.app.offered_games()
        self.game = self.params.get("game") or (next(iter(self.games)) if self.games else None)
        self.players = self._clamp(self.params.get("players", 2))

    def _clamp(self, n: int) -> int:
        engine = self.app.engine_class(self.game) if self.game else None
        if engine is None:
            return n
        return max(engine.min_players, min(engine.max_players, n))

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        area = pygame.Rect(int(w * 0.03), int(h * 0.17), int(w * 0.62), int(h * 0.78))
        cols = 2 if len(self.games) > 6 else 1
        rows = max(1, (len(self.games) + cols - 1) // cols)
        row_h = min(int(h * 0.11), (area.height - 8 * (rows - 1)) // rows)
        specs = [(self.t(f"app.game.{g}"), "game", {"game": g}) for g in self.games]
        self.buttons = widgets.button_grid(area, specs, cols, row_h, gap=8)
        for b in self.buttons:
            b.selected = b.params["game"] == self.game
            b.colour = theme.YELLOW if b.selected else theme.WHITE
        side = pygame.Rect(int(w * 0.68), int(h * 0.30), int(w * 0.29), int(h * 0.12))
        self.buttons += widgets.button_row(side, [("−", "players", {"delta": -1}), ("+", "players", {"delta": 1})])
        self.buttons.append(
            widgets.Button(
                pygame.Rect(side.left, int(h * 0.55), side.width, int(h * 0.14)),
                self.t("app.menu.start"),
                "start",
                {},
                theme.GREEN,
                theme.WHITE,
            )
        )
        self.buttons.append(
            widgets.Button(
                pygame.Rect(side.left, int(h * 0.78), side.width, int(h * 0.11)),
                self.t("app.back"),
                "back",
                {},
                theme.WHITE,
            )
        )

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "game":
            self.game = params["game"]
            self.players = self._clamp(self.players)
        elif action == "players":
            self.players = self._clamp(self.players + params["delta"])
        elif action == "start" and self.game:
            self.app.goto("referee", game=self.game, players=self.players)
        elif action == "back":
            self.app.goto("attract")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        w, h = surface.get_size()
        self.header(surface, self.t("app.menu.title"))
        widgets.text(
            surface,
            self.t("app.menu.players", n=self.players),
            pygame.Rect(int(w * 0.68), int(h * 0.19), int(w * 0.29), int(h * 0.09)),
            int(h * 0.06),
            theme.INK,
            bold=True,
            align="center",
            max_lines=1,
        )
        self.draw_buttons(surface)
