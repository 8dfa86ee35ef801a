"""The operator menu's "Teach a deck" (issue 53, item 2): the whole app, headless, on the virtual
table (the camera's test double) laying cards of a foreign printing one after the other; and
forgetting a taught deck, tapped twice."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import numpy as np
import pytest
from conftest import run_until

from kiosk.config import load_config
from kiosk.runtime import build_services
from kiosk.ui.app import App
from kiosk.vision.gallery import Gallery, GalleryError, forget_gallery, gallery_path
from kiosk.vision.teaching import as_gallery, describe

STYLE = "foreign-narrow"


def _app(tmp_path: Path, script: list[dict]) -> App:
    config = load_config(tmp_path / "absent.toml").replace("display", fullscreen=False)
    printer = dataclasses.replace(config.printer, backend="dummy", strip_pause_s=0.0)
    state = tmp_path / "state"
    state.mkdir()
    services = build_services(
        config,
        state=state,
        camera="virtual",
        printer=printer,
        source_options={"deck_id": "standard-52", "script": script},
    )
    services.gallery_dir = state
    return App(config, services, size=(800, 480), fullscreen=False)


@pytest.fixture
def app(tmp_path: Path, request: pytest.FixtureRequest):
    made = _app(tmp_path, getattr(request, "param", []))
    yield made
    made.close()


def _go(app: App, *actions: str) -> None:
    """Press the buttons of ``actions`` one after the other, each on the screen it leads to."""
    for action in actions:
        app.screen.on_action(action, {})
        app.step()


CARDS = [  # the first two cards of the deck laid one after the other, each left still a while
    {"at": 20, "card": "AC", "mat_xy": (0.4, 0.5), "leave": 60, "style": STYLE},
    {"at": 90, "card": "2C", "mat_xy": (0.6, 0.45), "leave": 130, "angle": 25, "style": STYLE},
]


@pytest.mark.parametrize("app", [CARDS], indirect=True)
def test_the_cards_shown_to_the_camera_are_taught_in_the_decks_order(app: App) -> None:
    app.goto("operator")
    app.step()
    _go(app, "enrol", "start")
    assert app.screen.name == "teach"
    assert run_until(app, lambda: app.screen.state.taught == 2, timeout=90)
    state = app.screen.state
    assert (state.asked, state.last, state.saved) == ("3C", "2C", None)
    assert set(app.screen.mode.teaching.rows) == {"AC", "2C"}
    assert not gallery_path("standard-52", app.services.gallery_dir).exists()  # saved only whole
    _go(app, "stop")  # two cards would be lost: asked again
    assert app.screen.name == "teach" and app.screen.confirm
    _go(app, "stop")
    assert app.screen.name == "enrol" and app.screen.deck_id == "standard-52"
    assert app.screen.enrolled.cards == 0


@pytest.mark.parametrize("app", [CARDS], indirect=True)
def test_leaving_the_teach_screen_lets_its_look_finish(app: App) -> None:
    """The teach screen's detector serves one thread: a look still under way when the operator
    leaves is finished before the next teach screen can start one on the same detector."""
    app.goto("operator")
    app.step()
    _go(app, "enrol", "start")
    screen, looking, finished = app.screen, threading.Event(), threading.Event()
    look = screen.mode.on_frame

    def slow(frame: np.ndarray):
        looking.set()
        threading.Event().wait(0.3)
        state = look(frame)
        finished.set()
        return state

    screen.mode.on_frame = slow  # type: ignore[method-assign]
    assert run_until(app, looking.is_set, timeout=30)
    screen.exit()
    assert finished.is_set()


@pytest.mark.parametrize("app", [CARDS], indirect=True)
def test_a_look_at_the_camera_runs_beside_the_screen(app: App) -> None:
    """The detector runs on a worker thread: the screen steps and its buttons act while a look is
    under way, and the state the look leaves keeps what a button did meanwhile."""
    app.goto("operator")
    app.step()
    _go(app, "enrol", "start")
    mode, looking, release = app.screen.mode, threading.Event(), threading.Event()
    look = mode.on_frame

    def slow(frame: np.ndarray):
        looking.set()
        release.wait(30)
        return look(frame)

    mode.on_frame = slow  # type: ignore[method-assign]
    assert run_until(app, looking.is_set, timeout=30)
    app.step()  # returns while the look waits
    app.screen.on_action("skip", {})
    assert app.screen.state.asked == "2C"
    release.set()
    assert run_until(app, lambda: app.screen._look is None, timeout=30)
    assert app.screen.state.asked == "2C"


def test_a_taught_deck_is_forgotten_once_confirmed(app: App) -> None:
    blank = np.full((280, 200, 3), 220, np.uint8)
    path = as_gallery("piquet-32", {c: describe(blank, None) for c in ("7C", "8C")}).save(app.services.gallery_dir)
    app.goto("enrol", deck="piquet-32")
    app.step()
    assert app.screen.enrolled.cards == 2 and [b.action for b in app.screen.buttons][:3] == ["deck", "start", "forget"]
    _go(app, "forget")
    assert path.exists() and app.screen.confirm
    _go(app, "forget")
    assert not path.exists() and app.screen.enrolled.cards == 0 and app.screen.note is not None
    app.screen.layout(app.surface.get_size())
    assert "forget" not in [b.action for b in app.screen.buttons]


def test_a_damaged_gallery_is_named_and_can_be_forgotten(app: App) -> None:
    path = gallery_path("standard-52", app.services.gallery_dir)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"PK\x03\x04 cut short")
    app.goto("enrol")
    app.step()
    assert str(path) in app.screen.enrolled.error and not app.screen.enrolled.complete
    _go(app, "forget", "forget")
    assert not path.exists() and app.screen.enrolled.error == ""


def test_a_deck_taught_by_an_earlier_version_is_said_so_and_can_be_taught_again(app: App) -> None:
    """A gallery of another shape (an update changed what a card keeps) is not shown as taught:
    the screen says in words that an earlier version taught it, and teaching starts afresh."""
    ids = ["7C", "8C"]
    Gallery("piquet-32", tuple(c for c in ids for _ in range(3)), np.ones((6, 16), np.float32)).save(
        app.services.gallery_dir
    )
    app.goto("enrol", deck="piquet-32")
    app.step()
    assert app.screen.enrolled.earlier and not app.screen.enrolled.complete
    assert "start" in [b.action for b in app.screen.buttons]


def test_a_gallery_that_cannot_be_removed_is_named(tmp_path: Path) -> None:
    path = gallery_path("standard-52", tmp_path)
    path.mkdir(parents=True)  # a folder where the file should be
    with pytest.raises(GalleryError, match=f"{path}: cannot be removed"):
        forget_gallery("standard-52", tmp_path)
    assert path.is_dir()
    assert forget_gallery("piquet-32", tmp_path) is False  # nothing to forget
