"""Referee mode: the live table with its zones and cards, whose turn, the score sheet, the rulings
as banners, the buttons a game needs for what the camera cannot see, and the winner."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import pygame

from kiosk.games.base import Ruling
from kiosk.i18n import catalog
from kiosk.referee.base import InputSpec
from kiosk.referee.session import RefereeSession
from kiosk.table import TableView
from kiosk.ui import theme, widgets
from kiosk.ui.app_params import SEAT_PARAM_NAMES
from kiosk.ui.images import fit, from_bgr
from kiosk.ui.screens.base import Screen

log = logging.getLogger(__name__)
BANNER_SECONDS = 6.0


class RefereeScreen(Screen):
    name = "referee"
    shows_camera = True

    def enter(self) -> None:
        game = self.params["game"]
        players = int(self.params["players"])
        names = [self.t("app.player", n=i + 1) for i in range(players)]
        self.session = RefereeSession(
            self.app.offered_games()[game], players, names, seed=int(self.app.now() * 1000) & 0xFFFF
        )
        self.banners: list[tuple[float, Ruling]] = []
        self.picker: InputSpec | None = None
        self.counted = False

    # table and input --------------------------------------------------------------------------
    def on_view(self, view: TableView) -> None:
        self._show(self.session.on_view(view))

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "back":
            if self.picker is not None:
                self.picker = None
            else:
                self.app.goto("menu", game=self.session.game_id, players=self.session.players)
        elif action == "new_game":
            self.app.goto("referee", game=self.session.game_id, players=self.session.players)
        elif action == "input":
            spec: InputSpec = params["spec"]
            if spec.choices:
                self.picker = spec
            else:
                self._show(self.session.on_input(spec.action, **dict(spec.params)))
        elif action == "choice":
            spec = params["spec"]
            self.picker = None
            self._show(self.session.on_input(spec.action, **{**dict(spec.params), "choice": params["value"]}))

    def _show(self, rulings: list[Ruling]) -> None:
        now = self.app.now()
        for ruling in rulings:
            self.banners.append((now, ruling))
            self.app.lights_for(ruling.level)
        self.banners = self.banners[-3:]
        if self.session.status().get("over") and not self.counted:
            self.counted = True
            self.app.count_game(self.session.game_id)

    # drawing ----------------------------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        panel = pygame.Rect(int(w * 0.64), int(h * 0.16), int(w * 0.34), int(h * 0.82))
        if self.picker is not None:
            specs = [
                (self.t(label), "choice", {"spec": self.picker, "value": value})
                for value, label in self.picker.choices.items()
            ]
            cols = 2 if len(specs) > 4 else 1
            rows = (len(specs) + cols - 1) // cols
            row_h = min(int(h * 0.11), (panel.height - int(h * 0.14) - 8 * rows) // max(rows, 1))
            self.buttons = widgets.button_grid(panel, specs, cols, row_h, gap=8)
        else:
            specs = [(label, "input", {"spec": s}) for s, label in self._labelled(self._inputs())]
            top = panel.top + int(h * 0.30)
            row_h = int(h * 0.1)
            self.buttons = widgets.button_grid(
                pygame.Rect(panel.left, top, panel.width, panel.height), specs[:4], 1, row_h, gap=8
            )
        bottom = pygame.Rect(panel.left, panel.bottom - int(h * 0.11), panel.width, int(h * 0.1))
        labels: list[tuple[str, str, dict[str, Any]]] = [(self.t("app.back"), "back", {})]
        if self.session.status().get("over"):
            labels.insert(0, (self.t("app.new_game"), "new_game", {}))
        self.buttons += widgets.button_row(bottom, labels, colour=theme.WHITE)

    def _labelled(self, specs: list[InputSpec]) -> list[tuple[InputSpec, str]]:
        """Button labels; the same action for several seats gets the player's name added."""
        names = self.session.names
        labels = [self.app.ruling_text(Ruling(s.label_key, s.params), self.seat_names()) for s in specs]
        out = []
        for spec, label in zip(specs, labels, strict=True):
            seat = next((v for k, v in spec.params.items() if k in SEAT_PARAM_NAMES and isinstance(v, int)), None)
            if seat is not None and not self.session.adapter.seats_as_names:
                seat -= 1  # 1-based in these rulings
            if labels.count(label) > 1 and seat is not None and 0 <= seat < len(names):
                label = f"{label} ({names[seat]})"
            out.append((spec, label))
        return out

    def seat_names(self) -> list[str] | None:
        """Player names for games whose rulings name seats by 0-based number, else None."""
        return self.session.names if self.session.adapter.seats_as_names else None

    def _inputs(self) -> list[InputSpec]:
        try:
            return self.session.inputs()
        except Exception:
            log.exception("referee inputs failed")
            return []

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        w, h = surface.get_size()
        status = self.session.status()
        title = self.t(f"app.game.{self.session.game_id}")
        to_act = status.get("to_act")
        if to_act is not None and not status.get("over"):
            title += "  ·  " + self.t("app.turn", player=self.session.names[int(to_act)])
        self.header(surface, title)
        view_box = pygame.Rect(int(w * 0.02), int(h * 0.16), int(w * 0.60), int(h * 0.62))
        self._live_view(surface, view_box)
        self._scores(surface, pygame.Rect(int(w * 0.64), int(h * 0.16), int(w * 0.34), int(h * 0.28)), status)
        self._banners(surface, pygame.Rect(int(w * 0.02), int(h * 0.79), int(w * 0.60), int(h * 0.20)))
        self.draw_buttons(surface)
        if status.get("over"):
            winners = ", ".join(self.session.names[int(i)] for i in status.get("winners", []))
            box = pygame.Rect(int(w * 0.08), int(h * 0.32), int(w * 0.5), int(h * 0.22))
            pygame.draw.rect(surface, theme.YELLOW, box, border_radius=18)
            pygame.draw.rect(surface, theme.INK, box, width=5, border_radius=18)
            widgets.text(
                surface,
                "\u2605 " + self.t("app.winner", players=winners) + " \u2605",
                box.inflate(-30, -30),
                int(h * 0.07),
                theme.INK,
                bold=True,
                align="center",
            )

    def _live_view(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        pygame.draw.rect(surface, theme.INK, box)
        frame = self.app.latest_frame()
        image = from_bgr(frame) if frame is not None else None
        if image is None:
            widgets.text(
                surface,
                self.t(self.app.vision_status_key() or "app.preparing"),
                box.inflate(-40, -40),
                int(box.height * 0.07),
                theme.WHITE,
                align="center",
            )
            return
        scaled, rect, scale = fit(image, box)
        surface.blit(scaled, rect)

        def to_screen(points: np.ndarray) -> list[tuple[int, int]]:
            return [(int(rect.left + x * scale), int(rect.top + y * scale)) for x, y in points]

        calibration = self.app.calibration
        if calibration is not None:
            for zone in self.session.layout.zones:
                x0, y0, x1, y1 = zone.rect
                poly = to_screen(calibration.to_camera(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])))
                pygame.draw.polygon(surface, theme.YELLOW, poly, width=2)
                width = max(p[0] for p in poly) - min(p[0] for p in poly) - 8
                label = theme.font(max(9, int(box.height * 0.035)), True).render(
                    self.zone_label(zone.name), True, theme.YELLOW
                )
                if label.get_width() > width > 0:
                    label = pygame.transform.smoothscale(
                        label, (width, max(1, label.get_height() * width // label.get_width()))
                    )
                surface.blit(label, (poly[0][0] + 4, poly[0][1] + 2))
        fnt = theme.font(max(10, int(box.height * 0.04)), True)
        for card in self.app.view.cards:
            poly = to_screen(np.array(card.corners))
            pygame.draw.polygon(surface, theme.GREEN, poly, width=3)
            label = fnt.render(self.app.card_label(card.card_id), True, theme.WHITE, theme.GREEN)
            (x0, y0), (x1, y1), (x3, y3) = poly[0], poly[1], poly[3]
            across = min(np.hypot(x1 - x0, y1 - y0), np.hypot(x3 - x0, y3 - y0))  # the card's width
            if label.get_width() > 0.9 * across:
                label = fnt.render(card.card_id, True, theme.WHITE, theme.GREEN)  # "3C", not its town
            # on the card's middle, not above it: cards lying edge to edge would share that spot
            cx, cy = (sum(p[0] for p in poly) // 4, sum(p[1] for p in poly) // 4)
            surface.blit(label, label.get_rect(center=(cx, cy)))

    def zone_label(self, name: str) -> str:
        """``seat2`` -> the player's name; ``discard`` -> the word in the current language."""
        if name.startswith("seat") and name[4:].isdigit() and int(name[4:]) < len(self.session.names):
            return self.session.names[int(name[4:])]
        key = f"app.zone.{name.rstrip('0123456789')}"
        return self.t(key) if key in catalog() else name

    def _scores(self, surface: pygame.Surface, box: pygame.Rect, status: Any) -> None:
        pygame.draw.rect(surface, theme.WHITE, box, border_radius=10)
        pygame.draw.rect(surface, theme.LIGHT, box, width=2, border_radius=10)
        scores = list(status.get("scores", []))
        rows = [(self.t("app.scores"), "")] + [
            (self.session.names[i] if i < len(self.session.names) else str(i + 1), str(s)) for i, s in enumerate(scores)
        ]
        line_h = min(box.height // max(len(rows), 1), int(box.height * 0.22))
        fnt = theme.font(int(line_h * 0.7), False)
        bold = theme.font(int(line_h * 0.7), True)
        for i, (name, value) in enumerate(rows):
            y = box.top + 6 + i * line_h
            f = bold if i == 0 or (status.get("to_act") == i - 1) else fnt
            surface.blit(f.render(name, True, theme.INK), (box.left + 12, y))
            img = f.render(value, True, theme.INK)
            surface.blit(img, (box.right - 12 - img.get_width(), y))

    def _banners(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        now = self.app.now()
        live = [(t, r) for t, r in self.banners if now - t < BANNER_SECONDS][-3:]
        if not live:
            return
        height = box.height // len(live) - 6
        for i, (_, ruling) in enumerate(reversed(live)):
            rect = pygame.Rect(box.left, box.top + i * (height + 6), box.width, height)
            widgets.banner(surface, rect, self.app.ruling_text(ruling, self.seat_names()), ruling.level)
