"""The pipeline and its worker thread: bad frames never raise and never confirm, a card on the
table is confirmed and placed on the mat, a lost camera is reopened, no event is lost."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

import numpy as np
import pytest

from kiosk.decks import load_deck
from kiosk.render.compositing import composite_card, face_bgra
from kiosk.render.scenes import card_quad
from kiosk.table import TableView
from kiosk.vision.detect import Detection
from kiosk.vision.identify import SMALL_CARD_PX, Identification
from kiosk.vision.pipeline import VisionPipeline, VisionWorker, mat_locator
from kiosk.vision.sources.base import FrameSource, SourceError
from kiosk.vision.stillness import StillFrames
from kiosk.vision.track import TrackerConfig


class YesMan:
    """Names every face it is shown, surely: the worst case for false confirmations."""

    def __init__(self, card_id: str = "QS") -> None:
        self.card_id = card_id
        self.calls = 0

    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        self.calls += 1
        return [Identification(self.card_id, 0.99, "QH", 0.9) for _ in cards]


class Broken:
    def identify_cards(self, cards: Sequence[Detection]) -> list[Identification]:
        raise RuntimeError("interpreter exploded")


def card_frame(size: tuple[int, int] = (640, 360), width: float = 80) -> np.ndarray:
    img = np.full((size[1], size[0], 3), 60, np.uint8)
    composite_card(
        img,
        face_bgra(load_deck("standard-52")["QS"], None, 160),
        card_quad((size[0] / 2, size[1] / 2), width, 0.3),
        (3.0, 3.0, 2.0, 0.4),
    )
    return img


#: Not pictures at all: the camera is reported not ok and the tracker is left alone.
BAD = [
    None,
    np.zeros((0, 0, 3), np.uint8),
    np.zeros((1, 1, 3), np.uint8),
    np.ones((720, 1280, 3), np.float32),
    np.broadcast_to(np.uint8(0), (9000, 9000, 3)),
    "frame",
    np.zeros((720, 1280, 3), np.int64),
]
#: Pictures of nothing: valid frames in which no card may be found.
BLANK = [
    np.full((720, 1280, 3), 128, np.uint8),
    np.full((720, 1280, 3), 255, np.uint8),
    np.random.default_rng(0).integers(0, 256, (360, 640, 3), dtype=np.uint8),
]


def test_a_card_is_confirmed_after_three_frames() -> None:
    pipe = VisionPipeline(YesMan())
    views = [pipe.process(card_frame(), timestamp=i) for i in range(3)]
    assert [len(v.events) for v in views] == [0, 0, 1]
    view = views[-1]
    assert view.events[0].kind == "confirmed" and view.cards[0].card_id == "QS"
    assert view.frame_size == (640, 360) and view.camera_ok and view.detections == 1
    assert view.frame_index == 2 and view.timestamp == 2


def test_bad_frames_never_raise_and_never_confirm() -> None:
    pipe = VisionPipeline(YesMan())
    for _ in range(5):
        for frame in BAD:
            view = pipe.process(frame)
            assert not view.camera_ok and view.events == () and view.cards == ()
        for frame in BLANK:
            view = pipe.process(frame)
            assert view.camera_ok and view.events == () and view.cards == ()


def test_bad_frames_do_not_remove_a_confirmed_card() -> None:
    pipe = VisionPipeline(YesMan())
    for _ in range(3):
        pipe.process(card_frame())
    for _ in range(10):
        for frame in BAD:
            assert pipe.process(frame).events == ()
    assert [c.card_id for c in pipe.tracker.cards] == ["QS"]


def test_an_identifier_failure_is_contained() -> None:
    pipe = VisionPipeline(Broken())
    view = pipe.process(card_frame())
    assert not view.camera_ok and view.cards == ()


def test_homography_places_cards_on_the_mat() -> None:
    h = np.array([[1 / 640, 0, 0], [0, 1 / 360, 0], [0, 0, 1]], np.float64)  # frame == mat
    pipe = VisionPipeline(YesMan(), homography=h)
    for _ in range(3):
        view = pipe.process(card_frame())
    assert view.cards[0].mat_xy == pytest.approx((0.5, 0.5), abs=0.01)
    assert mat_locator(h)(np.array([[0, 0], [640, 0], [640, 360], [0, 360]], np.float32)) == (
        pytest.approx(0.5),
        pytest.approx(0.5),
    )


def test_tracker_settings_reach_the_tracker() -> None:
    pipe = VisionPipeline(YesMan(), tracker_config=TrackerConfig(confirm_frames=1, window=1))
    assert pipe.process(card_frame()).events[0].kind == "confirmed"


class ScriptedSource(FrameSource):
    """Gives ``frames`` frames per opening, then loses the camera; may refuse to open."""

    def __init__(self, frames: int, refuse: int = 0, finite: bool = False) -> None:
        self.frames, self.refuse, self.finite = frames, refuse, finite
        self.opened = self.closed = 0
        self.name = "scripted"
        self._left = 0

    def open(self) -> None:
        if self.refuse:
            self.refuse -= 1
            raise SourceError("camera busy")
        self.opened += 1
        self._left = self.frames

    def read(self) -> np.ndarray | None:
        if self._left <= 0:
            return None
        self._left -= 1
        return card_frame()

    def close(self) -> None:
        self.closed += 1


def wait_for(condition, timeout: float = 30.0) -> bool:  # type: ignore[no-untyped-def]
    """Poll until ``condition()``; a generous limit, not a speed requirement."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return False


