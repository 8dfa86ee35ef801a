"""Hostile inputs: camera frames of the wrong dtype or shape, a camera whose read hangs, stills
whose header promises gigabytes, and enrolment galleries that are truncated, misshapen or
inflate to a gigabyte. Each is refused in one place, in one line, with bounded memory."""

from __future__ import annotations

import io
import logging
import threading
import time
import tracemalloc
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from kiosk.cli import main
from kiosk.vision.pipeline import VisionPipeline, VisionWorker
from kiosk.vision.sources.base import MAX_PIXELS, FrameSource, checked_frame
from kiosk.vision.sources.chaos import ChaosSource
from kiosk.vision.stills import ImageError, read_image
from tests.hostile import huge_png, inflating_gallery
from tests.test_vision_pipeline import ScriptedSource, YesMan, card_frame, opener, wait_for
from tests.test_vision_recognize import fake_identifier, write_card_image  # noqa: F401 - a fixture

BAD_FRAMES = {
    "float64": np.zeros((360, 640, 3), np.float64),
    "int16": np.zeros((360, 640, 3), np.int16),
    "two channels": np.zeros((360, 640, 2), np.uint8),
    "4-D": np.zeros((1, 360, 640, 3), np.uint8),
    "not an array": [[0, 0, 0]] * 10,
    "None": None,
    "empty": np.zeros((0, 0, 3), np.uint8),
    "tiny": np.zeros((4, 4, 3), np.uint8),
    "huge": np.broadcast_to(np.uint8(0), (9000, 9000, 3)),
}


@pytest.mark.parametrize("kind", BAD_FRAMES)
def test_a_bad_frame_is_stopped_at_the_source_boundary(kind: str) -> None:
    assert checked_frame(BAD_FRAMES[kind]) is None


def test_grey_and_bgra_frames_become_bgr() -> None:
    grey = np.full((360, 640), 7, np.uint8)
    bgra = np.full((360, 640, 4), 9, np.uint8)
    for frame, value in ((grey, 7), (bgra, 9)):
        out = checked_frame(frame)
        assert out is not None and out.shape == (360, 640, 3) and out.dtype == np.uint8 and (out == value).all()


@settings(max_examples=200, deadline=None)
@given(
    hnp.arrays(
        dtype=st.sampled_from([np.uint8, np.int16, np.float32, np.float64, np.bool_]),
        shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=40),
    )
)
def test_whatever_comes_in_what_goes_out_is_a_bgr_uint8_picture(frame: np.ndarray) -> None:
    out = checked_frame(frame)
    assert out is None or (
        out.dtype == np.uint8
        and out.ndim == 3
        and out.shape[2] == 3
        and out.flags.c_contiguous
        and out.shape[0] * out.shape[1] <= MAX_PIXELS
    )


class Garbling(ScriptedSource):
    """A camera that gives each bad frame kind once, then good frames (at the hardware edge)."""

    def __init__(self) -> None:
        super().__init__(frames=10**9)
        self.bad = [f for kind, f in BAD_FRAMES.items() if kind != "None"]  # None: no frame, a lost camera

    def read(self) -> object:  # type: ignore[override]
        return self.bad.pop() if self.bad else card_frame()


def test_the_worker_hands_on_only_checked_frames_and_keeps_the_camera() -> None:
    """Bad frames are counted and shown as ``camera_ok=False``; only good ones reach the live
    view (where the calibration looks at them); the camera is not taken as lost for them."""
    source, kept = Garbling(), []
    worker = VisionWorker(opener(source), VisionPipeline(YesMan()), on_frame=kept.append)
    worker.start()
    try:
        assert wait_for(lambda: len(kept) >= 3)
    finally:
        worker.stop()
    assert worker.bad_frames == len(BAD_FRAMES) - 1 and worker.reopens == 0
    assert all(f.dtype == np.uint8 and f.shape == (360, 640, 3) for f in kept)


