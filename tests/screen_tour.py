"""Every screen of the kiosk in the states a visitor or an operator meets, drawn in the four
languages at the three screen sizes, and what is wrong with the texts drawn.

Used by ``tests/test_screen_layout.py``; ``python tests/screen_tour.py OUT [PREFIX]`` saves every
scene (whose name starts with PREFIX) as PNG files to look at (``OUT/referee-compromis-nl-720x1280.png``)
and prints what is wrong with them.

The kiosk runs on the virtual table (the test double of the camera) with the printed mat and four
cards of L'Affiche Belge in the seats, a printer behind python-escpos' Dummy, and SDL's dummy
video driver; a second kiosk has no camera at all. Screens are made straight from the app's
registry (``kiosk.ui.app.SCREENS``), so the vision keeps the passport deck whatever game a referee
scene shows. The teach screen's scenes show its mode the filmed table and one rendered card of a
printing the kiosk was not trained on, and the state it gives once a deck is taught.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from kiosk.config import load_config  # noqa: E402
from kiosk.decks import load_deck  # noqa: E402
from kiosk.i18n import LANGUAGES  # noqa: E402
from kiosk.referee.base import InputSpec  # noqa: E402
from kiosk.referee.zones import seat_positions  # noqa: E402
from kiosk.render.scenes import render_scene  # noqa: E402
from kiosk.runtime import build_services  # noqa: E402
from kiosk.ui import theme, widgets  # noqa: E402
from kiosk.ui.app import SCREENS, App  # noqa: E402
from kiosk.ui.screens.base import Screen  # noqa: E402

SIZES: tuple[tuple[int, int], ...] = ((800, 480), (1024, 600), (720, 1280))
TABLE_CARDS = ("3C", "KH", "7S", "JD")  # Villers-la-Ville, Liège, Laeken, the Cuberdon: one per seat
READY_S = 120.0  # generous: machines are shared; nothing here measures speed


def press(action: str, choice: str | None = None) -> Callable[[Screen], None]:
    """Press the referee's input ``action`` (answering its picker with ``choice``, or opening it)."""

    def go(screen: Screen) -> None:
        spec: InputSpec = next(s for s in screen.session.inputs() if s.action == action)  # type: ignore[attr-defined]
        if choice is None:
            screen.on_action("input", {"spec": spec})
        else:
            screen.on_action("choice", {"spec": spec, "value": choice})

    return go


def lay(*cards: tuple[str, str]) -> Callable[[Screen], None]:
    """Cards confirmed in zones of the referee's layout, as the vision reports them."""
    from kiosk.table import CardEvent, SeenCard, TableView

    def go(screen: Screen) -> None:
        layout = screen.session.layout  # type: ignore[attr-defined]
        events = tuple(
            CardEvent(
                "confirmed", SeenCard(100 + i, card_id, 1.0, ((0, 0), (1, 0), (1, 1), (0, 1)), layout[zone].centre)
            )
            for i, (card_id, zone) in enumerate(cards)
        )
        screen.on_view(TableView(frame_index=1, timestamp=0.0, events=events))

    return go


def queued(screen: Screen) -> None:
    """Stamps waiting for a printer that does not answer, the oldest parked after failing."""
    stamps = screen.app.services.stamps
    assert stamps is not None and stamps.queue is not None  # type: ignore[attr-defined]
    if stamps.jobs():
        return
    cards = [c.id for c in screen.app.passport.deck.cards if c.names][:12]
    jobs = [stamps.request(card, "fr").job_id for card in cards]
    stamps.queue.fail(jobs[0], "OSError: [Errno 5] Input/output error", park_after=1)  # type: ignore[attr-defined]


def test_page(screen: Screen) -> None:
    screen.on_action("test_page", {})


