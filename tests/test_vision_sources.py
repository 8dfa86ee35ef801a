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


def _fake_picamera2(monkeypatch: pytest.MonkeyPatch, fail_start: bool = False) -> list[object]:
    """A stand-in module exposing only the calls Picamera2Source makes."""
    log: list[object] = []

    class Picamera2:
        def __init__(self, index: int = 0) -> None:
            log.append(("init", index))

        def create_video_configuration(self, main: dict, buffer_count: int) -> dict:
            return {"main": main, "buffer_count": buffer_count}

        def configure(self, config: dict) -> None:
            log.append(("configure", config["main"]["size"], config["main"]["format"]))

        def start(self) -> None:
            if fail_start:
                raise RuntimeError("no cameras available")
            log.append("start")

        def capture_array(self, stream: str) -> np.ndarray:
            log.append(("capture", stream))
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
    with Picamera2Source((1280, 720)) as src:
        frame = src.read()
    assert frame.shape == (720, 1280, 3) and frame.flags["C_CONTIGUOUS"]
    assert ("configure", (1280, 720), "RGB888") in log
    assert ("capture", "main") in log
    assert log[-2:] == ["stop", "close"]


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
