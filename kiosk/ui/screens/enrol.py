"""Behind the operator menu: teaching the kiosk a venue's own printing of a deck from the camera
(:mod:`kiosk.modes.enrolment`), and forgetting it again."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pygame

from kiosk.decks import load_deck, parse_standard_id
from kiosk.decks.model import RED_SUITS, SUIT_SYMBOLS
from kiosk.errors import KioskError
from kiosk.modes.enrolment import EnrolmentState, enrolled, teachable_decks
from kiosk.ui import theme, widgets
from kiosk.ui.images import fit, from_bgr
from kiosk.ui.screens.base import Screen, body, button_height, gap, header_buttons
from kiosk.ui.screens.operator import column, menu_buttons
from kiosk.vision.gallery import forget_gallery

#: The teach screen looks at a new camera frame at most this often (seconds). A look runs the
#: detector on a worker thread, one look at a time, so the screen keeps drawing meanwhile.
LOOK_EVERY_S = 0.25
WORD_RANKS = ("A", "K", "Q", "J")  # named in words; the number ranks keep their figures


def card_sign(card_id: str) -> str:
    """``7♥``: the card as its index prints it."""
    rank, suit = parse_standard_id(card_id)
    return rank + SUIT_SYMBOLS[suit]


class EnrolScreen(Screen):
    """Which deck to teach and how much of it is taught; teaching it from the camera, forgetting it
    (tapped twice)."""

    name = "enrol"

    def enter(self) -> None:
        self.decks = teachable_decks(self.app.passport.deck.id)
        self.deck_id: str = self.params.get("deck", self.decks[0])
        self.confirm = False  # forget was tapped once
        self.note: tuple[str, tuple[int, int, int]] | None = None  # what forgetting did
        self.enrolled = enrolled(self.deck_id, self.app.services.gallery_dir)

    def layout(self, size: tuple[int, int]) -> None:
        deck = load_deck(self.deck_id).name(self.app.lang)
        specs: list[tuple[str, str, dict[str, Any]]] = [
            (self.t("app.enrol.deck", deck=deck), "deck", {}),
            (self.t("app.enrol.start"), "start", {}),
        ]
        if self.enrolled.cards or self.enrolled.error:
            specs.append((self.t("app.enrol.forget_confirm" if self.confirm else "app.enrol.forget"), "forget", {}))
        self.buttons, self.words = menu_buttons(size, specs)
        if self.confirm:
            self.buttons[-1].colour, self.buttons[-1].text_colour = theme.RED, theme.WHITE
        self.buttons += header_buttons(size, [(self.t("app.back"), "back", {})])

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "deck":
            self.deck_id = self.decks[(self.decks.index(self.deck_id) + 1) % len(self.decks)]
            self.confirm, self.note = False, None
        elif action == "start":
            self.app.goto("teach", deck=self.deck_id)
        elif action == "forget" and not self.confirm:
            self.confirm = True
        elif action == "forget":
            self.confirm = False
            try:
                forget_gallery(self.deck_id, self.app.services.gallery_dir)
                self.note = (self.t("app.enrol.forgotten"), theme.GREEN)
            except KioskError as exc:  # the file that cannot be removed, named
                self.note = (str(exc), theme.RED)
        elif action == "back":
            self.app.goto("operator")
        self.enrolled = enrolled(self.deck_id, self.app.services.gallery_dir)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        self.header(surface, self.t("app.operator.enrol"))
        now = self.enrolled
        if now.earlier:
            status = (self.t("app.enrol.taught_before"), theme.RED)
        elif now.error:
            status = (now.error, theme.RED)
        elif now.complete:
            status = (self.t("app.enrol.complete", total=now.total), theme.GREEN)
        elif now.cards:
            status = (self.t("app.enrol.partial", n=now.cards, total=now.total), theme.INK)
        else:
            status = (self.t("app.enrol.none"), theme.INK)
        items = [self.note + (True,)] if self.note else []
        items += [status + (True,), (self.t("app.enrol.how"), theme.INK, False)]
        column(surface, self.words, items, theme.min_px(surface.get_size()))
        self.draw_buttons(surface)


class TeachScreen(Screen):
    """One card asked for at a time, large; how many are taught; why the last frame taught
    nothing; the camera's picture. Skip, the last card again, stop (tapped twice where cards
    would be lost)."""

    name = "teach"
    shows_camera = True

    def enter(self) -> None:
        self.mode = self.app.enrolment(self.params["deck"])
        self.state: EnrolmentState = self.mode.state
        self.confirm = False  # stop was tapped once
        self._frame: Any = None  # the camera frame looked at last
        self._looked = -1e9
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="enrol-look")
        self._look: Future[EnrolmentState] | None = None

    def exit(self) -> None:
        """Stop looking; a look under way is finished first, as the next teach screen's looks use
        the same detector, and a detector serves one thread at a time."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    def update(self, now: float) -> None:
        if self._look is not None:
            if not self._look.done():
                return
            self._look.result()  # a look that failed raises here, on the UI thread
            self._look = None
            self._took(self.mode.state)  # the mode's state now: a button may have acted meanwhile
        frame = self.app.latest_frame()
        if frame is None or frame is self._frame or now - self._looked < LOOK_EVERY_S or self.state.done:
            return
        self._frame, self._looked = frame, now
        self._look = self._pool.submit(self.mode.on_frame, frame)

    def _took(self, state: EnrolmentState) -> None:
        """Show the state a look left."""
        before, self.state = self.state, state
        if self.state != before:  # a card laid, moved or taken: someone is at work
            self.app.touched()
        if self.state.taught > before.taught:
            self.app.lights_for("card_seen")

    def on_action(self, action: str, params: dict[str, Any]) -> None:
        if action == "skip":
            self.state = self.mode.skip()
        elif action == "again":
            self.state = self.mode.again()
        elif action == "save":
            self.state = self.mode.save()
        elif action in ("stop", "back"):
            if self.confirm or not self.state.taught or self.state.saved is not None:
                self.app.goto("enrol", deck=self.state.deck_id)
                return
            self.confirm = True
            return
        self.confirm = False

    def _message(self) -> tuple[str, str]:
        """The line under the card and its level (a banner's colour)."""
        s = self.state
        if s.error:
            return self.t("app.enrol.save_failed", error=s.error), "violation"
        if s.saved is not None:
            return self.t("app.enrol.saved", total=s.total), "ok"
        if s.take_away and s.last is not None:
            return self.t("app.enrol.take_away", card=card_sign(s.last)), "ok"
        if s.refusal:
            return self.t(f"app.enrol.refused.{s.refusal}"), "reminder"
        return self.t("app.enrol.lay"), "info"

    def layout(self, size: tuple[int, int]) -> None:
        area, g, s = body(size), gap(size), self.state
        specs: list[tuple[str, str, dict[str, Any]]] = []
        if not s.done:
            specs.append((self.t("app.enrol.skip"), "skip", {}))
        if s.last is not None:
            specs.append((self.t("app.enrol.again", card=card_sign(s.last)), "again", {}))
        if s.error:
            specs.append((self.t("app.enrol.save_again"), "save", {}))
        stop = "app.back" if s.saved is not None else "app.enrol.stop"
        specs.append((self.t("app.enrol.stop_confirm", n=s.taught) if self.confirm else self.t(stop), "stop", {}))
        # a row of buttons at the bottom; on a portrait panel, stop on a row of its own
        rows = [specs[:-1], specs[-1:]] if theme.portrait(size) and len(specs) > 1 else [specs]
        widths = [(area.width - g * (len(row) - 1)) // len(row) for row in rows]
        bh = max(button_height(size, label, w) for row, w in zip(rows, widths, strict=True) for label, _, _ in row)
        top = area.bottom - len(rows) * bh - (len(rows) - 1) * g
        self.buttons = []
        for n, row in enumerate(rows):
            self.buttons += widgets.button_row(pygame.Rect(area.left, top + n * (bh + g), area.width, bh), row, gap=g)
        if self.confirm:
            self.buttons[-1].colour, self.buttons[-1].text_colour = theme.RED, theme.WHITE
        above = pygame.Rect(area.left, area.top, area.width, top - g - area.top)
        if theme.portrait(size):  # the card and its message on top, the camera's picture under them
            heights = self._heights(size, above.width)
            self.info = pygame.Rect(above.left, above.top, above.width, sum(heights) + 3 * g)
            self.box = pygame.Rect(above.left, self.info.bottom + g, above.width, above.bottom - self.info.bottom - g)
        else:  # the card and its message on the left, the camera's picture on the right
            self.info = pygame.Rect(above.left, above.top, above.width * 9 // 20, above.height)
            heights = self._heights(size, self.info.width)
            left = self.info.right + 2 * g
            self.box = pygame.Rect(left, above.top, above.right - left, above.height)
        heights[0] = max(0, min(heights[0], self.info.height - sum(heights[1:]) - 3 * g))  # the sign gives way
        rects, y = [], self.info.top
        for h in heights:
            rects.append(pygame.Rect(self.info.left, y, self.info.width, h))
            y += h + g
        self.sign_rect, self.name_rect, self.progress_rect, self.message_rect = rects

    def _heights(self, size: tuple[int, int], width: int) -> list[int]:
        """The heights of the card's sign (at most a fifth of the screen's shorter side; a tick once
        the deck is saved), its name, the progress and the message, ``width`` wide."""
        unit, asked = theme.unit(size), self.state.asked is not None
        sign = asked or self.state.saved is not None
        return [
            theme.font(int(unit * 0.2), True).get_linesize() if sign else 0,
            theme.font(int(unit * 0.07), True).get_linesize() if asked else 0,
            theme.font(theme.min_px(size)).get_linesize(),
            widgets.banner_height(size, self._message()[0], width),
        ]

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        s = self.state
        self.header(surface, load_deck(s.deck_id).name(self.app.lang))
        sign_px = self.sign_rect.height * 6 // 7
        if s.asked is not None:
            rank, suit = parse_standard_id(s.asked)
            colour = theme.RED if suit in RED_SUITS else theme.INK
            widgets.text(surface, card_sign(s.asked), self.sign_rect, sign_px, colour, bold=True, align="center")
            words = self.t(f"app.enrol.rank.{rank}") if rank in WORD_RANKS else rank
            name = self.t("app.enrol.card", rank=words, suit=self.t(f"app.enrol.suit.{suit}"))
            name_px = self.name_rect.height * 6 // 7
            widgets.text(surface, name, self.name_rect, name_px, colour, bold=True, align="center", max_lines=1)
        elif s.saved is not None and self.sign_rect.height:
            widgets.text(surface, "\u2713", self.sign_rect, sign_px, theme.GREEN, bold=True, align="center")
        px = theme.min_px(surface.get_size())
        progress = self.t("app.enrol.progress", n=s.taught, total=s.total)
        widgets.text(surface, progress, self.progress_rect, px, theme.INK, align="center", max_lines=1)
        message, level = self._message()
        widgets.banner(surface, self.message_rect, message, level)
        self._camera(surface)
        self.draw_buttons(surface)

    def _camera(self, surface: pygame.Surface) -> None:
        """The camera's picture as large as ``box`` holds it (drawn, never stored)."""
        pygame.draw.rect(surface, theme.INK, self.box)
        widgets.mark(self.box, "picture")
        frame = self.app.latest_frame()
        image = from_bgr(frame) if frame is not None else None
        if image is not None:
            scaled, where, _ = fit(image, self.box)
            surface.blit(scaled, where)