def partly_taught(screen: Screen) -> None:
    """A dozen cards of the screen's deck enrolled (from blank faces: only their count is shown)."""
    from kiosk.vision.teaching import as_gallery, describe

    deck = load_deck(screen.deck_id)  # type: ignore[attr-defined]
    blank = np.full((280, 200, 3), 220, np.uint8)
    as_gallery(deck.id, {c: describe(blank, None) for c in deck.ids[:12]}).save(screen.app.services.gallery_dir)
    screen.enter()


def tap(action: str) -> Callable[[Screen], None]:
    return lambda screen: screen.on_action(action, {})


@cache
def _one_card() -> np.ndarray:
    """A camera frame of the 7 of hearts alone on the table, in a printing the kiosk was not trained on."""
    return render_scene("standard-52", 1, 3, (1280, 720), card_ids=["7H"], styles=("foreign-narrow",)).image


def looked(screen: Screen) -> None:
    """The teach screen's look at the camera's frame, submitted and finished: the next scene's
    steps use the same detector, which serves one thread at a time."""
    screen.update(0.0)
    if screen._look is not None:  # type: ignore[attr-defined]
        screen._look.result()  # type: ignore[attr-defined]


def card_taught(screen: Screen) -> None:
    """The teach screen's mode shown the 7 of hearts, alone and still: it is taught."""
    for _ in range(2):
        screen.state = screen.mode.on_frame(_one_card())  # type: ignore[attr-defined]


def deck_taught(error: str = "") -> Callable[[Screen], None]:
    """The teach screen's state once every card is taught: saved, or saving failed with ``error``."""

    def go(screen: Screen) -> None:
        state = screen.state  # type: ignore[attr-defined]
        saved = None if error else Path("/var/lib/kiosk/gallery/standard-52.npz")
        screen.state = dataclasses.replace(  # type: ignore[attr-defined]
            state, asked=None, taught=state.total, last="KS", saved=saved, error=error
        )

    return go


@dataclass(frozen=True)
class Scene:
    """One state of one screen: made with ``params``, then ``then`` done on it, in order."""

    name: str
    screen: str
    params: dict[str, Any] = field(default_factory=dict)
    then: tuple[Callable[[Screen], None], ...] = ()
    camera: bool = True  # False: on the kiosk that has no camera

    def make(self, app: App) -> Screen:
        screen = SCREENS[self.screen](app, **self.params)
        screen.enter()
        app.screen = screen
        for step in self.then:
            step(screen)
        return screen


LONGEST_FACT = "longest-fact"  # the passport card whose fact is the longest in the scene's language

#: Scenes of the screens that need parameters, or are worth seeing in several states; every other
#: screen of the registry is drawn as it enters.
SCENES: tuple[Scene, ...] = (
    Scene("attract", "attract"),
    Scene("attract-no-camera", "attract", camera=False),
    Scene("menu", "menu"),
    Scene("menu-klaverjassen", "menu", {"game": "klaverjassen", "players": 4}),
    Scene("passport", "passport", {"card_id": "3C", "refused": "", "job": None}),
    Scene("passport-long-fact", "passport", {"card_id": LONGEST_FACT, "refused": "app.stamp.parked", "job": None}),
    Scene("passport-surprise", "passport", {"card_id": "JK1", "refused": "", "job": None}),
    Scene("referee-compromis", "referee", {"game": "compromis", "players": 6}),
    Scene(
        "referee-compromis-ruled",
        "referee",
        {"game": "compromis", "players": 2},
        (lay(("5H", "seat0"), ("5D", "seat0"), ("6H", "seat0"), ("6C", "seat0"), ("8H", "seat0"), ("8S", "seat0")),),
    ),
    Scene("referee-klaverjassen-dealer", "referee", {"game": "klaverjassen", "players": 4}, (press("dealer"),)),
    Scene(
        "referee-klaverjassen",
        "referee",
        {"game": "klaverjassen", "players": 4},
        (press("dealer", "3"), press("trump", "H")),
    ),
    Scene("referee-kakkerlakken", "referee", {"game": "kakkerlakken", "players": 6}),
    Scene(
        "referee-kakkerlakken-species",
        "referee",
        {"game": "kakkerlakken", "players": 6},
        (press("offer", "2"), press("claim")),
    ),
    Scene("referee-bataille-over", "referee", {"game": "bataille", "players": 2}, (press("out"),)),
    Scene("referee-no-camera", "referee", {"game": "huit", "players": 7}, camera=False),
    Scene("pin", "pin"),
    Scene("operator", "operator", then=(test_page,)),
    Scene("queue", "queue", camera=False, then=(queued,)),
    Scene("operator-printer-offline", "operator", camera=False),
    Scene("queue-empty", "queue"),
    Scene("calibrate", "calibrate"),
    Scene("enrol", "enrol"),
    Scene("enrol-forget", "enrol", {"deck": "piquet-32"}, (partly_taught, tap("forget"))),
    Scene("teach-several-cards", "teach", {"deck": "standard-52"}, (looked,)),
    Scene("teach-taken-stop", "teach", {"deck": "standard-52"}, (card_taught, tap("stop"))),
    Scene("teach-saved", "teach", {"deck": "standard-52"}, (deck_taught(),)),
    Scene(
        "teach-save-failed",
        "teach",
        {"deck": "piquet-32"},
        (deck_taught("state directory /var/lib/kiosk cannot be created: [Errno 13] Permission denied"),),
    ),
    Scene("failsafe", "failsafe"),
)


