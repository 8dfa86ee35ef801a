"""The operator menu: the line on the camera (how wide the cards are in its picture, and what to
do when they are too small to read every suit sign), the printer's state and the visits in words,
what became of a test page, and the stamp queue with its reprint and clear buttons."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import screen_tour as tour  # noqa: E402

from kiosk.i18n import LANGUAGES, translate  # noqa: E402
from kiosk.ui.app import App  # noqa: E402
from kiosk.ui.screens.base import Screen  # noqa: E402
from kiosk.ui.screens.operator import camera_slant_line, card_width_line  # noqa: E402
from kiosk.vision.calibration import MAX_SLANT  # noqa: E402
from kiosk.vision.identify import SMALL_CARD_PX  # noqa: E402
from tests.slanted_camera import slanted  # noqa: E402


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_operator_sees_how_wide_the_cards_are_and_when_that_is_too_small(lang: str) -> None:
    def t(key: str, **params: object) -> str:
        return translate(key, lang, **params)

    assert card_width_line(t, None) is None  # no card on the table: nothing to say
    wide = card_width_line(t, 145.4)
    small = card_width_line(t, 72.0)
    assert wide is not None and "145" in wide and "CAMERA.md" not in wide
    assert small is not None and "72" in small and str(round(SMALL_CARD_PX)) in small and "CAMERA.md" in small


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_operator_sees_how_far_the_camera_looks_off_straight_down(lang: str) -> None:
    def t(key: str, **params: object) -> str:
        return translate(key, lang, **params)

    assert camera_slant_line(t, None) is None  # not calibrated yet: nothing to say
    upright, steep = camera_slant_line(t, slanted(1.0)), camera_slant_line(t, slanted(0.5))
    assert upright is not None and "0°" in upright and "CAMERA.md" not in upright
    assert steep is not None and "39°" in steep and str(round(MAX_SLANT)) in steep and "CAMERA.md" in steep


@pytest.fixture(scope="module")
def kiosk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """The kiosk without a camera whose printer does not answer: stamps wait in its queue."""
    with tour.kiosk(tmp_path_factory.mktemp("operator"), camera=False) as app:
        yield app


def _texts(app: App, screen: str, lang: str = "fr", *then: Callable[[Screen], None]) -> tuple[Screen, list[str]]:
    scene = tour.Scene(screen, screen, then=then)
    _, drawn = tour.draw(app, scene, lang, tour.SIZES[0])
    return app.screen, [d.content for d in drawn if d.kind == "text"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_operator_reads_the_printer_state_and_the_visits_in_words(kiosk: App, lang: str) -> None:
    kiosk.services.counters.stamp("3C")  # Villers-la-Ville
    _, texts = _texts(kiosk, "operator", lang)
    state = kiosk.printer_state()  # ready until a stamp finds the printer silent
    assert state in ("ready", "offline")
    assert translate("app.operator.printer", lang, state=translate(f"app.printer.{state}", lang)) in texts
    assert lang == "en" or not any(t.endswith(f": {state}") for t in texts)
    visits = [t for t in texts if t.startswith("Villers-la-Ville: ")]
    assert visits and not any(t.startswith("3C") for t in texts)


def test_the_test_page_button_says_what_became_of_the_page(kiosk: App) -> None:
    stamps = kiosk.services.stamps
    queued = translate("app.operator.test_page_queued", "nl")
    _, texts = _texts(kiosk, "operator", "nl")
    assert queued not in texts
    before = stamps.counters()["submitted"]
    _, texts = _texts(kiosk, "operator", "nl", lambda s: s.on_action("test_page", {}))
    assert queued in texts and stamps.counters()["submitted"] == before + 1


def test_the_queue_view_lists_each_stamp_by_place_and_reprints_or_clears(kiosk: App) -> None:
    """Seed 000_de7fdf0eefacbd60.txt: the stamp prints "dans ton passeport"; one that could not
    print stays queued until the staff reprints or clears it, here from the operator menu."""
    stamps = kiosk.services.stamps
    stamps.clear()
    screen, texts = _texts(kiosk, "queue", "en", tour.queued)
    jobs = stamps.jobs()
    parked = [job for job in jobs if job.state == "parked"]
    assert len(parked) == 1 and len(jobs) > 1
    rows = [t for t in texts if t.startswith("#")]
    assert rows[0].startswith(f"#{parked[0].id} Doudou (Mons) · parked (OSError")
    assert any(t == f"#{jobs[1].id} Malmedy · waiting" for t in rows)
    reprint = [b for b in screen.buttons if b.action == "reprint"]
    assert [b.params["job"] for b in reprint] == [parked[0].id]
    screen.on_action(reprint[0].action, reprint[0].params)
    assert stamps.job_state(parked[0].id) == "waiting"
    screen.layout(tour.SIZES[0])
    clear = next(b for b in screen.buttons if b.action == "clear")
    screen.on_action("clear", {})  # the first tap asks
    assert len(stamps.jobs()) == len(jobs)
    screen.layout(tour.SIZES[0])
    assert next(b for b in screen.buttons if b.action == "clear").label != clear.label
    screen.on_action("clear", {})
    assert stamps.jobs() == [] and stamps.counters()["cleared"] >= len(jobs)
    _, texts = _texts(kiosk, "queue", "en")
    assert translate("app.queue.empty", "en") in texts