def test_the_chaos_cameras_float_frames_pass_through_the_same_check() -> None:
    chaos = ChaosSource(ScriptedSource(frames=10**9), seed=3, p_drop=0.0, p_garbage=1.0, vanish_every=1e9)
    kept: list[np.ndarray] = []
    worker = VisionWorker(opener(chaos), VisionPipeline(YesMan()), on_frame=kept.append)  # type: ignore[arg-type]
    worker.start()
    try:
        assert wait_for(lambda: chaos.log.garbage_kinds["float"] >= 2 and chaos.log.garbage_kinds["rgba"] >= 1)
    finally:
        worker.stop()
    assert worker.bad_frames >= 2 and all(f.dtype == np.uint8 and f.shape[2] == 3 for f in kept)


class Hanging(FrameSource):
    """A camera that gives a few frames, then blocks in read() until released (a driver stuck
    on a dead USB device)."""

    name = "hanging"

    def __init__(self, frames: int = 3) -> None:
        self.left = frames
        self.release = threading.Event()

    def open(self) -> None:
        pass

    def read(self) -> np.ndarray | None:
        if self.left <= 0:
            self.release.wait()
            return None
        self.left -= 1
        return card_frame()

    def close(self) -> None:
        self.release.set()


def test_doctor_reports_a_hanging_camera_instead_of_hanging() -> None:
    from kiosk.doctor import first_frame

    camera = Hanging(frames=0)
    assert first_frame(camera, 0.3) is None
    camera.close()
    assert first_frame(Hanging(frames=1), 5.0) is not None


def test_a_camera_whose_read_hangs_is_shown_lost_on_screen_and_lights(tmp_path: Path) -> None:
    from kiosk.config import VisionSettings, load_config
    from kiosk.devices.lights import Lights, LightsSettings, LightState
    from kiosk.runtime import VisionLink
    from kiosk.ui.app import CAMERA_STALE_S, App, Services

    camera = Hanging(frames=3)
    link = VisionLink("virtual", (640, 360), "affiche-belge", VisionSettings(), 15.0)
    link.source = camera  # the camera the kiosk opened is the hanging one
    lights = Lights(LightsSettings(kind="led", pins=[17]), pin_factory=MockFactory())
    config = load_config(tmp_path / "absent.toml").replace("display", fullscreen=False)
    app = App(config, Services(vision=link.start(), lights=lights), size=(800, 480), fullscreen=False)
    try:
        assert wait_for(lambda: link.frames == 3, timeout=60)
        app.step()
        assert app.vision_status_key() != "app.camera_lost"
        deadline = time.monotonic() + CAMERA_STALE_S + 30
        while app.status_key() != "app.camera_lost" and time.monotonic() < deadline:
            app.step()
            time.sleep(0.05)
        assert app.status_key() == "app.camera_lost" and link.worker.latest.camera_ok  # the view still says ok
        app.step()  # the frame that follows shows it
        assert lights.state is LightState.FAULT
    finally:
        camera.close()
        app.close()
        lights.close()


def test_a_small_png_of_20000x20000_is_refused_from_its_header(tmp_path: Path) -> None:
    path = huge_png(tmp_path / "bomb.png", 20_000, 20_000)
    assert path.stat().st_size < 200_000
    tracemalloc.start()
    try:
        with pytest.raises(ImageError, match="400 megapixels by its header, over the 40 the kiosk decodes"):
            read_image(path)
        assert tracemalloc.get_traced_memory()[1] < 20 * 2**20  # never decoded
    finally:
        tracemalloc.stop()


def test_recognize_reports_each_huge_image_in_one_line_and_goes_on(
    tmp_path: Path,
    fake_identifier: None,  # noqa: F811 - the fixture imported above
    capsys: pytest.CaptureFixture[str],
) -> None:
    card = tmp_path / "card.png"
    write_card_image(card)
    bombs = [huge_png(tmp_path / "20k.png", 20_000, 20_000), huge_png(tmp_path / "40k.png", 40_000, 40_000)]
    assert main(["recognize", "--deck", "standard-52", str(bombs[0]), str(card), str(bombs[1])]) == 1
    captured = capsys.readouterr()
    errors = captured.err.splitlines()
    assert len(errors) == 2 and all(e.startswith(f"kiosk: error: {b}: ") for e, b in zip(errors, bombs, strict=True))
    assert "megapixels" in errors[0] and "megapixels" in errors[1]
    assert captured.out.splitlines()[0] == f"{card}: 1 card"