def scenes() -> list[Scene]:
    """:data:`SCENES`, and each screen of the registry that has none, as it enters."""
    listed = {s.screen for s in SCENES}
    return list(SCENES) + [Scene(name, name) for name in SCREENS if name not in listed]


def _services(tmp: Path, camera: bool) -> Any:
    config = load_config(tmp / "absent.toml").replace("display", fullscreen=False)
    if not camera:  # the GPIO pins are the filmed kiosk's
        config = config.replace("lights", kind="none").replace("buttons", pins=[])
    printer = dataclasses.replace(config.printer, backend="dummy", strip_pause_s=0.0)
    if not camera:  # a printer that does not answer: stamps wait in the queue
        printer = dataclasses.replace(printer, backend="file", file_path=str(tmp / "absent" / "lp0"), max_per_minute=0)
    state = tmp / "state"
    state.mkdir(parents=True)
    script = [
        {"at": 8 + 2 * i, "card": card, "mat_xy": xy, "leave": 10**6}
        for i, (card, xy) in enumerate(zip(TABLE_CARDS, seat_positions(4), strict=True))
    ]
    spec = "virtual" if camera else "/dev/video-absent"  # a webcam that is not plugged in
    options = {"deck_id": "affiche-belge", "script": script, "mat": True} if camera else {}
    services = build_services(config, state=state, camera=spec, printer=printer, source_options=options, demo=True)
    services.gallery_dir = state  # taught decks go here, not to the user's state directory
    return config, services


@contextmanager
def kiosk(tmp: Path, camera: bool) -> Iterator[App]:
    """The kiosk on the filmed table, once its four cards are confirmed and the mat found; or
    (``camera`` False) the kiosk without a camera whose printer does not answer, once it says so."""
    config, services = _services(tmp, camera)
    app = App(config.replace("kiosk", idle_seconds=3600.0), services, size=SIZES[0], fullscreen=False)
    try:
        end = time.monotonic() + READY_S
        while not (
            len(app.view.cards) == len(TABLE_CARDS) and app.calibration is not None
            if camera
            else app.vision_status_key() == "app.camera_lost"
        ):
            if time.monotonic() > end:
                raise TimeoutError(f"the {'filmed' if camera else 'blind'} kiosk did not get ready")
            app.step()
            time.sleep(0.02)
        yield app
    finally:
        app.close()


@contextmanager
def kiosks(tmp: Path) -> Iterator[dict[bool, App]]:
    """Both kiosks of :func:`kiosk`, by whether they have a camera."""
    with kiosk(tmp / "blind", False) as blind, kiosk(tmp / "table", True) as table:
        yield {False: blind, True: table}


