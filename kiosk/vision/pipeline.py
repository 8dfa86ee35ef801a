"""Frame -> detect -> identify -> track -> :class:`~kiosk.table.TableView`, and the worker thread
that runs it on a camera. A frame that shows nothing new on a settled table is not analysed
again (:mod:`kiosk.vision.stillness`). A frame analysed is looked at a glance first (the outline
model alone: :func:`kiosk.vision.naming.look`), and with every cue where that falls short or
misses a card the tracker holds, every THOROUGH_EVERY frames, and once a table settles.

The pipeline never raises on a frame: a garbage frame (None, empty, 1x1, grey, wrong dtype,
huge) or an internal error yields a view with ``camera_ok=False`` and leaves the tracker
untouched, so it can neither confirm nor remove a card. The worker publishes the latest
immutable view (the UI reads it without locks), queues every card event so that none is lost
between two UI frames, and reopens a lost camera with exponential backoff.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

import cv2
import numpy as np

from kiosk.table import CardEvent, Point, TableView
from kiosk.vision.detect import Detection, Detector, DetectorConfig, as_bgr
from kiosk.vision.face import cards_sides
from kiosk.vision.naming import look
from kiosk.vision.params import PARAMS
from kiosk.vision.reading import CardReader, Identification
from kiosk.vision.sources.base import FrameSource, checked_frame
from kiosk.vision.stillness import StillFrames
from kiosk.vision.track import Sighting, Tracker, TrackerConfig

log = logging.getLogger(__name__)

#: Every this many analysed frames are looked at with every cue, not at a glance
#: (:func:`kiosk.vision.naming.look`): a card that only the hand-set cues outline, and that the
#: tracker does not hold yet, is found within that many. The others are looked at a glance
#: first, and with every cue where the glance falls short or misses a card the tracker holds;
#: the glance that fell short is not tried again on the next THOROUGH_EVERY - 1 frames (hands
#: over the table, cards moving: on the virtual table's film a glance tried on every frame was
#: enough for one frame in six, and the frames it fell short on cost both looks).
THOROUGH_EVERY = 3


def mat_locator(homography: np.ndarray) -> Callable[[np.ndarray], Point | None]:
    """Corners in camera pixels -> the card centre in mat coordinates via ``homography``."""
    h = np.asarray(homography, dtype=np.float64)

    def locate(corners: np.ndarray) -> Point | None:
        pts = cv2.perspectiveTransform(np.asarray(corners, np.float64).reshape(-1, 1, 2), h)
        x, y = pts.reshape(-1, 2).mean(axis=0)
        return (float(x), float(y)) if np.isfinite(x) and np.isfinite(y) else None

    return locate


class VisionPipeline:
    """One frame in, one TableView out. Not thread-safe: one pipeline per worker."""

    def __init__(
        self,
        identifier: CardReader,
        detector: Detector | None = None,
        tracker_config: TrackerConfig | None = None,
        homography: np.ndarray | None = None,
        still: StillFrames | None = None,
    ) -> None:
        self.identifier = identifier
        self.detector = detector or Detector()
        locate = mat_locator(homography) if homography is not None else None
        self.tracker = Tracker(tracker_config, locate)
        self.still = still or StillFrames()
        self.frame_index = -1
        self._detections = 0
        self._analysed = 0  # frames analysed; every THOROUGH_EVERY-th with every cue
        self._thoroughly = False  # whether the last frame analysed was, with every cue
        self._fell_short = -THOROUGH_EVERY  # the last frame analysed whose glance fell short
        self._too_small = False  # whether the confirmed cards were last under small_card_px wide

    @classmethod
    def for_deck(
        cls,
        deck_id: str,
        homography: np.ndarray | None = None,
        tracker_config: TrackerConfig | None = None,
        detector: Detector | None = None,
        model_threads: int = 1,
    ) -> VisionPipeline:
        """The production pipeline: the shipped identifier of ``deck_id`` and, unless one is
        given, a detector; their models run on ``model_threads``."""
        from kiosk.vision.identify import Identifier

        detector = detector or Detector(DetectorConfig(model_threads=model_threads))
        return cls(Identifier(deck_id, num_threads=model_threads), detector, tracker_config, homography)

    def process(self, frame: object, timestamp: float | None = None) -> TableView:
        """Analyse one frame; never raises."""
        self.frame_index += 1
        ts = time.time() if timestamp is None else timestamp
        bgr = as_bgr(frame)
        if bgr is None:
            return self.idle_view(ts)
        events: list[CardEvent] = []
        try:
            still = self.still.unchanged(bgr) and self.tracker.settled
            if still and self._thoroughly:
                self.still.skipped()  # nothing new on a settled table: the same cards, no events
            else:
                # a table that settled at a glance is looked at with every cue once before its
                # frames are skipped: a card only those outline would never be found otherwise
                periodic = self._analysed % THOROUGH_EVERY == THOROUGH_EVERY - 1
                thorough = still or periodic or self._analysed - self._fell_short < THOROUGH_EVERY
                sightings, self._thoroughly = self.sightings(bgr, thorough)
                if self._thoroughly and not thorough:
                    self._fell_short = self._analysed  # the glance fell short: skip it a while
                events = self.tracker.update(sightings)
                self.still.analysed()
                self._detections = len(sightings)
                self._analysed += 1
        except Exception:  # noqa: BLE001 - a bug on one frame must not stop the kiosk
            log.exception("vision failed on frame %d", self.frame_index)
            return self.idle_view(ts)
        return TableView(
            self.frame_index,
            ts,
            self.tracker.cards,
            tuple(events),
            (bgr.shape[1], bgr.shape[0]),
            True,
            self._detections,
            self._card_width(),
            self.tracker.out_of_sight,
        )

    def _card_width(self) -> float | None:
        """The confirmed cards' median width in pixels; warns once each time it falls under
        ``small_card_px`` (a camera mounted too high, or a webcam at a low resolution)."""
        cards = self.tracker.cards
        if not cards:
            return None
        width = float(np.median(cards_sides(np.stack([c.corners for c in cards]))[:, 0]))
        small = width < PARAMS.pips.small_card_px
        if small and not self._too_small:
            log.warning(
                "the cards are %.0f px wide in the camera picture, under %.0f: there black number "
                "cards and aces are named only where their pips show their suit, and black court "
                "cards may be misread; mount the camera lower or raise [camera] width and height "
                "(hardware/CAMERA.md)",
                width,
                PARAMS.pips.small_card_px,
            )
        self._too_small = small
        return width

    def sightings(self, bgr: np.ndarray, thorough: bool = True) -> tuple[list[Sighting], bool]:
        """Detect and name (a refused card gets a second look), without touching the tracker;
        unless ``thorough``, at a glance where that names every card the tracker holds
        (:func:`kiosk.vision.naming.look`). Also whether every cue was used."""
        seen = look(
            self.identifier, self.detector, bgr, thorough, lambda named: not self.tracker.misses(_sightings(named))
        )
        return _sightings(seen.named), seen.closely

    def idle_view(self, timestamp: float | None = None, camera_ok: bool = False) -> TableView:
        """The current cards without a new frame (camera lost, garbage frame)."""
        ts = time.time() if timestamp is None else timestamp
        return TableView(
            max(self.frame_index, 0),
            ts,
            self.tracker.cards,
            (),
            (0, 0),
            camera_ok,
            0,
            self._card_width(),
            self.tracker.out_of_sight,
        )


class VisionWorker(threading.Thread):
    """Reads ``open_source()``'s frames through ``pipeline`` until :meth:`stop`.

    ``open_source`` returns an opened FrameSource (e.g. ``lambda: open_source("auto")``); when
    it fails or the camera stops giving frames, the worker publishes ``camera_ok=False`` views
    and tries again after 0.5 s, 1 s, 2 s ... up to ``max_backoff``. A finite source (a file)
    ends the worker when it runs out. Every frame read crosses
    :func:`~kiosk.vision.sources.base.checked_frame` here, once: a bad one (wrong dtype or shape)
    is counted in ``bad_frames`` and gives a ``camera_ok=False`` view, a good one goes to
    ``on_frame`` (the live view) and the pipeline.
    """

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        pipeline: VisionPipeline,
        on_view: Callable[[TableView], None] | None = None,
        min_backoff: float = 0.5,
        max_backoff: float = 10.0,
        on_frame: Callable[[np.ndarray], None] | None = None,
    ) -> None:
        super().__init__(name="vision", daemon=True)
        self._open = open_source
        self.pipeline = pipeline
        self.on_view = on_view
        self.on_frame = on_frame
        self.bad_frames = 0
        self.min_backoff, self.max_backoff = min_backoff, max_backoff
        self.events: queue.SimpleQueue[CardEvent] = queue.SimpleQueue()
        # no frame yet and no failure either: the camera is still starting ("preparing", not lost)
        self._latest = TableView(frame_index=-1, timestamp=time.time())
        self._halt = threading.Event()
        self.reopens = 0

    @property
    def latest(self) -> TableView:
        """The newest snapshot (immutable; replaced, never modified)."""
        return self._latest

    def drain_events(self) -> list[CardEvent]:
        """Every card event since the last call, in order."""
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def stop(self, timeout: float | None = 5.0) -> None:
        self._halt.set()
        if self.is_alive() and threading.current_thread() is not self:
            self.join(timeout)

    def run(self) -> None:
        delay = self.min_backoff
        while not self._halt.is_set():
            try:
                source = self._open()
            except Exception as exc:  # noqa: BLE001 - SourceError or a driver's own error
                log.warning("camera unavailable (%s); retrying in %.1f s", exc, delay)
                self._publish(self.pipeline.idle_view(camera_ok=False))
                self._halt.wait(delay)
                delay = min(delay * 2, self.max_backoff)
                continue
            delivered = self._play(source)
            if source.finite or self._halt.is_set():  # the end of a file, or stop(): not a loss
                break
            if delivered:
                delay = self.min_backoff
            self.reopens += 1
            log.warning("camera %s lost; reopening in %.1f s", source.name, delay)
            self._publish(self.pipeline.idle_view(camera_ok=False))
            self._halt.wait(delay)
            delay = min(delay * 2, self.max_backoff)

    def _play(self, source: FrameSource) -> bool:
        """Process frames until the source stops giving them; whether any came."""
        delivered = False
        try:
            while not self._halt.is_set():
                try:
                    frame = source.read()
                except Exception as exc:  # noqa: BLE001 - a driver error is a lost camera
                    log.warning("camera %s read failed: %s", source.name, exc)
                    frame = None
                if frame is None:
                    return delivered
                delivered = True
                good = checked_frame(frame)
                if good is None:
                    self.bad_frames += 1
                elif self.on_frame is not None:
                    self.on_frame(good)
                self._publish(self.pipeline.process(good))

        finally:
            try:
                source.close()
            except Exception as exc:  # noqa: BLE001
                log.debug("closing %s failed: %s", source.name, exc)
        return delivered

    def _publish(self, view: TableView) -> None:
        self._latest = view
        for event in view.events:
            self.events.put(event)
        if self.on_view is not None:
            try:
                self.on_view(view)
            except Exception:  # noqa: BLE001 - a UI callback bug must not kill vision
                log.exception("on_view callback failed")


def _sightings(named: list[tuple[Detection, Identification]]) -> list[Sighting]:
    return [Sighting(d.corners, i.card_id, float(i.confidence), i.runner_up, float(i.margin)) for d, i in named]
