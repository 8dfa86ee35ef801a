"""The installed kiosk in the field (issue 52), headless: no camera means a "camera missing"
screen and light and no stamp; a camera spec that can never work stops the start; each tap on a
touch screen is taken once, on a turned panel too. The devices are the hardware edge's doubles:
picamera2 and the webcam absent, gpiozero's MockFactory, python-escpos' Dummy printer."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pygame
import pytest
from conftest import run_until

from kiosk.cli import main
from kiosk.config import Config, load_config
from kiosk.devices.lights import LightState
from kiosk.runtime import build_services
from kiosk.ui.app import MOUSE_TOUCH_ID, App
from kiosk.vision import sources
from kiosk.vision.sources import SourceError


@pytest.fixture
def config(tmp_path: Path) -> Config:
    config = load_config(tmp_path / "absent.toml").replace("display", fullscreen=False)
    return config.replace("printer", **{"backend": "dummy", "strip_pause_s": 0.0})


@pytest.fixture
def apps():  # type: ignore[no-untyped-def]
    made: list[App] = []
    yield made
    for app in made:
        app.close()


def test_with_no_camera_the_kiosk_says_so_keeps_trying_and_stamps_nothing(
    config: Config, tmp_path: Path, apps: list[App], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen with a loose camera cable: ``auto`` fell back to the rendered table and printed six
    stamps in 45 s for cards nobody showed. Now nothing is filmed, the attract screen says the
    camera is missing (no invitation to show a card), the status light shows the fault, and the
    worker keeps looking for the camera."""
    monkeypatch.setitem(sys.modules, "picamera2", None)  # no Pi camera

    def no_webcam(self: sources.OpenCVSource) -> None:
        raise SourceError("camera 0 cannot be opened")

    monkeypatch.setattr(sources.OpenCVSource, "open", no_webcam)
    tried: list[str] = []
    real_make = sources.make_source
    monkeypatch.setattr(sources, "make_source", lambda spec, *a, **kw: tried.append(spec) or real_make(spec, *a, **kw))
    services = build_services(config, state=tmp_path, camera="auto")
    app = App(config, services, size=(800, 480), fullscreen=False)
    apps.append(app)
    assert run_until(app, lambda: tried.count("0") >= 2, 10)  # opened again after a backoff
    # the worker's view of the failed opens reaches the screen on a later step of the loop
    assert run_until(app, lambda: app.vision_status_key() == "app.camera_lost", 5)
    assert app.screen.name == "attract"
    assert services.lights.state is LightState.FAULT
    assert services.vision.source is None and set(tried) == {"picamera2", "0"}
    assert services.stamps.counters()["submitted"] == 0 and app.passport.requested == 0


@pytest.mark.parametrize("spec", ["nonsense", "films/no-such-film.mp4"])
def test_a_camera_spec_that_cannot_work_is_an_error_at_start(
    spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIOSK_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("KIOSK_CONFIG", str(tmp_path / "absent.toml"))
    started = time.monotonic()
    assert main(["run", "--headless", "--camera", spec]) == 1
    err = capsys.readouterr().err
    assert err.startswith("kiosk: error: ") and repr(spec) in err and len(err.splitlines()) == 1
    assert time.monotonic() - started < 30  # refused at once, not retried for ever


def _pin_app(config: Config, tmp_path: Path, rotate: int) -> App:
    config = config.replace("display", rotate=rotate)
    services = build_services(config, state=tmp_path, camera="virtual", source_options={"script": []})
    app = App(config, services, size=(800, 480), fullscreen=False)
    app.goto("pin")
    app.step()
    assert app.screen.name == "pin"
    return app


def _panel_point(app: App, key: str) -> tuple[int, int]:
    """Where the PIN pad's ``key`` shows on the panel (the picture turned by ``rotate``)."""
    button = next(b for b in app.screen.buttons if b.params.get("key") == key)
    picture = pygame.Surface(app.surface.get_size())
    picture.fill((0, 0, 0))
    picture.set_at(button.rect.center, (255, 0, 0))
    from kiosk.ui.rotation import onto_panel

    panel = onto_panel(picture, app.config.display.rotate)
    return next(
        (u, v)
        for u in range(panel.get_width())
        for v in range(panel.get_height())
        if panel.get_at((u, v))[:3] == (255, 0, 0)
    )


def _finger(u: int, v: int, panel: tuple[int, int], touch_id: int) -> pygame.event.Event:
    """A finger down at panel pixel (u, v), as SDL reports it: in fractions of the panel."""
    return pygame.event.Event(
        pygame.FINGERDOWN,
        touch_id=touch_id,
        finger_id=0,
        x=(u + 0.5) / panel[0],
        y=(v + 0.5) / panel[1],
        dx=0.0,
        dy=0.0,
        pressure=1.0,
    )


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_a_touch_is_one_tap_though_sdl_reports_it_twice(
    config: Config, tmp_path: Path, apps: list[App], rotate: int
) -> None:
    """SDL reports a finger on the screen as FINGERDOWN and again as a mouse click marked
    ``touch``: the PIN digit must be entered once, not twice (seen under Wayland and X11), on
    a panel turned by ``[display] rotate`` too; a real mouse click still counts."""
    app = _pin_app(config, tmp_path, rotate)
    apps.append(app)
    panel_w, panel_h = pygame.display.get_surface().get_size()
    u, v = _panel_point(app, "5")
    pygame.event.post(_finger(u, v, (panel_w, panel_h), 1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(u, v), button=1, touch=True))
    app.step()
    assert app.screen.entry == "5"
    # a mouse, which SDL may also report as a finger of its own touch id
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(u, v), button=1, touch=False))
    pygame.event.post(_finger(u, v, (panel_w, panel_h), MOUSE_TOUCH_ID))
    app.step()
    assert app.screen.entry == "55"


def test_the_picture_is_turned_onto_the_panel(config: Config, tmp_path: Path, apps: list[App]) -> None:
    """Touch Display 2 is a 720x1280 portrait panel: with rotate = 90 the app draws an upright
    1280x720 picture and the panel shows it turned."""
    config = config.replace("display", width=1280, height=720, rotate=90)
    services = build_services(config, state=tmp_path, camera="virtual", source_options={"script": []})
    app = App(config, services, fullscreen=False)
    apps.append(app)
    app.step()
    assert app.surface.get_size() == (1280, 720)
    assert pygame.display.get_surface().get_size() == (720, 1280)


def test_cards_on_a_rendered_table_earn_no_stamp_outside_the_demo(
    config: Config, tmp_path: Path, apps: list[App]
) -> None:
    """Stamps come only from a real camera, or from ``kiosk demo``: ``kiosk run --camera virtual``
    (or a recording) shows the place of a card and says why no stamp comes."""
    script = [{"at": 12, "card": "3H", "mat_xy": (0.5, 0.5), "leave": 150, "angle": 20}]
    services = build_services(
        config, state=tmp_path, camera="virtual", source_options={"deck_id": "affiche-belge", "script": script}
    )
    app = App(config, services, size=(800, 480), fullscreen=False)
    apps.append(app)
    assert run_until(app, lambda: app.screen.name == "passport", 120)
    assert app.screen.params["card_id"] == "3H" and app.screen.params["job"] is None
    assert app.passport.stamp_status_key(app.screen.params["refused"], None) == "app.stamp.no_camera"
    assert services.stamps.counters()["submitted"] == 0 and app.passport.requested == 0
