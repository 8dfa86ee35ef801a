"""The composition root: builds the app's services from the configuration.

This is the only place that knows which concrete camera, printer, lights and buttons the kiosk
uses; the app talks to them through :class:`kiosk.ui.app.Services`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from kiosk.config import Config, VisionSettings
from kiosk.table import TableView
from kiosk.vision.calibration import Calibration
from kiosk.vision.detect import Detector, DetectorConfig
from kiosk.vision.pipeline import VisionPipeline, VisionWorker, mat_locator
from kiosk.vision.sources import check_spec, is_camera_spec, open_source
from kiosk.vision.sources.base import FrameSource
from kiosk.vision.track import TrackerConfig

if TYPE_CHECKING:
    from kiosk.devices.printer import PrinterSettings
    from kiosk.ui.app import Services

log = logging.getLogger(__name__)
COUNTERS_FILE = "counters.json"
CALIBRATION_FILE = "calibration.json"
PIN_FILE = "pin.json"


def tracker_config(settings: VisionSettings, fps: float) -> TrackerConfig:
    return TrackerConfig(
        confirm_frames=settings.confirm_frames,
        window=settings.confirm_frames + 1,
        min_confidence=settings.min_confidence,
        remove_after=max(1, round(settings.remove_seconds * fps)),
    )


class VisionLink:
    """The app's end of the vision worker thread.

    ``poll()`` returns the views since the last call with every card event (none is lost between
    two UI frames); ``set_deck`` switches the identifier (a game on another deck),
    ``set_calibration`` the table calibration (where on the mat cards lie, and the camera's view
    of the table); the last frame is kept in memory for the live view only. A camera spec that
    can never work raises :class:`~kiosk.vision.sources.SourceError` here, at start, instead of
    being retried for ever by the worker.
    """

    def __init__(
        self,
        camera: str,
        size: tuple[int, int],
        deck: str,
        settings: VisionSettings,
        fps: float,
        homography: np.ndarray | None = None,
        **source_options: Any,
    ) -> None:
        check_spec(camera)
        self.camera = camera
        self.size = size
        self.settings = settings
        self.fps = fps
        self.deck_id = deck
        self.homography = homography
        self.source_options = source_options
        self.source: FrameSource | None = None
        self._frame: np.ndarray | None = None
        self._frame_at: float | None = None
        self._last_index = -2

        self.frames = 0  # frames read from the camera, whatever the deck or pipeline
        self._lock = threading.Lock()
        # one detector for every deck: its outline model is loaded once, and only the worker
        # thread runs it
        self.detector = Detector(
            DetectorConfig(outline_model=settings.outline_model, model_threads=settings.model_threads)
        )
        self.worker = VisionWorker(self._open, self._pipeline(deck), on_frame=self._keep)

    def _pipeline(self, deck_id: str) -> VisionPipeline:
        return VisionPipeline.for_deck(
            deck_id,
            self.homography,
            tracker_config(self.settings, self.fps),
            self.detector,
            self.settings.model_threads,
        )

    def _open(self) -> FrameSource:
        """The first time, the first camera of the spec's fallbacks that works; after a loss, the
        same camera again (it raises SourceError while unplugged, and the worker backs off)."""
        if self.source is None:
            # a virtual table films at the camera's rate as a real camera would: the tracker's
            # frame counts (remove_after) are seconds at that rate
            self.source = open_source(self.camera, self.size, **{"fps": self.fps, **self.source_options})
        else:
            self.source.open()
        return self.source

    def _keep(self, frame: np.ndarray) -> None:
        """A checked frame: kept in memory for the live view (never on disk), and when it came."""
        self._frame = frame
        self._frame_at = time.monotonic()
        self.frames += 1

    def frame_age(self) -> float | None:
        """Seconds since the camera's last good frame; None before the first one. A camera whose
        ``read()`` hangs keeps the last view on screen: this is how the app knows it is lost."""
        return None if self._frame_at is None else time.monotonic() - self._frame_at

    def start(self) -> VisionLink:
        self.worker.start()
        return self

    def poll(self) -> list[TableView]:
        events = self.worker.drain_events()
        latest = self.worker.latest
        if not events and latest.frame_index == self._last_index:
            return []
        self._last_index = latest.frame_index
        return [replace(latest, events=tuple(events))]

    def latest_frame(self) -> np.ndarray | None:
        return self._frame

    def set_deck(self, deck_id: str) -> None:
        """Identify another deck from the next frame on (its tracker starts empty)."""
        if deck_id != self.deck_id:
            self.deck_id = deck_id
            self.worker.pipeline = self._pipeline(deck_id)

    def set_calibration(self, calibration: Calibration) -> None:
        self.homography = calibration.homography
        self.worker.pipeline.tracker.locate = mat_locator(calibration.homography)
        self.detector.view = calibration.table_view

    def close(self) -> None:
        self.worker.stop()


def build_services(
    config: Config,
    *,
    state: Path,
    camera: str | None = None,
    printer: PrinterSettings | None = None,
    passport_deck: str = "affiche-belge",
    source_options: dict[str, Any] | None = None,
    connect_printer: Callable[[], Any] | None = None,
    on_printed: Callable[[Any], None] | None = None,
    demo: bool = False,
) -> Services:
    """Camera, stamp printer, lights and buttons as the configuration says (or as overridden).

    Stamps are asked for only where a real camera films the table, or in the ``demo`` (the
    rendered table): a kiosk run on the virtual table or a recording prints nothing.
    """
    from kiosk.counters import Counters
    from kiosk.devices.buttons import Buttons
    from kiosk.devices.lights import Lights
    from kiosk.devices.service import QUEUE_FILE, StampPrinter
    from kiosk.ui.app import Services

    spec = camera or config.camera.source
    camera_options = {"focus_m": config.camera.focus_m, "mains_hz": config.camera.mains_hz}
    vision = VisionLink(
        spec,
        (config.camera.width, config.camera.height),
        passport_deck,
        config.vision,
        float(config.camera.fps),
        **{**camera_options, **(source_options or {})},
    )
    stamps_allowed = demo or is_camera_spec(spec)
    if not stamps_allowed:
        log.warning("camera %s is not a camera: no stamps are printed (`kiosk demo` prints the rendered table's)", spec)
    printer_settings = printer or config.printer
    stamps = None
    if printer_settings.backend != "none":
        stamps = StampPrinter(
            printer_settings,
            kiosk_name=config.kiosk.name,
            card_cooldown_s=config.passport.cooldown_seconds,
            queue_path=state / QUEUE_FILE,
            connect=connect_printer,
            on_printed=on_printed,
        )
    lights = Lights(config.lights) if config.lights.kind != "none" else None
    buttons = Buttons(config.buttons) if config.buttons.pins else None
    services = Services(
        vision=vision.start(),
        stamps=stamps,
        lights=lights,
        buttons=buttons,
        counters=Counters(state / COUNTERS_FILE),
        calibration_path=state / CALIBRATION_FILE,
        pin_path=state / PIN_FILE,
        stamps_allowed=stamps_allowed,
    )
    services.closers = [c.close for c in (vision, stamps, lights, buttons) if c is not None and hasattr(c, "close")]
    return services