def opener(source: ScriptedSource):  # type: ignore[no-untyped-def]
    def open_() -> FrameSource:
        source.open()
        return source

    return open_


def test_worker_reopens_a_lost_camera_and_keeps_the_card() -> None:
    source = ScriptedSource(frames=4, refuse=2)
    views: list[TableView] = []
    worker = VisionWorker(
        opener(source), VisionPipeline(YesMan()), on_view=views.append, min_backoff=0.01, max_backoff=0.02
    )
    worker.start()
    try:
        assert wait_for(lambda: source.opened >= 3)
    finally:
        worker.stop()
    assert not worker.is_alive()
    assert source.closed >= source.opened - 1
    assert any(not v.camera_ok for v in views)  # the loss was reported
    events = worker.drain_events()
    assert [(e.kind, e.card.card_id) for e in events] == [("confirmed", "QS")]
    assert worker.latest.cards[0].card_id == "QS"
    assert worker.drain_events() == []


def test_worker_survives_a_failing_callback_and_a_finite_source_ends_it() -> None:
    source = ScriptedSource(frames=5, finite=True)

    def explode(view: TableView) -> None:
        raise ValueError("ui bug")

    worker = VisionWorker(opener(source), VisionPipeline(YesMan()), on_view=explode)
    worker.start()
    worker.join(30)
    assert not worker.is_alive() and source.opened == 1
    assert worker.latest.frame_index == 4


def test_stopping_the_worker_is_not_a_lost_camera(caplog: pytest.LogCaptureFixture) -> None:
    """stop() ends the frame loop and closes the camera; that must not be logged or shown as a
    camera lost (the demo used to end on "camera ... lost; reopening")."""
    source = ScriptedSource(frames=10**9)
    views: list[TableView] = []
    worker = VisionWorker(opener(source), VisionPipeline(YesMan()), on_view=views.append)
    worker.start()
    assert wait_for(lambda: len(views) >= 3)
    with caplog.at_level(logging.WARNING, logger="kiosk.vision.pipeline"):
        worker.stop()
    assert not worker.is_alive() and source.closed == 1
    assert worker.reopens == 0 and "lost" not in caplog.text
    assert worker.latest.camera_ok


def test_worker_read_errors_count_as_a_lost_camera() -> None:
    class Flaky(ScriptedSource):
        def read(self) -> np.ndarray | None:
            raise OSError("usb reset")

    source = Flaky(frames=1)
    worker = VisionWorker(opener(source), VisionPipeline(YesMan()), min_backoff=0.01, max_backoff=0.01)
    worker.start()
    try:
        assert wait_for(lambda: source.opened >= 2)
    finally:
        worker.stop()
    assert worker.latest.camera_ok is False


