"""The demo's screenshots show the screen their file name says, in its language, and no two are
the same picture (seed 000_de7fdf0eefacbd60.txt: the place appears when a card is shown)."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pygame
import pytest

import kiosk.demo as demo
from kiosk.config import load_config
from kiosk.runtime import build_services
from kiosk.ui.app import App


def _app(tmp_path: Path, script: demo.DemoScript, fullscreen_in_config: bool = False) -> App:
    config = load_config(tmp_path / "absent.toml").replace("display", fullscreen=fullscreen_in_config)
    config = config.replace("kiosk", idle_seconds=600.0)
    printer = dataclasses.replace(config.printer, backend="dummy", strip_pause_s=0.0)
    (tmp_path / "state").mkdir()
    services = build_services(
        config,
        state=tmp_path / "state",
        camera="virtual",
        printer=printer,
        source_options={"deck_id": "affiche-belge", "script": script.table, "mat": True, "realtime": True},
        demo=True,
    )
    return App(config, services, size=(800, 480), fullscreen=False)


def test_escape_closes_a_windowed_run_whatever_the_config_says(tmp_path: Path):
    app = _app(tmp_path, demo.DemoScript(), fullscreen_in_config=True)  # `kiosk run --window`
    try:
        assert app.step()
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
        assert app.step() is False
    finally:
        app.close()


@pytest.mark.slow
def test_each_screenshot_shows_what_its_name_says(tmp_path: Path, monkeypatch):
    script = demo.build_script(20)  # three cards, in French, Dutch and German
    app = _app(tmp_path, script)
    taken: list[tuple[str, tuple[str, str], str | None]] = []
    real = demo._screenshot

    def spy(app: App, path: Path) -> None:
        card = getattr(getattr(app.screen, "card", None), "id", None)
        taken.append((path.name, app.shown, card))
        real(app, path)

    monkeypatch.setattr(demo, "_screenshot", spy)
    try:
        demo.run_demo(
            app, script, 20, tmp_path / "out", lambda: getattr(getattr(app.services.vision, "source", None), "index", 0)
        )
    finally:
        app.close()
    names = [name for name, _, _ in taken]
    assert any("-passport-3C-nl" in n for n in names), names
    for name, (screen, lang), card in taken:
        stem = name[3:-4]  # "04-passport-3C-nl.png" -> "passport-3C-nl"
        assert stem.startswith(screen) and stem.endswith(f"-{lang}"), (name, screen, lang)
        if stem.startswith("passport-") and stem.count("-") == 2:
            assert stem.split("-")[1] == card, (name, card)
    pictures = [hashlib.sha256((tmp_path / "out" / n).read_bytes()).hexdigest() for n in names]
    assert len(set(pictures)) == len(pictures), names
