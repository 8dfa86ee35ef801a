"""The vision package stays readable: small modules, short functions, its tuned numbers in one
parameter set, and comments that say what a rule does rather than which picture it was fitted to
or how it came about (``kiosk/vision/train`` builds the models and is not part of the pipeline)."""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import tokenize
from pathlib import Path

import pytest

from kiosk.vision import params

VISION = Path(__file__).resolve().parents[1] / "kiosk" / "vision"
MODULES = sorted(p for p in VISION.rglob("*.py") if "train" not in p.relative_to(VISION).parts)
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
#: A benchmark picture's name (IMG_1234, a held-out scene's seed 900123, a numbered photo file) or a
#: history ("used to", "flipped", "before -> after" figures) in a comment or docstring.
FITTED = re.compile(
    r"IMG_\d|\b9\d{5}\b|\w*\d{3,}\w*\.(jpe?g|png)\b|\bused to\b|\bflipped\b|\bsession \d|\d\s*(->|→)\s*\d",
    re.IGNORECASE,
)


def _prose(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring of ``source``."""
    out = [
        (t.start[0], t.string)
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None and node.body:
                out.append((node.body[0].lineno, doc))
    return out


def test_the_vision_modules_are_found() -> None:
    names = {p.name for p in MODULES}
    assert {"detect.py", "naming.py", "identify.py", "params.py"} <= names
    assert not any("train" in p.relative_to(VISION).parts for p in MODULES)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(VISION)))
def test_no_module_is_over_500_lines(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_MODULE_LINES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(VISION)))
def test_no_function_is_over_60_lines(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(VISION)))
def test_no_comment_names_a_benchmark_picture_or_a_history(path: Path) -> None:
    found = [
        f"line {line}: {m.group(0)!r}"
        for line, text in _prose(path.read_text(encoding="utf-8"))
        for m in FITTED.finditer(text)
    ]
    assert not found


def test_the_check_for_fitted_comments_can_fail() -> None:
    source = '"""Named IMG_2473."""\n# held-out 900125: 93.3 -> 97.2 %\nx = 1  # it used to be 2\n'
    assert len([m for _, text in _prose(source) for m in FITTED.finditer(text)]) == 4
    assert not [m for _, text in _prose('"""A card at 0.85 or surer."""\n') for m in FITTED.finditer(text)]


def test_the_detection_decision_and_reading_stages_keep_no_tuned_constants_of_their_own() -> None:
    """The stages read their numbers from :data:`kiosk.vision.params.PARAMS`: a module-level
    number in them is a tuned number outside the parameter set (private lookup tables and
    fixed geometry such as the card's aspect are named apart)."""
    stages = ["detect", "propose", "complete", "select", "naming", "looks", "card_shaped", "identify", "index_reader"]
    stages += ["pip_check", "look_rules", "shapes", "card_fit", "symmetry", "recognize", "cues"]
    found = []
    for name in stages:
        for node in ast.parse((VISION / f"{name}.py").read_text(encoding="utf-8")).body:
            targets = [
                t.id for t in getattr(node, "targets", [getattr(node, "target", None)]) if isinstance(t, ast.Name)
            ]
            value = getattr(node, "value", None)
            public = [t for t in targets if not t.startswith("_") and t not in ("CARD_ASPECT", "NEXT")]
            if public and isinstance(value, ast.Constant) and isinstance(value.value, float):
                found.append(f"{name}.{public[0]}")
    assert not found


def test_every_parameter_says_what_it_controls() -> None:
    """Each field of each group has a comment beside or above it in params.py."""
    lines = (VISION / "params.py").read_text(encoding="utf-8").splitlines()
    groups = [f.type for f in dataclasses.fields(params.VisionParams)]
    assert len(groups) >= 6
    silent = []
    for cls in [params.DetectorConfig, *[getattr(params, g) if isinstance(g, str) else g for g in groups]]:
        for field in dataclasses.fields(cls):
            at = next(i for i, line in enumerate(lines) if re.match(rf"\s+{field.name}: ", line))
            if "#" not in lines[at] and not lines[at - 1].strip().startswith("#"):
                silent.append(f"{cls.__name__}.{field.name}")
    assert not silent
