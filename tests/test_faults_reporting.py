"""Honest reporting: a stamp that is not printed is never shown as printed. Every refusal has
its own reason (a message in four languages) and its own counter; the screen, the status light,
the demo's summary and ``kiosk queue list`` show them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import demo_args, headless_env
from escpos.printer import Dummy
from gpiozero.pins.mock import MockFactory

from kiosk.config import VisionSettings, load_config
from kiosk.devices.lights import Lights, LightsSettings, LightState
from kiosk.devices.printer import PrinterSettings
from kiosk.devices.queue import COUNTERS, REFUSALS, UNAVAILABLE, refusal_counter
from kiosk.devices.service import StampPrinter
from kiosk.i18n import LANGUAGES, catalog
from kiosk.runtime import VisionLink
from kiosk.ui.app import App, Services

REPO = Path(__file__).resolve().parents[1]
SETTINGS = PrinterSettings(backend="dummy", strip_pause_s=0.0, retry_s=0.05)


@pytest.mark.parametrize("reason", [*REFUSALS, "devices.stamp.no_printer", "app.stamp.parked", "app.stamp.unknown"])
def test_every_reason_has_its_message(reason: str) -> None:
    assert all(catalog()[reason].get(lang) for lang in LANGUAGES)


@pytest.mark.parametrize("reason", REFUSALS)
def test_every_refusal_has_its_counter(reason: str) -> None:
    assert refusal_counter(reason) in COUNTERS


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    made: list[App] = []

    def build(stamps: StampPrinter) -> App:
        config = load_config(tmp_path / "absent.toml").replace("display", fullscreen=False)
        link = VisionLink("virtual", (640, 360), "affiche-belge", VisionSettings(), 15.0)
        lights = Lights(LightsSettings(kind="led", pins=[17]), pin_factory=MockFactory())
        services = Services(
            vision=link.start(),
            stamps=stamps,
            lights=lights,
            stamps_allowed=True,
            closers=[link.close, stamps.close, lights.close],
        )
        made.append(App(config, services, size=(800, 480), fullscreen=False))
        return made[-1]

    yield build
    for built in made:
        built.close()


def ask(kiosk: App, card_id: str) -> tuple[str, int | None]:
    """Ask for ``card_id``'s stamp as passport mode does when the card is shown: (refused, job)."""
    place = kiosk.passport._stamp(card_id, kiosk.lang)
    return place.refused, place.job


def test_unavailable_stamps_are_said_on_screen_and_by_the_light_and_counted(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    queue_path = tmp_path / "stamps.sqlite3"
    queue_path.mkdir()  # the queue's file cannot be opened
    kiosk = app(StampPrinter(SETTINGS, kiosk_name="K", card_cooldown_s=30, queue_path=queue_path))
    kiosk.step()
    assert UNAVAILABLE in kiosk.faults() and kiosk.status_key() in (UNAVAILABLE, "app.camera_lost")
    assert kiosk.services.lights.state is LightState.FAULT
    refused, job = ask(kiosk, "3H")
    assert (refused, job) == (UNAVAILABLE, None) and kiosk.passport.refusals == {UNAVAILABLE: 1}
    assert kiosk.passport.stamp_status_key(refused, job) == UNAVAILABLE and kiosk.passport.requested == 0
    assert kiosk.services.stamps.counters()["refused_unavailable"] == 1


def test_a_parked_stamp_is_not_shown_as_printed(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    stamps = StampPrinter(
        SETTINGS,
        kiosk_name="K",
        card_cooldown_s=30,
        queue_path=tmp_path / "stamps.sqlite3",
        connect=lambda: Dummy(profile="POS-5890"),
    )
    kiosk = app(stamps)
    stamps.worker.stop()  # the printer worker is held so the job stays where the test puts it
    refused, job = ask(kiosk, "3H")
    assert refused == "" and job is not None
    assert kiosk.passport.stamp_status_key(refused, job) == "app.stamp.printing"
    stamps.queue.fail(job, "RuntimeError: firmware", park_after=1)
    assert kiosk.passport.stamp_status_key(refused, job) == "app.stamp.parked"
    again, _ = ask(kiosk, "3H")
    assert again == "devices.stamp.cooldown" and kiosk.passport.stamp_status_key(again, None) == again


def test_no_printer_is_no_stamp_printed(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kiosk = app(
        StampPrinter(
            SETTINGS,
            kiosk_name="K",
            card_cooldown_s=30,
            queue_path=tmp_path / "q.sqlite3",
            connect=lambda: Dummy(profile="POS-5890"),
        )
    )
    kiosk.passport.stamps = None  # [printer] backend = "none"
    assert ask(kiosk, "3H") == ("devices.stamp.no_printer", None)


def test_the_demo_survives_a_garbage_queue_and_an_overflowing_counter_and_says_so(tmp_path: Path) -> None:
    """`kiosk demo` on a state directory holding a garbage ``stamps.sqlite3`` and a
    ``counters.json`` with 1e999: exit 0, stamps printed, both files set aside and named in the
    summary."""
    state, out = tmp_path / "state", tmp_path / "out"
    state.mkdir()
    (state / "stamps.sqlite3").write_bytes(os.urandom(8192))
    (state / "counters.json").write_text('{"places": {"3H": 1e999}}')
    result = subprocess.run(
        [sys.executable, "-m", "kiosk", *demo_args(14, out, state)],
        capture_output=True,
        text=True,
        timeout=300,
        env=headless_env(state),
        cwd=REPO,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    events = " ".join(summary["storage"]["events"])
    assert "stamps.sqlite3: damaged" in events and "counters.json: unreadable" in events
    assert summary["stamps_printed"] >= 1 and summary["stamps_lost"] == 0
    assert "demo: storage: " in result.stdout
    assert len(list(state.glob("stamps.sqlite3.bad-*"))) >= 1 and len(list(state.glob("counters.json.bad-*"))) == 1
