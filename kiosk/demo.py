"""The headless (or windowed) demo: the whole app on the virtual table and a simulated printer.

A script plays both sides of the table: the virtual camera shows L'Affiche Belge cards one by
one (passport mode, one language after the other, with a hand passing over a card), then lays a
valid and a false Compromis government and a Klaverjassen trick on the printed mat, while an
autopilot presses the buttons a visitor would. Screenshots of every screen reached and every
printed stamp go to the output folder with a JSON summary that says what the virtual table
showed, what the kiosk confirmed (false confirmations included) and what the printer did.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from kiosk.i18n import LANGUAGES
from kiosk.render.timeline import FPS, SLIDE
from kiosk.ui.app import App

log = logging.getLogger(__name__)

PASSPORT_CARDS = ("3H", "3C", "KC", "JS", "AD", "7S", "10H", "JK1", "2C", "QD", "5S", "9H")
CARD_SECONDS = 3.5  # a card lies under the camera this long
GAP_SECONDS = 2.0  # then the table is empty this long
#: A valid government (Lier+Villers-la-Ville, Ieper+Nivelles, and a 4 lion + 4 coq) and a false one.
GOOD_GOVERNMENT = ("3H", "3C", "3S", "3D", "4H", "4D")
BAD_GOVERNMENT = ("5H", "5D", "6H", "6C", "8H", "8S")
TRICK = ("7D", "KD", "AD", "9D")


@dataclass
class Step:
    """One thing the autopilot does at ``at`` seconds: ``action(app)``, then maybe a screenshot.
    A step with ``ready`` waits for it up to ``patience`` seconds more (vision runs behind the
    clock on a busy machine: a passport shot must show the card just laid, not the one before)."""

    at: float
    action: Callable[[App], None]
    shot: str | None = None
    ready: Callable[[App], bool] | None = None
    patience: float = 0.0

    def due(self, app: App, elapsed: float) -> bool:
        if elapsed < self.at:
            return False
        return self.ready is None or self.ready(app) or elapsed >= self.at + self.patience


@dataclass
class DemoScript:
    """What the virtual camera films (frames at 30 fps) and what the autopilot presses."""

    table: list[dict[str, Any]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    def card(self, card_id: str, start: float, seconds: float, xy: tuple[float, float], angle: float = 0.0) -> None:
        at = int(start * FPS) + SLIDE
        self.table.append({"at": at, "card": card_id, "mat_xy": xy, "leave": at + int(seconds * FPS), "angle": angle})

    def hand(self, start: float, seconds: float, xy: tuple[float, float]) -> None:
        at = int(start * FPS)
        self.table.append({"at": at, "hand": xy, "leave": at + int(seconds * FPS)})

    def shown(self) -> list[tuple[str, int, int]]:
        """(card id, first frame in view, last frame in view) of every card the table shows."""
        return [(s["card"], s["at"] - SLIDE, s["leave"] + SLIDE) for s in self.table if "card" in s]


def build_script(seconds: float) -> DemoScript:
    """Passport for the first half (at least), the referee after, scaled to ``seconds``."""
    script = DemoScript()
    per_card = CARD_SECONDS + GAP_SECONDS
    referee_seconds = 26.0 if seconds >= 50 else 0.0
    n_cards = max(1, min(len(PASSPORT_CARDS), int((seconds - referee_seconds - 2) / per_card)))
    t = 1.5
    for i in range(n_cards):
        lang = LANGUAGES[i % len(LANGUAGES)]
        script.steps.append(Step(t - 1.0, _language(lang), None))
        script.card(PASSPORT_CARDS[i], t, CARD_SECONDS, (0.5, 0.5), angle=(i * 37) % 60 - 30)
        if i == 1:  # a hand passes over a resting card: no second stamp
            script.hand(t + 1.2, 0.8, (0.5, 0.45))
        script.steps.append(
            Step(
                t + 2.2,
                lambda app: None,
                f"passport-{PASSPORT_CARDS[i]}-{lang}",
                ready=_showing(PASSPORT_CARDS[i]),
                patience=1.2,
            )
        )
        t += per_card
    if not referee_seconds:
        return script
    script.steps.append(Step(t, _home("fr"), "attract-fr"))
    script.steps.append(Step(t + 0.5, lambda app: app.goto("menu"), None))
    script.steps.append(Step(t + 1.5, lambda app: None, "menu-fr"))
    script.steps.append(Step(t + 2.0, lambda app: app.goto("referee", game="compromis", players=2), None))
    t += 3.0
    _government(script, GOOD_GOVERNMENT, t, "referee-compromis-valid")
    script.steps.append(Step(t + 6.2, lambda app: _answer(app, {"next_round": ""}), None))
    t += 7.0
    _government(script, BAD_GOVERNMENT, t, "referee-compromis-invalid", seat=1)  # who starts round 2
    t += 7.0
    script.steps.append(Step(t, lambda app: app.set_language("nl"), None))
    script.steps.append(Step(t + 0.2, lambda app: app.goto("referee", game="klaverjassen", players=4), None))
    t += 1.5
    # Seat 3 deals, so seat 0 leads and chooses hearts; the camera cannot see either.
    script.steps.append(Step(t, lambda app: _answer(app, {"dealer": "3", "trump": "H"}), None))
    seats = [(0.5, 0.86), (0.12, 0.5), (0.5, 0.14), (0.88, 0.5)]
    for i, card_id in enumerate(TRICK):
        script.card(card_id, t + 0.5 + i * 1.0, 6.0 - i * 1.0, seats[i])
    script.steps.append(Step(t + 5.0, lambda app: None, "referee-klaverjassen-trick"))
    return script


def _showing(card_id: str) -> Callable[[App], bool]:
    """Whether the passport screen shows ``card_id``."""

    def showing(app: App) -> bool:
        return app.screen.name == "passport" and getattr(getattr(app.screen, "card", None), "id", None) == card_id

    return showing


def _language(lang: str) -> Callable[[App], None]:
    return lambda app: app.set_language(lang)


def _home(lang: str) -> Callable[[App], None]:
    """Back to the attract screen in ``lang``, as a visitor's idle time would."""

    def home(app: App) -> None:
        app.set_language(lang)
        app.goto("attract")

    return home