def test_a_48_megapixel_photo_is_read_shrunk_not_dropped(tmp_path: Path) -> None:
    photo = np.full((6000, 8000, 3), 90, np.uint8)
    cv2.rectangle(photo, (3000, 2000), (5000, 4800), (250, 250, 250), -1)
    path = tmp_path / "phone.jpg"
    path.write_bytes(cv2.imencode(".jpg", photo)[1].tobytes())
    image = read_image(path)
    assert image.shape == (3000, 4000, 3)  # decoded at half size, by libjpeg
    assert image[2000, 2000].mean() > 240 and image[100, 100].mean() < 100


def test_a_picture_in_a_format_the_kiosk_does_not_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "card.gif"
    from PIL import Image

    Image.new("RGB", (64, 64)).save(path, "GIF")
    with pytest.raises(ImageError, match="a GIF picture"):
        read_image(path)


# --- enrolment galleries ---------------------------------------------------------------------


def _gallery(path: Path, **arrays: np.ndarray) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    np.savez(buf, **arrays)  # type: ignore[arg-type]
    path.write_bytes(buf.getvalue())
    return path


@pytest.mark.parametrize(
    "damage", ["truncated", "wrong shape", "one-dimensional", "not finite", "pickled", "inflating", "not a zip"]
)
def test_a_bad_gallery_is_one_clear_line_with_bounded_memory(tmp_path: Path, damage: str) -> None:
    from kiosk.errors import KioskError
    from kiosk.vision.gallery import Gallery, gallery_path

    path = gallery_path("kakkerlakken-64", tmp_path)
    good = {"answers": np.array(["rat", "bat"]), "embeddings": np.eye(2, 8, dtype=np.float32)}
    if damage == "inflating":
        inflating_gallery(path, 100)
    elif damage == "not a zip":
        path.parent.mkdir(parents=True)
        path.write_bytes(b"\x00" * 1000)
    elif damage == "truncated":
        data = _gallery(path, **good).read_bytes()
        path.write_bytes(data[: len(data) // 2])
    else:
        arrays = {
            "wrong shape": {**good, "embeddings": np.eye(3, 8, dtype=np.float32)},
            "one-dimensional": {**good, "embeddings": np.ones(16, np.float32)},
            "not finite": {**good, "embeddings": np.full((2, 8), np.inf, np.float32)},
            "pickled": {**good, "answers": np.array(["rat", {"a": 1}], dtype=object)},
        }[damage]
        _gallery(path, **arrays)
    tracemalloc.start()
    try:
        with pytest.raises(KioskError) as err:
            Gallery.load("kakkerlakken-64", tmp_path)
        assert tracemalloc.get_traced_memory()[1] < 20 * 2**20
    finally:
        tracemalloc.stop()
    message = str(err.value)
    assert len(message.splitlines()) == 1 and str(path) in message and "kiosk enroll" in message


def test_a_bad_gallery_leaves_the_shipped_model_naming_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from kiosk.vision.gallery import gallery_path
    from kiosk.vision.identify import Identifier

    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path))
    _gallery(
        gallery_path("kakkerlakken-64", tmp_path), answers=np.array(["rat"]), embeddings=np.ones((1, 3), np.float32)
    )  # well formed, but not the model's dimension
    with caplog.at_level(logging.WARNING, logger="kiosk.vision.identify"):
        identifier = Identifier("kakkerlakken-64")
    assert identifier.gallery is None and "kiosk enroll" in caplog.text
    path = gallery_path("kakkerlakken-64", tmp_path)
    path.write_bytes(path.read_bytes()[:50])
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="kiosk.vision.identify"):
        assert Identifier("kakkerlakken-64").gallery is None
    assert "unusable gallery" in caplog.text
