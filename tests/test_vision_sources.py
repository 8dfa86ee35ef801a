"""Frame sources: files, folders, OpenCV devices, the Pi camera (through a fake of its capture
calls where picamera2 is absent), the virtual table, and the factory's fallbacks."""

from __future__ import annotations

import logging
import sys
import time
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.vision import sources
from kiosk.vision.sources import (
    FileSource,
    OpenCVSource,
    Picamera2Source,
    SourceError,
    VirtualSource,
    make_source,
    open_source,
)
from kiosk.vision.sources.picamera2 import picamera2_available


def _frames(n: int, size: tuple[int, int] = (64, 48)) -> list[np.ndarray]:
    return [np.full((size[1], size[0], 3), 40 * i, np.uint8) for i in range(n)]


def test_folder_plays_images_in_name_order_and_skips_unreadable(tmp_path: Path) -> None:
    for i, frame in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"{i:02d}.png"), frame)
    (tmp_path / "01b.png").write_bytes(b"not a png")
    (tmp_path / "notes.txt").write_text("ignored")
    with FileSource(tmp_path) as src:
        got = [src.read() for _ in range(4)]
    assert [int(f[0, 0, 0]) for f in got[:3]] == [0, 40, 80]
    assert got[3] is None
    assert src.finite


def test_video_file_frames_then_none(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG")
    for frame in _frames(5):
        writer.write(frame)
    writer.release()
    with FileSource(path) as src:
        frames = [src.read() for _ in range(6)]
    assert all(f is not None and f.shape == (48, 64, 3) for f in frames[:5])
    assert frames[5] is None


def test_missing_path_and_empty_folder_raise_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such"):
        FileSource(tmp_path / "nope.mp4").open()
    with pytest.raises(SourceError, match="no images"):
        FileSource(tmp_path).open()


class _FakeCapture:
    """Records what OpenCVSource asks of VideoCapture."""

    instances: list[_FakeCapture] = []

    def __init__(self, device: object) -> None:
        self.device = device
        self.props: dict[int, float] = {}
        self.released = False
        _FakeCapture.instances.append(self)

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.device != 99

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        return True, np.zeros((720, 1280, 3), np.uint8)

    def release(self) -> None:
        self.released = True


def test_opencv_source_keeps_one_frame_buffered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", _FakeCapture)
    with OpenCVSource(0) as src:
        assert src.read().shape == (720, 1280, 3)
    cap = _FakeCapture.instances[-1]
    assert cap.props[cv2.CAP_PROP_BUFFERSIZE] == 1
    assert cap.props[cv2.CAP_PROP_FRAME_WIDTH] == 1280
    assert cap.released and src.read() is None


def test_opencv_source_that_does_not_open_says_which(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", _FakeCapture)
    with pytest.raises(SourceError, match="99"):
        OpenCVSource(99).open()
    assert _FakeCapture.instances[-1].released


#: Camera Module 3's sensor modes as picamera2 lists them (imx708): two full-field, one cropped.
IMX708_MODES = [
    {"size": (1536, 864), "crop_limits": (768, 432, 3072, 1728), "fps": 120.13, "bit_depth": 10},
    {"size": (2304, 1296), "crop_limits": (0, 0, 4608, 2592), "fps": 56.03, "bit_depth": 10},
    {"size": (4608, 2592), "crop_limits": (0, 0, 4608, 2592), "fps": 14.35, "bit_depth": 10},
]
#: Camera Module 2's (imx219): 1640x1232 is its full-field binned mode.
IMX219_MODES = [
    {"size": (640, 480), "crop_limits": (1000, 752, 1280, 960), "fps": 103.33, "bit_depth": 10},
    {"size": (1640, 1232), "crop_limits": (0, 0, 3280, 2464), "fps": 41.85, "bit_depth": 10},
    {"size": (1920, 1080), "crop_limits": (680, 692, 1920, 1080), "fps": 47.57, "bit_depth": 10},
    {"size": (3280, 2464), "crop_limits": (0, 0, 3280, 2464), "fps": 21.19, "bit_depth": 10},
]
#: The controls an imx708 has that the source may set (a Camera Module 2 has no Af*/LensPosition).
IMX708_CONTROLS = {
    "FrameDurationLimits": (16971, 1103354, None),
    "AeFlickerMode": (0, 1, 0),
    "AeFlickerPeriod": (100, 1000000, None),
    "AfMode": (0, 2, 0),
    "LensPosition": (0.0, 15.0, 1.0),
}


def _fake_picamera2(
    monkeypatch: pytest.MonkeyPatch,
    fail_start: bool = False,
    stall: bool = False,
    modes: list[dict] | None = None,
    controls: dict | None = None,
) -> list[object]:
    """A stand-in module exposing only the calls Picamera2Source makes (the hardware edge)."""
    log: list[object] = []

    class Picamera2:
        sensor_modes = IMX708_MODES if modes is None else modes
        camera_controls = IMX708_CONTROLS if controls is None else controls

        def __init__(self, index: int = 0) -> None:
            log.append(("init", index))

        def create_video_configuration(
            self, main: dict, buffer_count: int, controls: dict, sensor: dict | None = None
        ) -> dict:
            return {"main": main, "buffer_count": buffer_count, "controls": controls, "sensor": sensor}

        def configure(self, config: dict) -> None:
            log.append(("configure", config["main"]["size"], config["main"]["format"]))
            log.append(("sensor", config["sensor"]))
            log.append(("controls", config["controls"]))

        def start(self) -> None:
            if fail_start:
                raise RuntimeError("no cameras available")
            log.append("start")

        def capture_array(self, stream: str, wait: bool | None = None) -> str:
            log.append(("capture", stream, wait))
            return "job"

        def wait(self, job: str, timeout: float | None = None) -> np.ndarray:
            log.append(("wait", timeout))
            if stall:
                raise TimeoutError
            return np.full((720, 1280, 4), 7, np.uint8)  # XBGR8888-like: 4 channels

        def stop(self) -> None:
            log.append("stop")

        def close(self) -> None:
            log.append("close")

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Picamera2))
    return log