def draw(app: App, scene: Scene, lang: str, size: tuple[int, int]) -> tuple[pygame.Surface, list[widgets.Drawn]]:
    """``scene`` in ``lang`` at ``size``: the picture and every text and box drawn on it."""
    app.lang = lang
    if scene.params.get("card_id") == LONGEST_FACT:
        deck = app.passport.deck
        card = max(deck.cards, key=lambda c: len(c.fact(lang)))
        scene = dataclasses.replace(scene, params={**scene.params, "card_id": card.id})
    screen = scene.make(app)
    surface = pygame.Surface(size)
    screen.layout(size)
    screen.draw(surface)  # asks for what is drawn off the UI thread: the stamp's preview
    end = time.monotonic() + READY_S
    while app.previews.pending() and time.monotonic() < end:
        time.sleep(0.01)
    with widgets.recording() as drawn:
        screen.layout(size)
        screen.draw(surface)
    return surface, drawn


def problems(drawn: list[widgets.Drawn], size: tuple[int, int]) -> list[str]:
    """What is wrong with the texts and boxes of one picture of ``size``: a text under the
    smallest size (:func:`kiosk.ui.theme.min_px`), cut or out of its box or off the screen; two
    boxes (buttons, banners, panels, pictures) overlapping; a text over a box it is not in; two
    texts overlapping (labels on the same picture excepted: they follow the cards)."""
    floor = theme.min_px(size)
    screen = pygame.Rect((0, 0), size)
    texts = [d for d in drawn if d.kind == "text" and d.content.strip()]
    boxes = [d for d in drawn if d.kind != "text"]
    out = []
    for t in texts:
        if t.px < floor:
            out.append(f"{t.content!r} is drawn at {t.px} px, under {floor}")
        if t.cut or not t.rect.contains(t.used):
            out.append(f"{t.content!r} does not fit its box {tuple(t.rect)} (at {t.px} px)")
        if not screen.contains(t.used):
            out.append(f"{t.content!r} runs off the screen ({tuple(t.used)})")
    for i, b in enumerate(boxes):
        if not screen.contains(b.rect):
            out.append(f"a {b.kind} runs off the screen ({tuple(b.rect)})")
        for other in boxes[i + 1 :]:
            if b.rect.colliderect(other.rect):
                out.append(f"a {b.kind} {tuple(b.rect)} overlaps a {other.kind} {tuple(other.rect)}")
    for t in texts:
        for b in boxes:
            if t.used.colliderect(b.rect) and not b.rect.contains(t.rect):
                out.append(f"{t.content!r} runs over a {b.kind} {tuple(b.rect)}")
    for i, t in enumerate(texts):
        home = _picture(t, boxes)
        for other in texts[i + 1 :]:
            if t.used.colliderect(other.used) and (home is None or home is not _picture(other, boxes)):
                out.append(f"{t.content!r} overlaps {other.content!r}")
    return out


def _picture(t: widgets.Drawn, boxes: list[widgets.Drawn]) -> widgets.Drawn | None:
    return next((b for b in boxes if b.kind == "picture" and b.rect.contains(t.rect)), None)


def main(out: Path, only: str = "") -> None:
    """Save every scene (whose name starts with ``only``) and print what is wrong with it."""
    import tempfile

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, kiosks(Path(tmp)) as apps:
        for scene in (s for s in scenes() if s.name.startswith(only)):
            for lang in LANGUAGES:
                for size in SIZES:
                    surface, drawn = draw(apps[scene.camera], scene, lang, size)
                    name = f"{scene.name}-{lang}-{size[0]}x{size[1]}"
                    pygame.image.save(surface, str(out / f"{name}.png"))
                    for problem in problems(drawn, size):
                        print(f"{name}: {problem}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), *sys.argv[2:3])
