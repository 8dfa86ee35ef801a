"""Behind the PIN: mode, language, games, camera view and calibration, printer test, counters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from kiosk.ui import theme, widgets
from kiosk.ui.images import fit, from_bgr
from kiosk.ui.screens.base import Screen
from kiosk.vision import calibration
from kiosk.vision.identify import SMALL_CARD_PX


def card_width_line(t: Callable[..., str], width: float | None) -> str | None:
    """How wide the confirmed cards are in the camera picture, and whether that is too small
    (:data:`~kiosk.vision.identify.SMALL_CARD_PX`): what a technician needs to set the camera's
    height or resolution. None while no card lies on the table."""
    if width is None:
        return None
    key = "app.operator.cards_small" if width < SMALL_CARD_PX else "app.operator.cards"
    return t(key, px=round(width), least=round(SMALL_CARD_PX))


class PinScreen(Screen):
    """A keypad for the operator PIN (rate-limited by the app's PinGuard)."""

    name = "pin"

    def enter(self) -> None:
        self.entry = ""
        self.message = ""

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        pad = pygame.Rect(int(w * 0.30), int(h * 0.32), int(w * 0.40), int(h * 0.62))
        keys = [(k, "key", {"key": k}) for k in "123456789"] + [
            ("\u2190", "key", {"key": "del"}),
            ("0", "key", {"key": "0"}),
            ("OK", "ok", {}),
        ]
        self.buttons = widgets.button_grid(pad, keys, 3, int(pad.height / 4) - 8, gap=8)
        self.buttons.append(
            widgets.Button(
                pygame.Rect(int(w * 0.78), int(h * 0.82), int(w * 0.19), int(h * 0.1)),
                self.t("app.back"),
                "back",
                {},
                theme.WHITE,
            )
        )

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "key":
            self.entry = self.entry[:-1] if params["key"] == "del" else (self.entry + params["key"])[:8]
        elif action == "ok":
            now = self.app.now()
            if self.app.pin_guard.check(self.entry, now):
                self.app.goto("operator")
                return
            locked = self.app.pin_guard.locked_for(now)
            self.message = (
                self.t("app.operator.locked", seconds=int(locked + 0.99))
                if locked
                else self.t("app.operator.wrong_pin")
            )
            self.entry = ""
        elif action == "back":
            self.app.goto("attract")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        w, h = surface.get_size()
        self.header(surface, self.t("app.operator.pin"))
        widgets.text(
            surface,
            "\u25cf " * len(self.entry) or "_",
            pygame.Rect(int(w * 0.3), int(h * 0.18), int(w * 0.4), int(h * 0.08)),
            int(h * 0.07),
            theme.INK,
            bold=True,
            align="center",
        )
        if self.message:
            widgets.text(
                surface,
                self.message,
                pygame.Rect(int(w * 0.2), int(h * 0.25), int(w * 0.6), int(h * 0.06)),
                int(h * 0.045),
                theme.RED,
                align="center",
                max_lines=1,
            )
        self.draw_buttons(surface)


class OperatorScreen(Screen):
    name = "operator"

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        mode = self.t(f"app.mode.{self.app.mode}")
        specs: list[tuple[str, str, dict[str, Any]]] = [
            (self.t("app.operator.mode", mode=mode), "mode", {}),
            (self.app.lang.upper(), "language", {}),
            (self.t("app.operator.calibrate"), "calibrate", {}),
            (self.t("app.operator.test_page"), "test_page", {}),
            (self.t("app.operator.exit"), "exit", {}),
        ]
        self.buttons = widgets.button_grid(
            pygame.Rect(int(w * 0.05), int(h * 0.18), int(w * 0.42), int(h * 0.8)), specs, 1, int(h * 0.12), gap=10
        )

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "mode":
            self.app.mode = "referee" if self.app.mode == "passport" else "passport"
        elif action == "language":
            self.app.cycle_language()
        elif action == "calibrate":
            self.app.goto("calibrate")
        elif action == "test_page":
            self.app.print_test_page()
        elif action in ("exit", "back"):
            self.app.goto("attract")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        w, h = surface.get_size()
        self.header(surface, self.t("app.operator.title"))
        info = pygame.Rect(int(w * 0.52), int(h * 0.2), int(w * 0.45), int(h * 0.75))
        counters = self.app.counters()
        lines = [
            self.t("app.operator.counters", stamps=counters.get("stamps", 0), games=counters.get("games", 0)),
            self.t("app.operator.printer", state=self.app.printer_state()),
        ]
        width = card_width_line(self.t, self.app.view.card_width)
        lines += [width] if width else []
        lines += [f"{place}: {n}" for place, n in sorted(counters.get("places", {}).items(), key=lambda kv: -kv[1])[:8]]
        widgets.text(surface, "\n".join(lines), info, int(h * 0.042), theme.INK)
        self.draw_buttons(surface)


class CalibrateScreen(Screen):
    """The camera view; finds the mat's markers, or takes four touched corners."""

    name = "calibrate"
    shows_camera = True

    def enter(self) -> None:
        self.touches: list[tuple[float, float]] = []
        self.message = self.t("app.calibrate.touch", n=0)
        self.view_rect = pygame.Rect(0, 0, 1, 1)
        self.scale = 1.0

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.buttons = widgets.button_row(
            pygame.Rect(int(w * 0.05), int(h * 0.86), int(w * 0.9), int(h * 0.11)),
            [(self.t("app.calibrate.find"), "find", {}), (self.t("app.back"), "back", {})],
        )

    def on_tap(self, pos: tuple[int, int]) -> None:
        if any(b.hit(pos) for b in self.buttons) or not self.view_rect.collidepoint(pos):
            super().on_tap(pos)
            return
        x = (pos[0] - self.view_rect.left) / self.scale
        y = (pos[1] - self.view_rect.top) / self.scale
        self.touches.append((x, y))
        self.message = self.t("app.calibrate.touch", n=len(self.touches))
        if len(self.touches) == 4:
            frame = self.app.latest_frame()
            size = (frame.shape[1], frame.shape[0]) if frame is not None else (1, 1)
            self.app.set_calibration(calibration.from_touches(self.touches, size))
            self.touches = []

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "find":
            frame = self.app.latest_frame()
            found = calibration.from_markers(frame) if frame is not None else None
            if found is None:
                self.message = self.t("app.calibrate.none")
            else:
                self.app.set_calibration(found)
                self.message = self.t("app.calibrate.markers_ok", n=found.markers_seen)
        elif action == "back":
            self.app.goto("operator")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        w, h = surface.get_size()
        self.header(surface, self.t("app.operator.calibrate"))
        box = pygame.Rect(int(w * 0.05), int(h * 0.16), int(w * 0.9), int(h * 0.58))
        pygame.draw.rect(surface, theme.INK, box)
        frame = self.app.latest_frame()
        image = from_bgr(frame) if frame is not None else None
        if image is not None:
            scaled, self.view_rect, self.scale = fit(image, box)
            surface.blit(scaled, self.view_rect)
            for x, y in self.touches:
                pygame.draw.circle(
                    surface,
                    theme.RED,
                    (int(self.view_rect.left + x * self.scale), int(self.view_rect.top + y * self.scale)),
                    8,
                )
        widgets.text(
            surface,
            self.message,
            pygame.Rect(int(w * 0.05), int(h * 0.76), int(w * 0.9), int(h * 0.08)),
            int(h * 0.045),
            theme.INK,
            align="center",
            max_lines=2,
        )
        self.draw_buttons(surface)
