"""The stamp service the app talks to: a request renders, queues and prints in the background;
flood limits refuse; paper-out holds; stamps left at shutdown print after the restart."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from escpos.printer import Dummy
from PIL import Image
from test_printer import Answering

from kiosk.devices.printer import PrinterSettings
from kiosk.devices.service import StampPrinter
from kiosk.devices.stamp import render_stamp
from tests.quotes import seed_says

SETTINGS = PrinterSettings(backend="dummy", strip_pause_s=0.0, retry_s=0.05, max_per_minute=10)


def wait_for(condition: Callable[[], bool], within: float = 20.0) -> bool:
    """Poll until ``condition`` holds (a deadline against hanging, not a speed requirement)."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def make(tmp_path: Path):  # type: ignore[no-untyped-def]
    made: list[StampPrinter] = []

    def factory(device: Dummy, **kw: object) -> StampPrinter:
        service = StampPrinter(
            SETTINGS,
            kiosk_name="Musée Test",
            card_cooldown_s=30,
            queue_path=tmp_path / "stamps.sqlite3",
            connect=lambda: device,
            today=lambda: date(2026, 11, 29),
            **kw,
        )  # type: ignore[arg-type]
        made.append(service)
        return service

    yield factory
    for service in made:
        service.close()


def test_a_request_is_printed_in_the_background(make) -> None:  # type: ignore[no-untyped-def]
    """Seed 000_de7fdf0eefacbd60.txt: « le lieu s'affiche et son tampon s'imprime dans ton
    passeport »."""
    seed_says("son tampon s'imprime dans ton passeport")
    dev, printed = Dummy(profile="POS-5890"), []
    service = make(dev, on_printed=printed.append)
    assert service.request("7H", "fr").accepted
    assert wait_for(lambda: service.pending() == 0)
    assert [job.card_id for job in printed] == ["7H"]
    stamp = Image.open(io.BytesIO(printed[0].image))
    assert stamp.tobytes() == render_stamp("7H", day=date(2026, 11, 29), kiosk_name="Musée Test").tobytes()
    assert dev.output.startswith(b"\x1b@\x1dv0\x00\x30\x00")  # init, then 48 bytes = 384 dots a row
    assert service.counters()["printed"] == 1 and service.state() == "ready"


def test_the_same_card_again_is_refused_during_the_cooldown(make) -> None:  # type: ignore[no-untyped-def]
    service = make(Dummy(profile="POS-5890"))
    assert service.request("2H", "nl").accepted
    assert service.request("2H", "nl").reason == "devices.stamp.cooldown"
    assert service.request("3H", "nl").accepted
    assert service.counters()["refused_cooldown"] == 1


def test_paper_out_is_the_state_and_the_stamp_waits(make) -> None:  # type: ignore[no-untyped-def]
    dev = Answering(paper=b"\x72")
    service = make(dev)
    service.request("KS", "de")
    assert wait_for(lambda: service.state() == "paper_out")
    assert service.pending("KS") == 1 and service.pending("2H") == 0
    dev.paper = b"\x12"
    assert wait_for(lambda: service.pending() == 0)
    assert service.state() == "ready"


def test_stamps_left_at_shutdown_print_after_the_restart(make) -> None:  # type: ignore[no-untyped-def]
    offline = Answering(online=b"\x1a")  # answers, and says it is off line (lid open)
    first = make(offline)
    first.request("QD", "fr")
    assert wait_for(lambda: first.state() == "offline")
    first.close()
    back = Dummy(profile="POS-5890")
    second = make(back)
    assert wait_for(lambda: second.pending() == 0)
    assert back.output.count(b"\x1b@") == 1


def test_test_pages_have_the_per_minute_limit_but_no_cooldown(make) -> None:  # type: ignore[no-untyped-def]
    """A test page behind the PIN is a stamp for the flood limit: ten a minute here, not more."""
    dev = Dummy(profile="POS-5890")
    service = make(dev)
    answers = [service.test_page() for _ in range(SETTINGS.max_per_minute + 2)]
    assert [a.accepted for a in answers] == [True] * SETTINGS.max_per_minute + [False] * 2
    assert {a.reason for a in answers[-2:]} == {"devices.stamp.rate"}
    assert wait_for(lambda: service.pending() == 0)
    assert dev.output.count(b"\x1b@") == SETTINGS.max_per_minute
