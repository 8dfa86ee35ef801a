"""A camera still starting is "preparing", not "lost": the first attract screen of a clean start
invites the visitor and says recognition is getting ready, until the first frame comes."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pygame
from conftest import run_until

from kiosk.config import VisionSettings, load_config
from kiosk.i18n import translate
from kiosk.runtime import VisionLink
from kiosk.ui import widgets
from kiosk.ui.app import App, Services
from kiosk.vision.sources.base import FrameSource


class Starting(FrameSource):
    """A camera that takes its time to start (a Pi camera's first open): ``open()`` returns once
    released, then frames come."""

    name = "starting"

    def __init__(self) -> None:
        self.opening = threading.Event()
        self.release = threading.Event()

    def open(self) -> None:
        self.opening.set()
        self.release.wait(120)

    def read(self) -> np.ndarray | None:
        time.sleep(0.05)
        return np.full((360, 640, 3), 90, np.uint8)

    def close(self) -> None:
        self.release.set()


def test_a_camera_still_starting_is_preparing_not_lost(tmp_path: Path) -> None:
    camera = Starting()
    link = VisionLink("virtual", (640, 360), "affiche-belge", VisionSettings(), 15.0)
    link.source = camera  # the camera the kiosk opens
    config = load_config(tmp_path / "absent.toml").replace("display", fullscreen=False)
    app = App(config, Services(vision=link.start()), size=(800, 480), fullscreen=False)
    try:
        assert camera.opening.wait(60)
        seen = set()
        for _ in range(10):  # the worker has published what it knows: nothing yet
            app.step()
            seen.add(app.status_key())
        assert seen == {"app.preparing"}
        assert app.screen.name == "attract"
        with widgets.recording() as drawn:
            app.screen.layout((800, 480))
            app.screen.draw(pygame.Surface((800, 480)))
        texts = [d.content for d in drawn if d.kind == "text"]
        assert translate("app.preparing", "fr") in texts and translate("app.question", "fr") in texts
        assert translate("app.camera_missing", "fr") not in texts
        camera.release.set()
        assert run_until(app, lambda: app.status_key() is None)
    finally:
        camera.close()
        link.close()  # the worker stops before the interpreter does
        app.close()
