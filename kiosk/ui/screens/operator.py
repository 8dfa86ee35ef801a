"""Behind the PIN: mode, language, camera view and calibration, printer test, the stamp queue, counters;
teaching a deck is in :mod:`kiosk.ui.screens.enrol`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from kiosk.devices.service import TEST_PAGE_ID
from kiosk.ui import theme, widgets
from kiosk.ui.images import fit, from_bgr
from kiosk.ui.screens.base import Screen, body, button_height, gap, header_buttons
from kiosk.vision import calibration
from kiosk.vision.identify import SMALL_CARD_PX

if TYPE_CHECKING:
    from kiosk.ui.app import App

MAX_ROW_LINES = 4  # a stamp of the queue view; a longer failure note is cut


def card_width_line(t: Callable[..., str], width: float | None) -> str | None:
    """How wide the confirmed cards are in the camera picture, and whether that is too small
    (:data:`~kiosk.vision.identify.SMALL_CARD_PX`): what a technician needs to set the camera's
    height or resolution. None while no card lies on the table."""
    if width is None:
        return None
    key = "app.operator.cards_small" if width < SMALL_CARD_PX else "app.operator.cards"
    return t(key, px=round(width), least=round(SMALL_CARD_PX))


def camera_slant_line(t: Callable[..., str], calibrated: calibration.Calibration | None) -> str | None:
    """How far the calibrated camera looks off straight down, and whether that is past what the
    kiosk was measured at (:data:`~kiosk.vision.calibration.MAX_SLANT`): what a technician needs
    to mount it. None before the table is calibrated."""
    if calibrated is None:
        return None
    slant, most = calibrated.slant(), calibration.MAX_SLANT
    key = "app.operator.camera_slanted" if slant > most else "app.operator.camera"
    return t(key, degrees=round(slant), most=round(most))


class PinScreen(Screen):
    """A keypad for the operator PIN (rate-limited by the app's PinGuard)."""

    name = "pin"

    def enter(self) -> None:
        self.entry = ""
        self.message = ""

    def layout(self, size: tuple[int, int]) -> None:
        area, g = body(size), gap(size)
        line = int(theme.unit(size) * 0.09)
        self.entry_rect = pygame.Rect(area.left, area.top, area.width, line)
        self.message_rect = pygame.Rect(
            area.left, self.entry_rect.bottom, area.width, theme.font(theme.min_px(size)).get_linesize()
        )
        top = self.message_rect.bottom + g
        key = min((area.bottom - top - 3 * g) // 4, area.width // 3)
        pad = pygame.Rect(0, top, 3 * key + 2 * g, area.bottom - top)
        pad.centerx = area.centerx
        keys = [(k, "key", {"key": k}) for k in "123456789"] + [
            ("\u2190", "key", {"key": "del"}),
            ("0", "key", {"key": "0"}),
            ("OK", "ok", {}),
        ]
        self.buttons = widgets.button_grid(pad, keys, 3, key, gap=g)
        self.buttons += header_buttons(size, [(self.t("app.back"), "back", {})])

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
        size = surface.get_size()
        self.header(surface, self.t("app.operator.pin"))
        widgets.text(
            surface,
            "\u25cf " * len(self.entry) or "_",
            self.entry_rect,
            self.entry_rect.height * 3 // 4,
            theme.INK,
            bold=True,
            align="center",
            valign="center",
        )
        if self.message:
            widgets.text(
                surface, self.message, self.message_rect, theme.min_px(size), theme.RED, align="center", max_lines=1
            )
        self.draw_buttons(surface)


def place(app: App, card_id: str) -> str:
    """The place a card of the passport deck shows, in the app's language (else the card's id); a
    test page in the stamp queue is called so."""
    if card_id == TEST_PAGE_ID:
        return app.t("app.operator.test_page")
    deck = app.passport.deck
    return deck[card_id].name(app.lang) if card_id in deck and deck[card_id].names else card_id


def column(
    surface: pygame.Surface, area: pygame.Rect, items: list[tuple[str, tuple[int, int, int], bool]], px: int
) -> int:
    """Draw ``(text, colour, bold)`` items one under the other in ``area``, each wrapped, while
    they fit whole; returns how many were drawn."""
    fnt, bold_fnt = theme.font(px), theme.font(px, True)
    y = area.top
    for n, (words, colour, bold) in enumerate(items):
        f = bold_fnt if bold else fnt
        height = len(widgets.wrap(words, f, area.width)) * f.get_linesize()
        if y + height > area.bottom:
            return n
        widgets.text(surface, words, pygame.Rect(area.left, y, area.width, height), px, colour, bold=bold)
        y += height + px // 3
    return len(items)


def menu_areas(size: tuple[int, int], buttons: int, bh: int) -> tuple[pygame.Rect, pygame.Rect]:
    """(buttons, words) of an operator screen with ``buttons`` of height ``bh``: the buttons in a
    column on the left and the words on the right, or in portrait the buttons in two columns on
    top and the words under them."""
    area, g = body(size), gap(size)
    if theme.portrait(size):
        rows = (buttons + 1) // 2
        top = pygame.Rect(area.left, area.top, area.width, rows * (bh + g))
        return top, pygame.Rect(area.left, top.bottom + g, area.width, area.bottom - top.bottom - g)
    left = pygame.Rect(area.left, area.top, area.width * 9 // 20, area.height)
    return left, pygame.Rect(left.right + 2 * g, area.top, area.right - left.right - 2 * g, area.height)


def menu_buttons(
    size: tuple[int, int], specs: list[tuple[str, str, dict[str, Any]]]
) -> tuple[list[widgets.Button], pygame.Rect]:
    """``(label, action, params)`` buttons of an operator screen laid out by :func:`menu_areas`,
    all as tall as the longest label needs, and the area left for its words."""
    columns = 2 if theme.portrait(size) else 1
    g = gap(size)
    width = (body(size).width - g) // 2 if columns == 2 else body(size).width * 9 // 20
    bh = max(button_height(size, label, width) for label, _, _ in specs)
    area, words = menu_areas(size, len(specs), bh)
    return widgets.button_grid(area, specs, columns, bh, gap=g), words


class OperatorScreen(Screen):
    """The technician's menu: mode, language, the camera, a test page, the stamp queue, teaching a
    deck; and what the kiosk counted, the printer's state, the camera's picture of the cards, the
    state files that fail, the visits by place."""

    name = "operator"

    def enter(self) -> None:
        self.note: tuple[str, tuple[int, int, int]] | None = None  # what the last button did

    def layout(self, size: tuple[int, int]) -> None:
        mode = self.t(f"app.mode.{self.app.mode}")
        specs: list[tuple[str, str, dict[str, Any]]] = [
            (self.t("app.operator.mode", mode=mode), "mode", {}),
            (self.app.lang.upper(), "language", {}),
            (self.t("app.operator.calibrate"), "calibrate", {}),
            (self.t("app.operator.test_page"), "test_page", {}),
            (self.t("app.operator.queue"), "queue", {}),
            (self.t("app.operator.enrol"), "enrol", {}),
        ]
        self.buttons, self.words = menu_buttons(size, specs)
        self.buttons += header_buttons(size, [(self.t("app.operator.exit"), "exit", {})])

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "mode":
            self.app.mode = "referee" if self.app.mode == "passport" else "passport"
        elif action == "language":
            self.app.cycle_language()
        elif action == "calibrate":
            self.app.goto("calibrate")
        elif action == "test_page":
            reason = self.app.print_test_page()
            self.note = (
                (self.t("app.operator.test_page_queued"), theme.GREEN) if not reason else (self.t(reason), theme.RED)
            )
        elif action == "queue":
            self.app.goto("queue")
        elif action == "enrol":
            self.app.goto("enrol")
        elif action in ("exit", "back"):
            self.app.goto("attract")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        self.header(surface, self.t("app.operator.title"))
        counters = self.app.counters()
        state = self.app.printer_state()
        items = [self.note + (True,)] if self.note else []
        items += [
            (
                self.t("app.operator.counters", stamps=counters.get("stamps", 0), games=counters.get("games", 0)),
                theme.INK,
                False,
            ),
            (
                self.t("app.operator.printer", state=self.t(f"app.printer.{state if state != '-' else 'none'}")),
                theme.INK,
                False,
            ),
        ]
        width = card_width_line(self.t, self.app.view.card_width)
        slant = camera_slant_line(self.t, self.app.calibration)
        items += [(line, theme.INK, False) for line in (width, slant) if line]
        items += [(note, theme.RED, False) for note in self.app.storage_notes()]
        places = sorted(counters.get("places", {}).items(), key=lambda kv: (-kv[1], kv[0]))
        if places:
            items.append((self.t("app.operator.places"), theme.INK, True))
            items += [(f"{place(self.app, card_id)}: {n}", theme.INK, False) for card_id, n in places]
        column(surface, self.words, items, theme.min_px(surface.get_size()))
        self.draw_buttons(surface)


class QueueScreen(Screen):
    """The stamps still to print, for the technician: each waiting or parked one (with why), a
    button to reprint each parked one, the counts, and clearing the queue (tapped twice)."""

    name = "queue"

    def enter(self) -> None:
        self.note: tuple[str, tuple[int, int, int]] | None = None
        self.confirm = False  # the clear button was tapped once
        self.rows: list[tuple[str, pygame.Rect, tuple[int, int, int]]] = []

    def layout(self, size: tuple[int, int]) -> None:
        stamps = self.app.services.stamps
        jobs = stamps.jobs() if stamps is not None else []
        area, g, bh = body(size), gap(size), int(theme.unit(size) * 0.1)
        fnt = theme.font(theme.min_px(size))
        if theme.portrait(size):  # the clear button and the counts on top, the stamps under them
            side = pygame.Rect(area.left, area.top, area.width, bh * 2 + g + 4 * fnt.get_linesize())
            listing = pygame.Rect(area.left, side.bottom + g, area.width, area.bottom - side.bottom - g)
        else:  # the clear button and the counts on the left, the stamps on the right
            side = pygame.Rect(area.left, area.top, area.width // 3, area.height)
            listing = pygame.Rect(side.right + 2 * g, area.top, area.right - side.right - 2 * g, area.height)
        clear = self.t("app.queue.clear_confirm", n=len(jobs)) if self.confirm else self.t("app.queue.clear")
        clear_h = button_height(size, clear, side.width) if jobs else -g
        self.words = pygame.Rect(side.left, side.top + clear_h + g, side.width, side.height - clear_h - g)
        self.buttons = []
        if jobs:
            self.buttons.append(
                widgets.Button(
                    pygame.Rect(side.left, side.top, side.width, clear_h), clear, "clear", {}, theme.RED, theme.WHITE
                )
            )
        self.rows = []
        line = fnt.get_linesize()
        reprint = self.t("app.queue.reprint")
        reprint_w = max(listing.width // 3, theme.font(theme.min_px(size), True).size(reprint)[0] + bh // 2)
        y = listing.top
        for n, job in enumerate(jobs):
            parked = job.state == "parked"
            state = self.t(f"app.queue.{job.state}") + (f" ({job.note})" if parked and job.note else "")
            words = f"#{job.id} {place(self.app, job.card_id)} · {state}"
            width = listing.width - (reprint_w + g if parked else 0)
            height = max(bh, min(MAX_ROW_LINES, len(widgets.wrap(words, fnt, width))) * line)
            if y + height + (g + line if n < len(jobs) - 1 else 0) > listing.bottom:  # room for "… and N more"
                self.rows.append(
                    (
                        self.t("app.queue.more", n=len(jobs) - n),
                        pygame.Rect(listing.left, y, listing.width, line),
                        theme.GREY,
                    )
                )
                break
            self.rows.append((words, pygame.Rect(listing.left, y, width, height), theme.RED if parked else theme.INK))
            if parked:
                self.buttons.append(
                    widgets.Button(
                        pygame.Rect(listing.right - reprint_w, y, reprint_w, bh), reprint, "reprint", {"job": job.id}
                    )
                )
            y += height + g
        if not jobs:
            self.rows.append(
                (self.t("app.queue.empty"), pygame.Rect(listing.left, y, listing.width, 2 * line), theme.GREY)
            )
        self.buttons += header_buttons(size, [(self.t("app.back"), "back", {})])

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        stamps = self.app.services.stamps
        if action == "back":
            self.app.goto("operator")
        elif action == "reprint" and stamps is not None:
            if stamps.reprint(params["job"]):
                self.note = (self.t("app.queue.reprinted", id=params["job"]), theme.GREEN)
            self.confirm = False
        elif action == "clear" and stamps is not None:
            if self.confirm:
                self.note = (self.t("app.queue.cleared", n=stamps.clear()), theme.GREEN)
            self.confirm = not self.confirm

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        size = surface.get_size()
        px = theme.min_px(size)
        self.header(surface, self.t("app.operator.queue"))
        stamps = self.app.services.stamps
        counters = stamps.counters() if stamps is not None else {}
        items = [self.note + (True,)] if self.note else []
        items.append(
            (
                self.t(
                    "app.queue.summary",
                    waiting=counters.get("waiting", 0),
                    parked=counters.get("parked_now", 0),
                    printed=counters.get("printed", 0),
                ),
                theme.INK,
                False,
            )
        )
        column(surface, self.words, items, px)
        for words, rect, colour in self.rows:
            widgets.text(surface, words, rect, px, colour, max_lines=MAX_ROW_LINES, valign="center")
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
        area, g = body(size), gap(size)
        bh = int(theme.unit(size) * 0.1)
        line = 2 * theme.font(theme.min_px(size)).get_linesize()
        # the camera's picture as large as it fits (a 4:3 or 16:9 camera), its message and button under it
        self.box = pygame.Rect(
            area.left, area.top, area.width, min(area.height - line - bh - 2 * g, area.width * 3 // 4)
        )
        self.message_rect = pygame.Rect(area.left, self.box.bottom + g, area.width, line)
        self.buttons = widgets.button_row(
            pygame.Rect(area.left, self.message_rect.bottom + g, area.width, bh),
            [(self.t("app.calibrate.find"), "find", {})],
            gap=g,
        )
        self.buttons += header_buttons(size, [(self.t("app.back"), "back", {})])

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
        self.header(surface, self.t("app.operator.calibrate"))
        box = self.box
        pygame.draw.rect(surface, theme.INK, box)
        widgets.mark(box, "picture")
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
            self.message_rect,
            theme.min_px(surface.get_size()),
            theme.INK,
            align="center",
            valign="center",
        )
        self.draw_buttons(surface)