@pytest.mark.skipif(picamera2_available(), reason="the real picamera2 is installed")
def test_picamera2_capture_through_a_fake_of_its_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    log = _fake_picamera2(monkeypatch)
    with Picamera2Source((1280, 720), fps=15, mains_hz=50) as src:
        frame = src.read()
    assert frame.shape == (720, 1280, 3) and frame.flags["C_CONTIGUOUS"]
    assert ("configure", (1280, 720), "RGB888") in log
    assert ("capture", "main", False) in log and ("wait", 2.0) in log  # never an unbounded wait
    assert log[-2:] == ["stop", "close"]


@pytest.mark.skipif(picamera2_available(), reason="the real picamera2 is installed")
def test_the_pi_camera_sees_its_whole_field_scaled_not_the_cropped_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked for 1280x720 alone, picamera2 picks the Camera Module 3's cropped 1536x864 mode
    (two thirds of the field): the A3 mat no longer fits at the heights of CAMERA.md."""
    log = _fake_picamera2(monkeypatch)
    with Picamera2Source((1280, 720), fps=15):
        pass
    assert ("sensor", {"output_size": (2304, 1296), "bit_depth": 10}) in log


@pytest.mark.parametrize(
    ("modes", "size", "fps", "picked"),
    [
        (IMX708_MODES, (1280, 720), 15, (2304, 1296)),
        (IMX708_MODES, (1920, 1080), 30, (2304, 1296)),
        (IMX708_MODES, (2560, 1440), 10, (4608, 2592)),
        (IMX708_MODES, (2560, 1440), 30, (4608, 2592)),  # none is both large and fast: large wins
        (IMX219_MODES, (1280, 720), 15, (1640, 1232)),
        (IMX219_MODES, (1920, 1080), 15, (3280, 2464)),
    ],
)
def test_full_field_mode_is_the_smallest_whole_field_mode_large_and_fast_enough(
    modes: list[dict], size: tuple[int, int], fps: float, picked: tuple[int, int]
) -> None:
    from kiosk.vision.sources.picamera2 import full_field_mode

    mode = full_field_mode(modes, size, fps)
    assert mode is not None and mode["size"] == picked
    assert full_field_mode([], size, fps) is None


@pytest.mark.parametrize(
    ("focus_m", "mains_hz", "controls", "expected"),
    [
        (
            0.0,
            50,
            IMX708_CONTROLS,
            {"FrameDurationLimits": (66667, 66667), "AeFlickerMode": 1, "AeFlickerPeriod": 10000, "AfMode": 2},
        ),
        (
            0.5,
            60,
            IMX708_CONTROLS,
            {
                "FrameDurationLimits": (66667, 66667),
                "AeFlickerMode": 1,
                "AeFlickerPeriod": 8333,
                "AfMode": 0,
                "LensPosition": 2.0,
            },
        ),
        (0.5, 0, {"FrameDurationLimits": (1, 2, None)}, {"FrameDurationLimits": (66667, 66667)}),
    ],
)
def test_controls_fix_the_rate_avoid_mains_flicker_and_focus_on_the_table(
    focus_m: float, mains_hz: int, controls: dict, expected: dict
) -> None:
    """Camera Module 3's lens rests at 1 m unless told; the table is 0.45-0.6 m away. LensPosition
    is in dioptres (1/m); a camera without the control (Module 2) is not sent it."""
    from kiosk.vision.sources.picamera2 import camera_controls

    assert camera_controls(controls, 15, focus_m, mains_hz) == expected


@pytest.mark.skipif(picamera2_available(), reason="the real picamera2 is installed")
def test_a_stalled_pi_camera_gives_no_frame_instead_of_hanging(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _fake_picamera2(monkeypatch, stall=True)
    with caplog.at_level(logging.WARNING), Picamera2Source((1280, 720), timeout_s=0.5) as src:
        assert src.read() is None  # the vision worker counts it as a lost camera and reopens it
    assert "no frame in 0.5 s" in caplog.text


@pytest.mark.skipif(picamera2_available(), reason="the real picamera2 is installed")
def test_picamera2_that_cannot_start_is_a_source_error(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_picamera2(monkeypatch, fail_start=True)
    with pytest.raises(SourceError, match="no cameras available"):
        Picamera2Source().open()


@pytest.mark.skipif(picamera2_available(), reason="the real picamera2 is installed")
def test_missing_picamera2_logs_one_line_and_falls_back(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as if not installed
    monkeypatch.setattr(cv2, "VideoCapture", _FakeCapture)
    with caplog.at_level(logging.WARNING, logger="kiosk.vision.sources"):
        src = open_source("picamera2")
    assert isinstance(src, OpenCVSource) and src.device == 0
    src.close()
    text = caplog.text
    assert "picamera2 is not installed" in text and "Traceback" not in text
    assert "using camera opencv:0 instead" in text


@pytest.mark.skipif(picamera2_available(), reason="the real picamera2 is installed")
def test_no_camera_at_all_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)

    def refuse(self: OpenCVSource) -> None:
        raise SourceError("camera 0 cannot be opened")

    monkeypatch.setattr(sources.OpenCVSource, "open", refuse)
    with pytest.raises(SourceError) as err:
        open_source("picamera2")
    message = str(err.value)
    assert "\n" not in message
    assert "picamera2:" in message and "0: camera 0" in message


def test_specs_name_their_sources(tmp_path: Path) -> None:
    assert isinstance(make_source("picamera2"), Picamera2Source)
    cam = make_source("1")
    assert isinstance(cam, OpenCVSource) and cam.device == 1
    dev = make_source("/dev/video0")
    assert isinstance(dev, OpenCVSource) and dev.device == "/dev/video0"
    assert isinstance(make_source(str(tmp_path)), FileSource)
    assert isinstance(make_source("virtual", deck_id="piquet-32"), VirtualSource)
    with pytest.raises(SourceError, match="unknown camera"):
        make_source("webcam-please")


def test_virtual_table_frames_come_with_their_truth() -> None:
    script = [{"at": 10, "card": "QS", "mat_xy": (0.5, 0.5), "leave": 40}]
    with VirtualSource("standard-52", seed=3, size=(320, 180), script=script) as src:
        first = src.read()
        assert first.shape == (180, 320, 3) and src.truth == []
        for _ in range(15):
            src.read()
        assert [c.card_id for c in src.truth] == ["QS"]
        assert src.homography.shape == (3, 3)


def test_the_kiosks_virtual_camera_films_at_the_cameras_rate() -> None:
    """The tracker counts frames at the camera's rate (remove_after = 1 s of frames): a virtual
    table read as fast as the pipeline goes would turn a hand resting on a card for half a
    second into a removal, and a second stamp, as soon as the pipeline runs faster than the
    camera (seen in the demo with a faster pipeline: 3C confirmed twice)."""
    from kiosk.config import VisionSettings
    from kiosk.runtime import VisionLink

    link = VisionLink("virtual", (320, 180), "standard-52", VisionSettings(), 20.0)
    source = link._open()
    try:
        t0 = time.monotonic()
        for _ in range(6):
            assert source.read() is not None
        assert time.monotonic() - t0 >= 5 / 20.0 - 0.01  # five frame intervals at 20 fps
    finally:
        source.close()


def test_auto_tries_only_real_cameras(tmp_path: Path) -> None:
    """A kiosk whose camera cable is loose must not film the rendered table (issue 52: six
    stamps in 45 s for cards nobody showed): ``auto`` is the Pi camera, then a webcam, never the
    virtual table nor a file."""
    chain = sources.FALLBACKS["auto"]
    assert chain == ("picamera2", "0")
    assert all(isinstance(make_source(c), (Picamera2Source, OpenCVSource)) for c in chain)
    assert sources.is_camera_spec("auto") and sources.is_camera_spec("picamera2")
    assert sources.is_camera_spec("/dev/video2") and sources.is_camera_spec("1")
    assert not sources.is_camera_spec("virtual") and not sources.is_camera_spec("chaos")
    assert not sources.is_camera_spec(str(tmp_path))


@pytest.mark.skipif(picamera2_available(), reason="the real picamera2 is installed")
def test_auto_with_no_camera_raises_instead_of_opening_the_virtual_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setattr(cv2, "VideoCapture", lambda device: _FakeCapture(99))  # no webcam either
    opened: list[str] = []
    real_make = sources.make_source
    monkeypatch.setattr(sources, "make_source", lambda spec, *a, **kw: opened.append(spec) or real_make(spec, *a, **kw))
    with pytest.raises(SourceError, match="no camera could be opened"):
        open_source("auto")
    assert opened == ["picamera2", "0"]


@pytest.mark.parametrize("spec", ["nonsense", "webcam-please", "/tmp/no-such-film.mp4", "films/missing.avi"])
def test_a_spec_that_can_never_work_is_refused_before_anything_starts(spec: str) -> None:
    with pytest.raises(SourceError, match="unknown camera|no such video file"):
        sources.check_spec(spec)


def test_a_camera_that_is_only_unplugged_now_is_not_refused_at_start() -> None:
    for spec in ("auto", "picamera2", "0", "/dev/video7", "rtsp://camera.local/stream", "virtual"):
        sources.check_spec(spec)  # the worker retries these until the device is there


def test_a_webcam_is_asked_for_mjpg_before_its_size_and_for_the_frame_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """USB 2 webcams give 1280x720 uncompressed at 10 fps or less: MJPG is asked for first (V4L2
    picks the mode when the size is set), then the configured rate."""
    order: list[int] = []

    class Recording(_FakeCapture):
        def set(self, prop: int, value: float) -> bool:
            order.append(prop)
            return super().set(prop, value)

    monkeypatch.setattr(cv2, "VideoCapture", Recording)
    with OpenCVSource(0, (1280, 720), fps=15):
        pass
    cap = _FakeCapture.instances[-1]
    assert cap.props[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter.fourcc(*"MJPG")
    assert cap.props[cv2.CAP_PROP_FPS] == 15.0
    assert order.index(cv2.CAP_PROP_FOURCC) < order.index(cv2.CAP_PROP_FRAME_WIDTH)


@pytest.mark.skipif(picamera2_available(), reason="the real picamera2 is installed")
def test_an_older_picamera2_still_films(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi OS image from before picamera2 0.3.17 (no timeout on wait) and 0.3.13 (no ``sensor``
    option): the camera still opens in its full-field mode (by the raw stream's size) and films."""
    log: list[object] = []

    class Picamera2:
        sensor_modes, camera_controls = IMX708_MODES, IMX708_CONTROLS

        def __init__(self, index: int = 0) -> None:
            pass

        def create_video_configuration(
            self, main: dict, buffer_count: int, controls: dict, raw: dict | None = None
        ) -> dict:
            log.append(("raw", raw))
            return {"main": main}

        def configure(self, config: dict) -> None:
            pass

        def start(self) -> None:
            pass

        def capture_array(self, stream: str) -> np.ndarray:
            return np.zeros((720, 1280, 3), np.uint8)

        def wait(self, job: object) -> object:
            raise AssertionError("not used without a timeout")

        def stop(self) -> None:
            pass

        def close(self) -> None:
            pass

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Picamera2))
    with Picamera2Source((1280, 720), fps=15) as src:
        assert src.read().shape == (720, 1280, 3)
    assert log == [("raw", {"size": (2304, 1296)})]
