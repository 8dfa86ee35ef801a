"""Pick a game, then on its page the number of players and its house rules, and start refereeing.

The list shows every offered game by name; a game's page shows what it is (a one-line pitch and
the players it takes, over the picture of its goal), the player count, the options a family
changes (the game's ``menu_options``, starting from the config's ``[games.<id>]``; a tap moves
to the next value), how to play it and the start. Entered with ``game`` (back from a game or
from its rules), the menu opens on its page, with the ``options`` chosen there.
"""

from __future__ import annotations

from typing import Any

import pygame

from kiosk.howto import GUIDES
from kiosk.modes.games import GameInfo
from kiosk.ui import howto_art, theme, widgets
from kiosk.ui.images import fit
from kiosk.ui.screens.base import Screen, body, gap, header_buttons


def players_text(t: Any, low: int, high: int) -> str:
    """ "2 to 6 players", "4 players" or "1 player" in the language of ``t``."""
    if low == high:
        return t("howto.players.one") if low == 1 else t("howto.players.exactly", n=low)
    return t("howto.players.range", low=low, high=high)


class MenuScreen(Screen):
    name = "menu"

    def enter(self) -> None:
        self.games = self.app.games
        game = self.params.get("game")
        self.game: str | None = game if game in self.games else None  # None: the list of games
        self.players = self._clamp(self.params.get("players", 2))
        self.options = self._options(self.params.get("options"))

    def _info(self) -> GameInfo | None:
        return self.app.games[self.game] if self.game else None

    def _options(self, chosen: dict[str, Any] | None = None) -> dict[str, Any]:
        """The options the game starts with: the config's for it, then those chosen on its page."""
        return {**self.app.game_options(self.game), **(chosen or {})} if self.game else {}

    def _value(self, name: str) -> Any:
        info = self._info()
        assert info is not None
        return {**info.default_options, **self.options}[name]

    def _next_value(self, name: str) -> Any:
        """The value after the current one among those the menu offers (the config's first if
        it is none of them)."""
        current = self._value(name)
        info = self._info()
        assert info is not None
        values = info.menu_options[name]
        values = values if current in values else (current, *values)
        return values[(values.index(current) + 1) % len(values)]

    def _option_label(self, name: str) -> str:
        value = self._value(name)
        shown = self.t("app.menu.on" if value else "app.menu.off") if isinstance(value, bool) else str(value)
        assert self.game is not None
        return self.t("app.menu.option", option=self.t(f"{self.game.replace('-', '_')}.option.{name}"), value=shown)

    def _clamp(self, n: int) -> int:
        info = self._info()
        return n if info is None else info.clamp_players(n)

    # layout -----------------------------------------------------------------------------------
    def _page(self, size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect]:
        """A game's page: the picture's box and the column of words and buttons."""
        area, g = body(size), gap(size)
        if theme.portrait(size):
            picture = pygame.Rect(area.left, area.top, area.width, area.width * 5 // 8)
            top = picture.bottom + 2 * g
            return picture, pygame.Rect(area.left, top, area.width, area.bottom - top)
        picture = pygame.Rect(area.left, area.top, area.width * 9 // 20, area.height)
        column = pygame.Rect(picture.right + 3 * g, area.top, area.right - picture.right - 3 * g, area.height)
        picture.height = min(picture.height, picture.width * 3 // 4)  # a row of cards needs no more
        return picture, column

    def layout(self, size: tuple[int, int]) -> None:
        self.words = pygame.Rect(0, 0, 0, 0)  # a game's page: where its players and pitch go
        self.count: pygame.Rect | None = None  # and the player count, between − and +
        if self.game is None:
            self._list(size)
        else:
            self._game_page(size)
        self.buttons += header_buttons(size, [(self.t("app.back"), "back", {})])

    def _list(self, size: tuple[int, int]) -> None:
        area, g = body(size), gap(size)
        cols = 1 if theme.portrait(size) else 3
        rows = max(1, (len(self.games) + cols - 1) // cols)
        row_h = min(int(theme.unit(size) * 0.17), (area.height - g * (rows - 1)) // rows)
        specs = [(self.t(f"app.game.{g_id}"), "game", {"game": g_id}) for g_id in self.games]
        self.buttons = widgets.button_grid(area, specs, cols, row_h, gap=g)
        for button in self.buttons:
            button.colour = theme.WHITE

    def _game_page(self, size: tuple[int, int]) -> None:
        """Bottom up in the column: start, how to play, players − and +; the words above them."""
        _, column = self._page(size)
        g = gap(size)
        bh = int(theme.unit(size) * 0.11)
        y = column.bottom - bh * 5 // 4
        self.buttons = [
            widgets.Button(
                pygame.Rect(column.left, y, column.width, bh * 5 // 4),
                self.t("app.menu.start"),
                "start",
                {},
                theme.GREEN,
                theme.WHITE,
            )
        ]
        if self.game in GUIDES:
            y -= bh + g
            self.buttons.append(
                widgets.Button(
                    pygame.Rect(column.left, y, column.width, bh), self.t("howto.open"), "howto", {}, theme.WHITE
                )
            )
        info = self._info()
        if info is not None and info.min_players < info.max_players:
            y -= bh + g
            side = bh * 3 // 2
            self.buttons += [
                widgets.Button(pygame.Rect(column.left, y, side, bh), "−", "players", {"delta": -1}),
                widgets.Button(pygame.Rect(column.right - side, y, side, bh), "+", "players", {"delta": 1}),
            ]
            self.count = pygame.Rect(column.left + side + g, y, column.width - 2 * (side + g), bh)
        for name in reversed(list(info.menu_options if info else {})):
            y -= bh + g
            self.buttons.append(
                widgets.Button(
                    pygame.Rect(column.left, y, column.width, bh), self._option_label(name), "option", {"name": name}
                )
            )
        self.words = pygame.Rect(column.left, column.top, column.width, y - g - column.top)

    # input ------------------------------------------------------------------------------------
    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "game":
            self.game = params["game"]
            self.players = self._clamp(self.players)
            self.options = self._options()
            self.focus = 0
        elif action == "players":
            self.players = self._clamp(self.players + params["delta"])
        elif action == "option":
            self.options[params["name"]] = self._next_value(params["name"])
        elif action == "howto" and self.game:
            self.app.goto("howto", game=self.game, players=self.players, options=self.options)
        elif action == "start" and self.game:
            self.app.goto("referee", game=self.game, players=self.players, options=self.options)
        elif action == "back" and self.game is not None:
            self.game = None
            self.focus = 0
        elif action == "back":
            self.app.goto("attract")

    # drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.game is None:
            self.header(surface, self.t("app.menu.title"))
        else:
            self.header(surface, self.t(f"app.game.{self.game}"))
            self._about(surface)
        self.draw_buttons(surface)

    def _about(self, surface: pygame.Surface) -> None:
        """The game's picture, the players it takes over its pitch, and the player count chosen."""
        assert self.game is not None
        size = surface.get_size()
        picture, _ = self._page(size)
        px = theme.min_px(size) * 23 // 20
        if self.game in GUIDES:
            art = howto_art.picture(self.game, 0, picture.size)  # the goal
            if art is not None:
                scaled, rect, _ = fit(art, picture)
                surface.blit(scaled, rect)
            widgets.mark(picture, "picture")
        info = self._info()
        top = self.words.top
        if info is not None:
            top += widgets.text(
                surface,
                players_text(self.t, info.min_players, info.max_players),
                pygame.Rect(self.words.left, top, self.words.width, int(px * 1.4)),
                px,
                theme.RED,
                bold=True,
                max_lines=1,
            ) + gap(size)
        if self.game in GUIDES:
            widgets.text(
                surface,
                self.t(GUIDES[self.game].key("pitch")),
                pygame.Rect(self.words.left, top, self.words.width, self.words.bottom - top),
                px,
                theme.INK,
            )
        if self.count is not None:
            widgets.text(
                surface,
                self.t("app.menu.players", n=self.players),
                self.count,
                px,
                theme.INK,
                bold=True,
                align="center",
                valign="center",
                max_lines=1,
            )