def _government(script: DemoScript, cards: tuple[str, ...], t: float, shot: str, seat: int = 0) -> None:
    """Six cards laid one after the other in a seat's zone (0: near side, 1: far side), then picked up."""
    y, angle = (0.86, 0.0) if seat == 0 else (0.14, 180.0)
    for i, card_id in enumerate(cards):  # one row across the player's side of the mat
        script.card(card_id, t + i * 0.3, 5.5 - i * 0.3, (0.115 + i * 0.154, y), angle)
    script.steps.append(Step(t + 4.0, lambda app: None, shot))


def _answer(app: App, answers: dict[str, str]) -> None:
    """Press the referee's buttons the way the table would: ``action -> chosen value``, in the
    order the referee asks (Klaverjassen: who deals, then the trump)."""
    session = getattr(app.screen, "session", None)
    for _ in range(len(answers) + 1):
        if session is None:
            return
        spec = next((s for s in session.inputs() if s.action in answers), None)
        if spec is None:
            return
        if spec.choices:
            app.screen.on_action("choice", {"spec": spec, "value": answers[spec.action]})
        else:
            app.screen.on_action("input", {"spec": spec})


def run_demo(app: App, script: DemoScript, seconds: float, out: Path, frame_index: Callable[[], int]) -> dict[str, Any]:
    """Run ``app`` for ``seconds`` following ``script``; returns the summary's table part."""
    out.mkdir(parents=True, exist_ok=True)
    pending = sorted(script.steps, key=lambda s: s.at)
    confirmed: list[tuple[str, int]] = []
    seen_screens: set[tuple[str, str]] = set()
    started = app.now()

    shots: list[str] = []  # named by a step, taken once the app has drawn what the step did
    taken = 0
    # Screens the script photographs itself; any other screen reached is photographed once per language.
    named = {step.shot.split("-")[0] for step in script.steps if step.shot}

    def shoot(name: str) -> None:
        nonlocal taken
        taken += 1
        _screenshot(app, out / f"{taken:02d}-{name}.png")

    def on_frame(app: App) -> None:
        # The surface shows what the last step drew: shots first, then the steps that change it.
        for name in shots:
            shoot(name)
        shots.clear()
        key = (app.screen.name, app.lang)
        if app.screen.name not in named and key not in seen_screens and app.now() - app.screen.entered_at > 0.6:
            seen_screens.add(key)
            shoot(f"{app.screen.name}-{app.lang}")
        elapsed = app.now() - started
        frame_no = frame_index()
        for view in app.last_views:
            confirmed.extend((e.card.card_id, frame_no) for e in view.events if e.kind == "confirmed")
        while pending and pending[0].due(app, elapsed):
            step = pending.pop(0)
            step.action(app)
            if step.shot:
                shots.append(step.shot)

    stats = app.run(seconds, on_frame=on_frame)
    vision_frames = getattr(app.services.vision, "frames", app.view.frame_index + 1)
    shown = script.shown()
    showings = [_which_shown(cid, f, shown) for cid, f in confirmed]
    false = [c for c, k in zip(confirmed, showings, strict=True) if k is None]
    return {
        "frames": stats.frames,
        "seconds": round(stats.seconds, 2),
        "fps": round(stats.fps, 1),
        "redraws": stats.draws,
        "vision_frames": vision_frames,
        "vision_fps": round(vision_frames / stats.seconds, 1) if stats.seconds else 0.0,
        "screens": sorted({name for name in stats.screens}),
        "errors": stats.errors,
        "cards_shown": len(shown),
        "cards_confirmed": len({k for k in showings if k is not None}),
        "confirmed": [cid for cid, _ in confirmed],
        "false_confirmations": len(false),
        "false_confirmed": [cid for cid, _ in false],
    }


def _which_shown(card_id: str, frame: int, shown: list[tuple[str, int, int]]) -> int | None:
    """Which of the film's ``shown`` cards a confirmation of ``card_id`` at ``frame`` (of the
    film: it loops) is, allowing half a second's lead and a second's lag; None: a false one. A
    card confirmed again as the film loops is one card shown, confirmed."""
    return next(
        (k for k, (sid, first, last) in enumerate(shown) if sid == card_id and first - FPS // 2 <= frame <= last + FPS),
        None,
    )


def _screenshot(app: App, path: Path) -> None:
    """A picture of the UI (the virtual table's frames, never a real camera's)."""
    pygame.image.save(app.surface, str(path))


def write_summary(path: Path, summary: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")


def wait_for(predicate: Callable[[], bool], timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()