def noisy(frame: np.ndarray, seed: int, sigma: float = 6.0) -> np.ndarray:
    """``frame`` as a camera gives it again: fresh sensor noise, nothing moved."""
    noise = np.random.default_rng(seed).normal(0, sigma, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def test_a_still_settled_table_is_not_analysed_again_until_the_run_ends() -> None:
    identifier = YesMan()
    pipe = VisionPipeline(identifier, still=StillFrames(max_run=10))
    frame = card_frame()
    for i in range(3):
        pipe.process(noisy(frame, i))
    assert identifier.calls == 3 and [c.card_id for c in pipe.tracker.cards] == ["QS"]
    views = [pipe.process(noisy(frame, 10 + i)) for i in range(11)]
    assert identifier.calls == 4  # ten frames skipped, then one analysed to bound staleness
    assert all(v.cards == views[0].cards for v in views[:10])  # the very same snapshot while skipped
    assert all([c.card_id for c in v.cards] == ["QS"] and v.events == () and v.detections == 1 for v in views)


def test_a_card_arriving_on_a_still_table_is_confirmed_as_fast_as_ever() -> None:
    pipe = VisionPipeline(YesMan())
    empty = np.full((360, 640, 3), 60, np.uint8)
    for i in range(6):
        pipe.process(noisy(empty, i))
    views = [pipe.process(noisy(card_frame(), 20 + i)) for i in range(3)]
    assert [len(v.events) for v in views] == [0, 0, 1]


def test_a_card_taken_away_is_removed_on_time() -> None:
    """Its track goes unseen, so the table is not settled and every frame is analysed."""
    config = TrackerConfig(remove_after=5)
    pipe = VisionPipeline(YesMan(), tracker_config=config)
    for i in range(5):
        pipe.process(noisy(card_frame(), i))
    empty = np.full((360, 640, 3), 60, np.uint8)
    views = [pipe.process(noisy(empty, 10 + i)) for i in range(5)]
    assert [[e.kind for e in v.events] for v in views] == [[], [], [], [], ["removed"]]


def test_still_frames_see_a_card_but_not_sensor_noise_and_add_up_a_drift() -> None:
    still = StillFrames()
    table = np.full((720, 1280, 3), 90, np.uint8)
    assert not still.unchanged(table)  # nothing analysed yet
    still.analysed()
    assert all(still.unchanged(noisy(table, i, sigma=8.0)) for i in range(5))
    with_card = table.copy()
    with_card[300:420, 600:680] = 230  # a small card slid in
    assert not still.unchanged(with_card)
    drift = table
    for step in range(1, 20):  # the light of a window, two levels a frame
        drift = np.full_like(table, 90 + 2 * step)
        if not still.unchanged(drift):
            break
    assert 2 <= step <= 4  # compared with the last analysed frame, not the previous one
    never = StillFrames.never()  # for benchmarks: every frame a fresh look
    never.unchanged(table)
    never.analysed()
    assert not never.unchanged(table)


@pytest.mark.parametrize(("width", "warned"), [(80, True), (SMALL_CARD_PX + 30, False)])
def test_the_view_says_how_wide_the_cards_are_and_warns_once_when_too_small(
    width: float, warned: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """A camera mounted too high or a coarse webcam shows cards under SMALL_CARD_PX wide, where
    the smallest suit signs are misread (hardware/CAMERA.md): the views carry the confirmed
    cards' width for the operator screen, and the log says it once, not on every frame."""
    pipe = VisionPipeline(YesMan(), still=StillFrames.never())
    frame = card_frame((1280, 720), width)
    with caplog.at_level(logging.WARNING, logger="kiosk.vision.pipeline"):
        views = [pipe.process(frame, timestamp=i) for i in range(6)]
    assert views[0].card_width is None  # nothing confirmed yet
    assert views[-1].cards and views[-1].card_width == pytest.approx(width, abs=3)
    assert len([r for r in caplog.records if "px wide" in r.getMessage()]) == int(warned)


def test_the_view_says_which_confirmed_cards_are_out_of_sight() -> None:
    """A card taken away stays confirmed a while (a hand may be over it); the view says it is not
    in this frame, so the live view draws no box where it was."""
    pipe = VisionPipeline(YesMan())
    for _ in range(3):
        view = pipe.process(card_frame())
    assert view.out_of_sight == frozenset()
    view = pipe.process(BLANK[0])
    assert [c.card_id for c in view.cards] == ["QS"] and view.out_of_sight == {view.cards[0].track_id}
