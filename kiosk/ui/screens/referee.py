"""Referee mode: the live table with its zones and cards, the score sheet, the rulings as banners,
the buttons a game needs for what the camera cannot see, and the winner.

Landscape: the live view on the left with the rulings under it, the score sheet and the buttons
on the right. Portrait: the live view across the top, the rulings under it, and the score sheet
beside the buttons across the bottom. A picker (who deals, which suit) takes the place of the score sheet and the
buttons until it is answered.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygame

from kiosk.howto import GUIDES
from kiosk.i18n import catalog
from kiosk.modes.referee import InputSpec, RefereeStatus, Ruling
from kiosk.table import TableView
from kiosk.ui import theme, widgets
from kiosk.ui.app_params import SEAT_PARAM_NAMES
from kiosk.ui.images import fit, from_bgr
from kiosk.ui.screens.base import Screen, body, button_height, gap, header_buttons

log = logging.getLogger(__name__)
BANNER_SECONDS = 6.0
MAX_BANNERS = 3
RULING_LINES = 5  # the longest ruling of the shipped games, in the rulings' width at 800x480
PER_ROW = 6  # seat buttons side by side under one caption


def score_rows(status: RefereeStatus, names: list[str]) -> list[tuple[str, str, bool]]:
    """The score panel's rows (name, score, whether it is that row's turn): one per team where the
    status carries ``team_totals`` (team ``t``: the seats ``s`` with ``s % teams == t``, partners
    facing each other), else one per player."""
    to_act = status.to_act
    totals = list(status.team_totals)
    if totals:
        teams = [[s for s in range(len(names)) if s % len(totals) == t] for t in range(len(totals))]
        return [
            (" & ".join(names[s] for s in seats), str(total), to_act in seats)
            for seats, total in zip(teams, totals, strict=True)
        ]
    return [
        (names[i] if i < len(names) else str(i + 1), str(score), to_act == i) for i, score in enumerate(status.scores)
    ]


def regions(size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
    """(live view, rulings, side) of a screen of ``size``; the side holds scores and buttons. The
    rulings' area holds at least a ruling of RULING_LINES lines (:func:`kiosk.ui.widgets.banner_height`)."""
    area, g = body(size), gap(size)
    fnt = theme.font(theme.min_px(size), True)
    least = RULING_LINES * fnt.get_linesize() + widgets.banner_pad(size)
    if theme.portrait(size):  # the side across the bottom, the rulings between it and the view
        view = pygame.Rect(area.left, area.top, area.width, area.width * 9 // 16)
        side = pygame.Rect(area.left, area.bottom - area.height * 3 // 10, area.width, area.height * 3 // 10)
        return view, pygame.Rect(area.left, view.bottom + g, area.width, side.top - view.bottom - 2 * g), side
    width = int(area.width * 0.56)
    view = pygame.Rect(area.left, area.top, width, min(width * 9 // 16, area.height - least - g))
    rulings = pygame.Rect(area.left, view.bottom + g, width, area.bottom - view.bottom - g)
    return view, rulings, pygame.Rect(view.right + 2 * g, area.top, area.right - view.right - 2 * g, area.height)


def banner_rects(size: tuple[int, int], messages: list[str]) -> list[pygame.Rect]:
    """Where ``messages`` (newest first) go in the rulings' area, each as tall as it takes: the
    first always, the others while they fit."""
    _, area, _ = regions(size)
    g = gap(size)
    out: list[pygame.Rect] = []
    y = area.top
    for message in messages:
        height = widgets.banner_height(size, message, area.width)
        if out and y + height > area.bottom:
            break
        out.append(pygame.Rect(area.left, y, area.width, height))
        y += height + g
    return out


@dataclass
class Group:
    """Inputs shown together: one button, or a caption over one small button per seat where the
    same input is offered to several seats ("Joueur ? passe" over 1 2 3 4)."""

    caption: str | None
    buttons: list[tuple[str, InputSpec]] = field(default_factory=list)


class RefereeScreen(Screen):
    name = "referee"
    shows_camera = True

    def enter(self) -> None:
        game = self.params["game"]
        players = int(self.params["players"])
        self.options = self.params.get("options") or self.app.game_options(game)  # the menu's, else the config's
        self.session = self.app.start_game(game, players, self.options)
        self.banners: list[tuple[float, Ruling]] = []
        self.picker: InputSpec | None = None
        self.counted = False
        self.captions: list[tuple[str, pygame.Rect]] = []
        self.score_box: pygame.Rect | None = None

    # table and input --------------------------------------------------------------------------
    def on_view(self, view: TableView) -> None:
        self._show(self.session.on_view(view))

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "back":
            if self.picker is not None:
                self.picker = None
            else:
                self.app.goto("menu", game=self.session.game_id, players=self.session.players, options=self.options)
        elif action == "howto":  # the rules over the game, which waits under them
            self.app.goto("howto", game=self.session.game_id, over=self)
        elif action == "new_game":
            self.app.goto("referee", game=self.session.game_id, players=self.session.players, options=self.options)
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
        self.banners = self.banners[-MAX_BANNERS:]
        if self.session.status().over and not self.counted:
            self.counted = True
            self.app.count_game(self.session.game_id)

    # layout -----------------------------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> None:
        self.buttons = []
        self.captions = []
        self.score_box = None
        _, rulings, side = regions(size)
        g = gap(size)
        if self.picker is not None:  # in portrait over the rulings too: the question is the news
            self._picker(size, side.union(rulings) if theme.portrait(size) else side)
        elif theme.portrait(size):  # the score sheet on the left, the buttons on the right
            half = (side.width - 2 * g) // 2
            self.score_box = self._score_box(size, pygame.Rect(side.left, side.top, half, side.height))
            self._inputs_column(size, pygame.Rect(side.right - half, side.top, half, side.height))
        else:
            self.score_box = self._score_box(size, side)
            top = self.score_box.bottom + 2 * g
            self._inputs_column(size, pygame.Rect(side.left, top, side.width, side.bottom - top))
        specs: list[tuple[str, str, dict[str, Any]]] = [(self.t("app.back"), "back", {})]
        if self.session.game_id in GUIDES:  # the game's rules, over it
            specs.insert(0, (self.t("howto.rules"), "howto", {}))
        self.buttons += header_buttons(size, specs)  # last: the GPIO focus starts on the game's buttons

    def _score_box(self, size: tuple[int, int], area: pygame.Rect) -> pygame.Rect:
        """The score sheet's panel, as tall as its rows take (:meth:`_score_rows`)."""
        g = gap(size)
        rows = self._score_rows(size, area.width - 2 * g)
        return pygame.Rect(area.left, area.top, area.width, min(area.height, sum(h for *_, h in rows) + g))

    def _score_rows(self, size: tuple[int, int], width: int) -> list[tuple[str, str, bool, int]]:
        """(name, score, bold, height) of the title and each row: ▶ before whose turn it is, a
        name that does not fit beside the scores wrapped on two lines."""
        status = self.session.status()
        fnt = theme.font(theme.min_px(size), True)
        rows = [(self.t("app.scores"), "", True)]
        playing = not status.over
        rows += [
            (("\u25b6 " if turn and playing else "") + name, value, turn and playing)
            for name, value, turn in score_rows(status, self.session.names)
        ]
        value_w = max(fnt.size(value)[0] for _, value, _ in rows) + gap(size)
        return [
            (name, value, bold, len(widgets.wrap(name, fnt, width - value_w)) * fnt.get_linesize())
            for name, value, bold in rows
        ]

    def _inputs_column(self, size: tuple[int, int], area: pygame.Rect) -> None:
        """The inputs, top down: a button each, or a caption over one button per seat; then a new
        game once the game is over."""
        g = gap(size)
        bh = button_height(size)
        y = area.top
        for group in self.groups():
            if group.caption is not None:
                used = caption_height(size, group.caption, area.width)
                self.captions.append((group.caption, pygame.Rect(area.left, y, area.width, used)))
                y += used + g // 2
                for start in range(0, len(group.buttons), PER_ROW):
                    row = group.buttons[start : start + PER_ROW]
                    self.buttons += widgets.button_row(
                        pygame.Rect(area.left, y, area.width, bh),
                        [(label, "input", {"spec": s}) for label, s in row],
                        gap=g,
                    )
                    y += bh + g
            else:
                ((label, spec),) = group.buttons
                height = button_height(size, label, area.width)
                self.buttons.append(
                    widgets.Button(pygame.Rect(area.left, y, area.width, height), label, "input", {"spec": spec})
                )
                y += height + g
        if self.session.status().over:
            self.buttons.append(
                widgets.Button(
                    pygame.Rect(area.left, area.bottom - bh, area.width, bh),
                    self.t("app.new_game"),
                    "new_game",
                    {},
                    theme.GREEN,
                    theme.WHITE,
                )
            )

    def _picker(self, size: tuple[int, int], side: pygame.Rect) -> None:
        """The question (who deals? which suit?) over one button per answer."""
        assert self.picker is not None
        g = gap(size)
        question = self._label(self.picker)
        used = caption_height(size, question, side.width)
        self.captions.append((question, pygame.Rect(side.left, side.top, side.width, used)))
        specs = [
            (self.t(label), "choice", {"spec": self.picker, "value": value})
            for value, label in self.picker.choices.items()
        ]
        top = side.top + used + g
        cols = 2 if len(specs) > 4 or theme.portrait(size) else 1
        rows = (len(specs) + cols - 1) // cols
        row_h = min(button_height(size) * 5 // 4, (side.bottom - top - g * (rows - 1)) // rows)
        self.buttons += widgets.button_grid(
            pygame.Rect(side.left, top, side.width, side.bottom - top), specs, cols, row_h, gap=g
        )

    def groups(self) -> list[Group]:
        """The inputs offered now, those of one action and label for several seats grouped."""
        groups: list[Group] = []
        by_key: dict[tuple[str, str], Group] = {}
        specs = self._inputs()
        shared = {
            (s.action, s.label_key)
            for s in specs
            if sum((o.action, o.label_key) == (s.action, s.label_key) for o in specs) > 1
        }
        for spec in specs:
            seat = self._seat(spec)
            key = (spec.action, spec.label_key)
            if key not in shared or seat is None:
                groups.append(Group(None, [(self._label(spec), spec)]))
                continue
            if key not in by_key:
                by_key[key] = Group(self._label(spec, anyone=True))
                groups.append(by_key[key])
            by_key[key].buttons.append((str(seat + 1), spec))
        return groups

    def _seat(self, spec: InputSpec) -> int | None:
        """The 0-based seat an input is for, if it names one."""
        seat = next((v for k, v in spec.params.items() if k in SEAT_PARAM_NAMES and isinstance(v, int)), None)
        if seat is not None and not self.session.seats_as_names:
            seat -= 1  # 1-based in these rulings
        return seat if seat is not None and 0 <= seat < self.session.players else None

    def _label(self, spec: InputSpec, anyone: bool = False) -> str:
        """An input's words; ``anyone``: with "?" where it names the seat (a group's caption)."""
        params = dict(spec.params)
        if anyone:
            params = {k: ("?" if k in SEAT_PARAM_NAMES and isinstance(v, int) else v) for k, v in params.items()}
        return self.app.ruling_text(Ruling(spec.label_key, params), None if anyone else self.seat_names())

    def seat_names(self) -> list[str] | None:
        """Player names for games whose rulings name seats by 0-based number, else None."""
        return self.session.names if self.session.seats_as_names else None

    def _inputs(self) -> list[InputSpec]:
        try:
            return self.session.inputs()
        except Exception:
            log.exception("referee inputs failed")
            return []

    # drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        size = surface.get_size()
        status = self.session.status()
        self.header(surface, self.t(f"app.game.{self.session.game_id}"))
        view, _, _ = regions(size)
        self._live_view(surface, view)
        if self.score_box is not None:
            self._scores(surface, self.score_box)
        for caption, rect in self.captions:
            widgets.text(surface, caption, rect, theme.min_px(size), theme.INK, bold=True, balance=True)
        if self.picker is None or not theme.portrait(size):  # a portrait picker covers the rulings
            self._banners(surface, status)
        self.draw_buttons(surface)

    def _live_view(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        pygame.draw.rect(surface, theme.INK, box)
        widgets.mark(box, "picture")
        px = theme.min_px(surface.get_size())
        frame = self.app.latest_frame()
        image = from_bgr(frame) if frame is not None else None
        if image is None:
            widgets.text(
                surface,
                self.t(self.app.vision_status_key() or "app.preparing"),
                box.inflate(-2 * gap(surface.get_size()), -2 * gap(surface.get_size())),
                int(px * 1.2),
                theme.WHITE,
                align="center",
                valign="center",
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
                self._zone_tag(surface, zone.name, poly, px, box)
        hidden = self.app.view.out_of_sight
        for card in self.app.view.cards:
            if card.track_id in hidden:  # gone from the picture: no box where it was
                continue
            poly = to_screen(np.array(card.corners))
            pygame.draw.polygon(surface, theme.GREEN, poly, width=3)
            (x0, y0), (x1, y1), (x3, y3) = poly[0], poly[1], poly[3]
            across = min(np.hypot(x1 - x0, y1 - y0), np.hypot(x3 - x0, y3 - y0))  # the card's width
            words = self.app.card_label(card.card_id)
            if not widgets.fits(words, px, int(0.9 * across)):
                words = card.card_id  # "3C", not its town
            # on the card's middle, not above it: cards lying edge to edge would share that spot
            centre = (sum(p[0] for p in poly) // 4, sum(p[1] for p in poly) // 4)
            widgets.label(surface, words, centre, px, box)

    def _zone_tag(
        self, surface: pygame.Surface, name: str, poly: list[tuple[int, int]], px: int, box: pygame.Rect
    ) -> None:
        """A seat's number on its zone's top edge (the seat buttons and score rows use the same
        number); another zone's name where it fits the zone's width (the mat prints it too)."""
        left, right = min(p[0] for p in poly), max(p[0] for p in poly)
        top = min(p[1] for p in poly)
        seat = name[4:] if name.startswith("seat") and name[4:].isdigit() else None
        words = str(int(seat) + 1) if seat is not None else self.zone_label(name)
        width = theme.font(px, True).size(words)[0] + 10
        if seat is None and width > right - left - 8:
            return
        # in the zone's top left corner: a card lies in its middle
        centre = (left + 4 + width // 2, top + 2 + theme.font(px, True).get_height() // 2)
        widgets.label(surface, words, centre, px, box, theme.INK, theme.YELLOW)

    def zone_label(self, name: str) -> str:
        """``seat2`` -> the player's name; ``discard`` -> the word in the current language."""
        if name.startswith("seat") and name[4:].isdigit() and int(name[4:]) < len(self.session.names):
            return self.session.names[int(name[4:])]
        key = f"app.zone.{name.rstrip('0123456789')}"
        return self.t(key) if key in catalog() else name

    def _scores(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """The score sheet: a title, then a row per player or team."""
        widgets.panel(surface, box)
        size = surface.get_size()
        g = gap(size)
        px = theme.min_px(size)
        inner = box.inflate(-2 * g, -g)
        rows = self._score_rows(size, inner.width)
        value_w = max(theme.font(px, True).size(value)[0] for _, value, _, _ in rows)
        y = inner.top
        for name, value, bold, height in rows:
            widgets.text(
                surface, name, pygame.Rect(inner.left, y, inner.width - value_w - g, height), px, theme.INK, bold=bold
            )
            widgets.text(
                surface,
                value,
                pygame.Rect(inner.right - value_w, y, value_w, height),
                px,
                theme.INK,
                bold=bold,
                align="right",
            )
            y += height

    def _banners(self, surface: pygame.Surface, status: RefereeStatus) -> None:
        """The winner once the game is over; the newest rulings, newest first; then, while the
        game goes on and there is room, what the table is waiting for."""
        now = self.app.now()
        shown: list[tuple[str, str]] = []
        if status.over:
            winners = ", ".join(self.session.names[int(i)] for i in status.winners)
            shown.append(("\u2605 " + self.t("app.winner", players=winners) + " \u2605", "game_over"))
        shown += [
            (self.app.ruling_text(r, self.seat_names()), r.level)
            for t, r in reversed(self.banners)
            if now - t < BANNER_SECONDS and not (status.over and r.level == "game_over")
        ]  # said once
        if status.expects is not None and not status.over:
            expects = Ruling(status.expects.key, status.expects.params)
            shown.append((self.app.ruling_text(expects, self.seat_names()), "expects"))
        rects = banner_rects(surface.get_size(), [message for message, _ in shown])
        for rect, (message, level) in zip(rects, shown, strict=False):
            widgets.banner(surface, rect, message, level)


def caption_height(size: tuple[int, int], caption: str, width: int) -> int:
    fnt = theme.font(theme.min_px(size), True)
    return len(widgets.wrap(caption, fnt, width)) * fnt.get_linesize()
