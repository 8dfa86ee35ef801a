"""The layers between the table and the screen (issue 54): ``kiosk/ui`` draws the state the
modes give and forwards inputs, so it imports no game engine and no referee adapter;
``kiosk/modes`` holds no drawing, so it imports no pygame."""

from __future__ import annotations

import ast
from pathlib import Path

KIOSK = Path(__file__).resolve().parent.parent / "kiosk"


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of its code."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def offending(package: str, banned: tuple[str, ...]) -> dict[str, list[str]]:
    out = {}
    for path in sorted((KIOSK / package).rglob("*.py")):
        bad = sorted(m for m in imported(path) if any(m == b or m.startswith(b + ".") for b in banned))
        if bad:
            out[str(path.relative_to(KIOSK))] = bad
    return out


def test_the_ui_reaches_games_and_referees_only_through_the_modes() -> None:
    assert offending("ui", ("kiosk.games", "kiosk.referee", "kiosk.passport")) == {}


def test_the_modes_draw_nothing() -> None:
    assert offending("modes", ("pygame",)) == {}


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    """The check reads every import, also one tucked inside a function."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from kiosk.games.huit import fits\n    import pygame\n")
    assert imported(sample) == {"kiosk.games.huit", "pygame"}
