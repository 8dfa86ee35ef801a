"""The kiosk's main loop: pygame events, table snapshots and outputs, one screen at a time.

Nothing in the loop blocks: the vision runs in its worker thread and hands over immutable
snapshots, the stamp printer has its own worker and a durable queue, GPIO buttons post pygame
events from their threads. An exception inside a screen or a referee is logged once, shown as a
friendly message, and the kiosk returns to the attract screen; a frozen loop stops pinging the
systemd watchdog and gets restarted.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pygame

from kiosk.config import Config
from kiosk.counters import Counters
from kiosk.decks import load_deck
from kiosk.devices import notify
from kiosk.devices.queue import UNAVAILABLE
from kiosk.devices.state import FAULTS
from kiosk.i18n import LANGUAGES, catalog, translate
from kiosk.modes.choice import cards_go_to_passport
from kiosk.modes.enrolment import EnrolmentMode
from kiosk.modes.games import GameInfo, offered_games
from kiosk.modes.passport import CardSeen, PassportMode, ShowPlace, StampService, Surprise
from kiosk.modes.previews import StampPreviews
from kiosk.modes.referee import RefereeMode, Ruling
from kiosk.render.mathcards import card_text
from kiosk.table import TableView
from kiosk.ui.app_params import SEAT_PARAM_NAMES
from kiosk.ui.pin import PinGuard
from kiosk.ui.rotation import onto_panel, panel_size, to_picture
from kiosk.ui.screens.attract import AttractScreen
from kiosk.ui.screens.base import Screen
from kiosk.ui.screens.enrol import EnrolScreen, TeachScreen
from kiosk.ui.screens.failsafe import FailsafeScreen
from kiosk.ui.screens.howto import HowtoScreen
from kiosk.ui.screens.menu import MenuScreen
from kiosk.ui.screens.operator import CalibrateScreen, OperatorScreen, PinScreen, QueueScreen
from kiosk.ui.screens.passport import PassportScreen
from kiosk.ui.screens.referee import RefereeScreen
from kiosk.vision.calibration import Calibration, from_markers
from kiosk.vision.detect import Detector, DetectorConfig

log = logging.getLogger(__name__)
#: Once calibrated, how often (seconds) the mat's markers are looked for again: a camera knocked
#: or turned since is calibrated again while they show
RECALIBRATE_S = 60.0

GPIO_EVENT = pygame.USEREVENT + 1
#: The camera is taken as lost when its last good frame is older than this (seconds).
CAMERA_STALE_S = 3.0

#: SDL's touch id of the finger events it makes from mouse clicks (SDL_MOUSE_TOUCHID).
MOUSE_TOUCH_ID = -1
SCREENS: dict[str, type[Screen]] = {
    cls.name: cls
    for cls in (
        AttractScreen,
        PassportScreen,
        MenuScreen,
        RefereeScreen,
        PinScreen,
        OperatorScreen,
        QueueScreen,
        CalibrateScreen,
        EnrolScreen,
        TeachScreen,
        FailsafeScreen,
        HowtoScreen,
    )
}
#: ruling level or app event -> state of the status light (kiosk.devices.lights.LightState)
LIGHT_FOR = {
    "ok": "valid",
    "violation": "violation",
    "card_seen": "card_seen",
    "printing": "printing",
    "fault": "fault",
    "idle": "idle",
    "game_over": "valid",
}


class VisionService(Protocol):
    def poll(self) -> list[TableView]: ...
    def latest_frame(self) -> np.ndarray | None: ...
    def close(self) -> None: ...


@dataclass
class Services:
    """The hardware edge the app talks to; tests and the demo pass doubles of the devices only."""

    vision: VisionService
    stamps: StampService | None = None
    lights: Any = None  # kiosk.devices.lights.Lights: .show(state)
    buttons: Any = None  # kiosk.devices.buttons.Buttons: delivers actions through on_action
    counters: Counters | None = None
    calibration_path: Any = None
    pin_path: Any = None  # where the PIN lockout is kept across restarts
    gallery_dir: Path | None = None  # where taught decks are saved (None: the state directory the readers use)
    closers: list[Callable[[], None]] = field(default_factory=list)
    #: Stamps are asked for only for cards a real camera saw, or in ``kiosk demo``.
    stamps_allowed: bool = False


@dataclass
class RunStats:
    frames: int = 0
    draws: int = 0
    seconds: float = 0.0
    screens: list[str] = field(default_factory=list)
    errors: int = 0

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds else 0.0


class App:
    """Owns the display, the current screen and the wiring between table, modes and outputs."""

    def __init__(
        self,
        config: Config,
        services: Services,
        *,
        size: tuple[int, int] | None = None,
        fullscreen: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.services = services
        self.now = clock
        self.lang = config.kiosk.language
        self.mode = config.kiosk.mode
        self.pin_guard = PinGuard(config.kiosk.admin_pin, path=services.pin_path, now=clock())
        self.passport = PassportMode(
            load_deck("affiche-belge"),
            services.stamps,
            stamps_allowed=services.stamps_allowed,
            counters=services.counters,
        )
        self.previews = StampPreviews()
        #: The games offered, looked up once: scanning the entry points costs milliseconds, and
        #: the live view names its cards on every frame.
        self.games: dict[str, GameInfo] = offered_games(config.kiosk.games)
        self.view = TableView(frame_index=-1, timestamp=0.0)
        self.calibration: Calibration | None = None
        self._calibration_try = -1e9
        saved = Calibration.load(services.calibration_path) if services.calibration_path else None
        if saved is not None:
            self.set_calibration(saved, save=False)
        self._enrol_detector: Detector | None = None  # the UI thread's own, made when a deck is first taught
        self.gpio_used = False
        self.stats = RunStats()
        self._last_activity = self.now()
        self._frame: np.ndarray | None = None
        self.last_views: list[TableView] = []
        self._dirty = True
        self._drawn_at = -1e9
        self._faults: frozenset[str] = frozenset()
        self.shown: tuple[str, str] = ("", "")  # the screen and language the surface last drew
        self.fullscreen = config.display.fullscreen if fullscreen is None else fullscreen
        self._surface = self._open_display(size, self.fullscreen)
        self.screen: Screen = self._make("attract" if self.mode == "passport" else "menu", {})
        self._pending: tuple[str, dict[str, Any]] | None = None
        if services.buttons is not None and hasattr(services.buttons, "on_action"):
            services.buttons.on_action = self.post_gpio

    # display -------------------------------------------------------------------------------
    def _open_display(self, size: tuple[int, int] | None, fullscreen: bool) -> pygame.Surface:
        """Open the panel (``self._panel``) and return the surface the screens draw on: the panel
        itself, or an upright picture that is turned onto it (``[display] rotate``)."""
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(self.config.kiosk.name)
        rotate = self.config.display.rotate
        if fullscreen and size is None:
            self._panel = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)
        else:
            picture = size or (self.config.display.width, self.config.display.height)
            self._panel = pygame.display.set_mode(panel_size(picture, rotate))
        return pygame.Surface(panel_size(self._panel.get_size(), rotate)) if rotate else self._panel

    def _picture_pos(self, pos: tuple[int, int]) -> tuple[int, int]:
        """The point of the upright picture at panel pixel ``pos``."""
        return to_picture(pos, self._panel.get_size(), self.config.display.rotate)

    @property
    def surface(self) -> pygame.Surface:
        return self._surface

    # screens -------------------------------------------------------------------------------
    def _make(self, name: str, params: dict[str, Any]) -> Screen:
        if isinstance(params.get("resume"), Screen):  # a screen left for a while comes back as it was
            screen = params["resume"]
        else:
            screen = SCREENS[name](self, **params)
            screen.enter()
        self.stats.screens.append(name)
        return screen

    def goto(self, name: str, **params: Any) -> None:
        """Switch screens after the current event or frame is finished."""
        self._pending = (name, params)

    def resume(self, screen: Screen) -> None:
        """Go back to ``screen`` as it was left (a game paused to read its rules): the same object,
        not entered again, its vision deck the same."""
        self.goto(screen.name, **screen.params, resume=screen)

    def _switch(self) -> None:
        if self._pending is None:
            return
        name, params = self._pending
        self._pending = None
        try:
            self.screen.exit()
            self._follow_deck(name, params)
            self.screen = self._make(name, params)
        except Exception:
            self._fail(f"entering {name}")

    def _follow_deck(self, name: str, params: dict[str, Any]) -> None:
        """The vision answers only the active deck: the game's while refereeing (or paused under
        another screen, ``over``), else the passport's."""
        deck_id = "affiche-belge"
        if name == "referee" or params.get("over") is not None:
            deck_id = self.games[params["game"]].deck_id
        set_deck = getattr(self.services.vision, "set_deck", None)
        if set_deck is not None:
            set_deck(deck_id)

    def _fail(self, where: str) -> None:
        """Log once, show the friendly failsafe screen, keep running."""
        self.stats.errors += 1
        log.exception("error while %s; back to the start", where)
        self.lights_for("fault")
        self._pending = None
        self.screen = self._make("failsafe", {})

    # services used by screens ---------------------------------------------------------------
    def t(self, key: str, **params: Any) -> str:
        return translate(key, self.lang, **params)

    def set_language(self, lang: str) -> None:
        if lang in LANGUAGES:
            self.lang = lang
            self._dirty = True

    def cycle_language(self) -> None:
        self.lang = LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)]

    def touched(self) -> None:
        self._last_activity = self.now()

    def latest_frame(self) -> np.ndarray | None:
        return self._frame

    def card_in_view(self) -> bool:
        return bool(self.view.cards)

    def vision_status_key(self) -> str | None:
        """Preparing, or the camera lost: it reports no picture, or its last good frame is older
        than CAMERA_STALE_S (a driver whose read hangs leaves the last view on screen)."""
        frame_age = getattr(self.services.vision, "frame_age", None)
        age = frame_age() if frame_age is not None else None
        if age is not None and age > CAMERA_STALE_S:
            return "app.camera_lost"
        if self.view.frame_index < 0:
            return "app.preparing"
        if not self.view.camera_ok:
            return "app.camera_lost"
        return None

    def faults(self) -> frozenset[str]:
        """What the visitor misses now, as message keys: the camera, the stamps."""
        found = set()
        if self.vision_status_key() == "app.camera_lost":
            found.add("app.camera_lost")
        if self.printer_state() == "unavailable":
            found.add(UNAVAILABLE)
        return frozenset(found)

    def status_key(self) -> str | None:
        """The one line the attract screen gives on the kiosk's state: a fault, or preparing."""
        return min(self.faults(), default=None) or self.vision_status_key()

    def start_game(self, game_id: str, players: int, options: dict[str, Any]) -> RefereeMode:
        """Referee mode for a new game: players named in the screen's language, a fresh seed."""
        names = [self.t("app.player", n=i + 1) for i in range(players)]
        return RefereeMode(self.games[game_id], players, names, options, seed=int(self.now() * 1000) & 0xFFFF)

    def game_options(self, game_id: str) -> dict[str, Any]:
        """The options the config's ``[games.<id>]`` sets for a game (its house rules)."""
        return dict(self.config.games.get(game_id, {}))

    def card_label(self, card_id: str) -> str:
        deck_id = self.screen.session.deck_id if isinstance(self.screen, RefereeScreen) else "affiche-belge"
        deck = load_deck(deck_id)
        if card_id not in deck:
            return card_id
        if deck.identify_by == "text":  # a math card: what it shows, "7 × 8"
            return card_text(deck[card_id])
        if deck[card_id].names:
            return f"{card_id} {deck[card_id].name(self.lang)}"
        return card_id

    def ruling_text(self, ruling: Ruling, names: list[str] | None) -> str:
        """The ruling in the current language; seats become names, keys become words.

        ``names`` (seat -> player name) is given for games whose rulings carry 0-based seats.
        A parameter that is a message key (``kakkerlakken.species.rat``), or that names one
        through the ruling's domain (``species="rat"`` in a ``kakkerlakken.*`` ruling), is
        translated too.
        """
        domain = ruling.key.split(".", 1)[0]
        known = catalog()

        def word(name: str, value: Any) -> Any:
            if isinstance(value, str) and name.startswith("card"):
                return self.card_label(value)
            if isinstance(value, str):
                for key in (value, f"{domain}.{name}.{value}"):
                    if key in known:
                        return self.t(key)
            return value

        params = {}
        for key, value in ruling.params.items():
            if names and key in SEAT_PARAM_NAMES and isinstance(value, int) and 0 <= value < len(names):
                params[key] = names[value]
            elif isinstance(value, (list, tuple)):
                params[key] = ", ".join(str(word(key, v)) for v in value)
            else:
                params[key] = word(key, value)
        return self.t(ruling.key, **params)

    def lights_for(self, state: str) -> None:
        lights = self.services.lights
        if lights is None:
            return
        try:
            light = LIGHT_FOR.get(state)
            if light is not None:
                lights.show(light)
        except Exception:
            log.exception("lights failed")

    def printer_state(self) -> str:
        return self.services.stamps.state() if self.services.stamps else "-"

    def print_test_page(self) -> str:
        """Queue a test page; "" when queued, else why not (a message key)."""
        if self.services.stamps is None:
            return "devices.stamp.no_printer"
        return self.services.stamps.test_page().reason

    def counters(self) -> dict[str, Any]:
        return self.services.counters.summary() if self.services.counters else {}

    def storage_notes(self) -> list[str]:
        """For the operator: state files failing to save now, and those set aside in this run."""
        return [f"{subject}: {message}" for subject, message in FAULTS.current().items()] + FAULTS.events()

    def enrolment(self, deck_id: str) -> EnrolmentMode:
        """Teaching ``deck_id`` from the camera's frames, looked at by the teach screen's worker
        thread with a detector of its own (a detector serves one thread; the vision worker keeps
        its own), in the camera's view of the table where the kiosk is calibrated."""
        if self._enrol_detector is None:
            vision = self.config.vision
            self._enrol_detector = Detector(
                DetectorConfig(outline_model=vision.outline_model, model_threads=vision.model_threads)
            )
        self._enrol_detector.view = None if self.calibration is None else self.calibration.table_view
        return EnrolmentMode(deck_id, self._enrol_detector, directory=self.services.gallery_dir)

    def count_game(self, game_id: str) -> None:
        if self.services.counters:
            self.services.counters.game(game_id)

    def set_calibration(self, calibration: Calibration, save: bool = True) -> None:
        self.calibration = calibration
        calibrated = getattr(self.services.vision, "set_calibration", None)
        if calibrated is not None:
            calibrated(calibration)
        if save and self.services.calibration_path:
            calibration.save(self.services.calibration_path)  # a failed save is reported, never raised

    def _auto_calibrate(self) -> None:
        """Look for the mat's markers every few seconds until the table is calibrated, then every
        :data:`RECALIBRATE_S`: where the camera has moved (:meth:`Calibration.moved`), the markers'
        calibration replaces the old one. An error here is logged and the frame loop goes on."""
        now = self.now()
        wait = 2.0 if self.calibration is None else RECALIBRATE_S
        if self._frame is None or now - self._calibration_try < wait:
            return
        self._calibration_try = now
        try:
            found = from_markers(self._frame)
            if found is None:
                return
            if self.calibration is None:
                log.info("mat found (%d markers): table calibrated", found.markers_seen)
            elif self.calibration.moved(found):
                log.warning("the mat has moved in the picture (%d markers): table calibrated again", found.markers_seen)
            else:
                return
            self.set_calibration(found)
        except Exception:
            log.exception("automatic calibration failed")

    def post_gpio(self, action: str) -> None:
        """Called from the button threads: hand the press to the UI thread."""
        pygame.event.post(pygame.event.Event(GPIO_EVENT, action=action))

    # the loop ------------------------------------------------------------------------------
    def step(self) -> bool:
        """One frame: input, table, screen update and draw. False when the app should quit.

        The loop runs at the display rate so input is answered at once, but a screen is only
        redrawn when something changed (input, a card event, a new camera frame on a screen that
        shows it, a new screen) or after its ``redraw_interval``: the CPU it saves goes to the
        vision thread, which shares the GIL with this loop.
        """
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return False
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and not self.fullscreen:
                return False
            self._dirty = True
            self._dispatch(event)
        frame_before = self._frame
        self._vision()
        if self.last_views and (
            any(v.events for v in self.last_views) or (self.screen.shows_camera and self._frame is not frame_before)
        ):
            self._dirty = True
        self._auto_calibrate()
        screen_before = self.screen
        now = self.now()
        try:
            self.screen.update(now)
            self._switch()
            if self._dirty or self.screen is not screen_before or now - self._drawn_at >= self.screen.redraw_interval:
                self.screen.layout(self._surface.get_size())
                self.screen.draw(self._surface)
                if self._surface is not self._panel:
                    self._panel.blit(onto_panel(self._surface, self.config.display.rotate), (0, 0))
                self.shown = (self.screen.name, self.lang)
                self._dirty = False
                self._drawn_at = now
                self.stats.draws += 1
        except Exception:
            self._fail(f"drawing {self.screen.name}")
        self._idle_timeout()
        pygame.display.flip()
        self.stats.frames += 1
        return True

    def _dispatch(self, event: pygame.event.Event) -> None:
        try:
            # SDL reports a touch twice, as a finger and as a mouse click marked ``touch``, and may
            # report a click as a finger of MOUSE_TOUCH_ID: a touch is taken as its finger, a click
            # as its click, each once.
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
                self.gpio_used = False
                self.screen.on_tap(self._picture_pos(event.pos))
            elif event.type == pygame.FINGERDOWN and getattr(event, "touch_id", 0) != MOUSE_TOUCH_ID:
                self.gpio_used = False
                w, h = self._panel.get_size()
                self.screen.on_tap(self._picture_pos((int(event.x * w), int(event.y * h))))
            elif event.type == GPIO_EVENT:
                self.gpio_used = True
                self.touched()
                if event.action == "admin":
                    self.goto("pin")
                else:
                    self.screen.on_gpio(event.action)
            elif event.type == pygame.KEYDOWN:
                keys = {
                    pygame.K_RIGHT: "next",
                    pygame.K_TAB: "next",
                    pygame.K_RETURN: "select",
                    pygame.K_SPACE: "select",
                    pygame.K_BACKSPACE: "back",
                }
                if event.key == pygame.K_F12:
                    self.goto("pin")
                elif event.key in keys:
                    self.gpio_used = True
                    self.screen.on_gpio(keys[event.key])
            self._switch()
        except Exception:
            self._fail(f"handling input on {self.screen.name}")

    def _vision(self) -> None:
        try:
            views = self.services.vision.poll()
            self._frame = self.services.vision.latest_frame()
        except Exception:
            log.exception("vision service failed")
            return
        self.last_views = views
        for view in views:
            self.view = view
            if not view.events:
                continue
            self.touched()
            try:
                if cards_go_to_passport(self.mode, self.screen.name):
                    self._passport(view)
                else:
                    self.screen.on_view(view)
                self._switch()
            except Exception:
                self._fail(f"reacting to the table on {self.screen.name}")
        self._fault_light()

    def _fault_light(self) -> None:
        """The status light shows the fault for as long as the visitor misses something
        (:meth:`faults`: no camera films the table, stamps cannot be stored; the attract screen
        says which), over any passing state, and goes back to idle when all is back."""
        faults = self.faults()
        if faults != self._faults:
            for key in sorted(faults - self._faults):
                log.warning("%s", translate(key, "en"))
            self._faults = faults
            if not faults:
                self.lights_for("idle")
        if faults:
            self.lights_for("fault")  # showing the state it shows already changes nothing

    def _passport(self, view: TableView) -> None:
        for event in self.passport.on_view(view, self.lang):
            if isinstance(event, CardSeen):
                self.lights_for("card_seen")
            elif isinstance(event, ShowPlace):
                if event.job is not None:
                    self.lights_for("printing")
                self.goto("passport", card_id=event.card_id, refused=event.refused, job=event.job)
            elif isinstance(event, Surprise):
                self.goto("passport", card_id=event.card_id, refused="", job=None)

    def _idle_timeout(self) -> None:
        """Back home after a while without touch or card; a game in progress gets ten times longer."""
        home = "attract" if self.mode == "passport" else "menu"
        in_game = getattr(self.screen, "session", None) is not None  # refereeing, or its game paused
        limit = self.config.kiosk.idle_seconds * (10 if in_game else 1)
        if self.now() - self._last_activity > limit and self.screen.name not in (home, "failsafe"):
            self.goto(home)
            self._switch()
            self._last_activity = self.now()

    def run(self, seconds: float | None = None, on_frame: Callable[[App], None] | None = None) -> RunStats:
        """Run until quit (or for ``seconds``), pinging systemd; returns what happened."""
        period = 1.0 / self.config.display.fps
        started = self.now()
        next_frame = time.monotonic()
        interval = notify.watchdog_interval()
        last_ping = 0.0
        notify.ready(f"{self.mode} mode")
        try:
            while seconds is None or self.now() - started < seconds:
                if not self.step():
                    break
                if on_frame is not None:
                    on_frame(self)
                now = self.now()
                if interval is not None and now - last_ping >= interval:
                    notify.watchdog()
                    last_ping = now
                # time.sleep lets the vision thread run; pygame's Clock.tick keeps the GIL.
                next_frame = max(next_frame + period, time.monotonic() - 0.25)  # catch up briefly
                time.sleep(max(0.0, next_frame - time.monotonic()))
        finally:
            self.stats.seconds = self.now() - started
            notify.stopping()
        return self.stats

    def close(self) -> None:
        self.previews.close()
        for closer in self.services.closers:
            try:
                closer()
            except Exception:
                log.exception("closing a service failed")
        pygame.display.quit()
