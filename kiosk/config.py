"""One TOML configuration file, checked against typed sections with documented defaults.

Each section is a flat frozen dataclass; a field's ``metadata["doc"]`` is the comment that
``kiosk config init`` writes above it, and its ``metadata["limits"]`` (:class:`Limits`) the
range or the choices its value must keep to. The device sections come from the device modules
themselves (their settings dataclasses), so a new setting is declared once, where it is used.
A wrong key, type or value raises :class:`ConfigError` naming the file, the key and what is
allowed, at load: ``kiosk config check`` and ``kiosk run`` check alike. The ``[games.<id>]``
tables, a table's house rules per game, are checked against the game engines
(:mod:`kiosk.game_options`); ``config.games`` maps a game id to the options its table sets.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

from kiosk.errors import ConfigError
from kiosk.game_options import check_game_options
from kiosk.i18n import LANGUAGES
from kiosk.plugins import load_optional

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class Limits:
    """What a setting's value may be: numbers from ``lo`` to ``hi``; strings of ``length``
    characters (never a control character), one of ``choices`` or matching ``pattern``;
    lists of ``length`` items, each within the same number range or choices. ``choices`` may be
    a function, for sets known only at run time (the installed games)."""

    lo: float | None = None
    hi: float | None = None
    choices: Sequence[Any] | Callable[[], Sequence[Any]] | None = None
    length: tuple[int, int] = (0, 200)
    pattern: str | None = None
    pattern_doc: str = ""

    def allowed(self) -> Sequence[Any] | None:
        return self.choices() if callable(self.choices) else self.choices

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` (already of the field's type), ending with the value
        itself (``must be 1 to 8, not 0``), or None."""
        if isinstance(value, list):
            lo, hi = self.length
            if not lo <= len(value) <= hi:
                return f"must have {_span(lo, hi)} items, not {len(value)}"
            bad = next(((v, p) for v in value if (p := self._item_problem(v))), None)
            return f"items {bad[1]}, not {_shown(bad[0])}" if bad else None
        if isinstance(value, str) and not self.choices and not self.pattern:
            lo, hi = self.length
            if not lo <= len(value) <= hi:
                return f"must be {_span(lo, hi)} characters long, not {len(value)}"
        problem = self._item_problem(value)
        return f"{problem}, not {_shown(value)}" if problem else None

    def _item_problem(self, value: Any) -> str | None:
        if isinstance(value, str) and _CONTROL.search(value):
            return "must not hold control characters (NUL, newline, tab...)"
        allowed = self.allowed()
        if allowed is not None and value not in allowed:
            return f"must be one of {', '.join(map(str, allowed))}"
        if self.pattern is not None and not re.fullmatch(self.pattern, value, re.ASCII):
            return f"must be {self.pattern_doc or self.pattern}"
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                return f"must be {_span(self.lo, self.hi)}"
        return None

    def describe(self, items: bool = False) -> str:
        """The allowed values in words, for the template: ``1 to 8``, ``one of fr, nl``."""
        parts = []
        allowed = self.allowed()
        if allowed is not None:
            parts.append("one of " + ", ".join(repr(c) if isinstance(c, str) else str(c) for c in allowed))
        elif self.pattern is not None:
            parts.append(self.pattern_doc or self.pattern)
        elif self.lo is not None or self.hi is not None:
            parts.append(_span(self.lo, self.hi))
        if items:
            lo, hi = self.length
            return f"{_span(lo, hi)} items" + (", each " + parts[0] if parts else "")
        if not parts:
            parts.append(f"{_span(*self.length)} characters")
        return parts[0]


def _span(lo: float | None, hi: float | None) -> str:
    if lo is None:
        return f"at most {_num(hi)}"
    if hi is None:
        return f"at least {_num(lo)}"
    return f"{_num(lo)} to {_num(hi)}"


def _num(value: float | None) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def doc(
    text: str,
    default: Any = dataclasses.MISSING,
    *,
    lo: float | None = None,
    hi: float | None = None,
    choices: Sequence[Any] | Callable[[], Sequence[Any]] | None = None,
    length: tuple[int, int] = (0, 200),
    pattern: str | None = None,
    pattern_doc: str = "",
    **kw: Any,
) -> Any:
    """A dataclass field with a default, its documentation and its :class:`Limits`."""
    metadata = {"doc": text, "limits": Limits(lo, hi, choices, length, pattern, pattern_doc)}
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata=metadata, **kw)
    return field(default=default, metadata=metadata, **kw)


def _games() -> tuple[str, ...]:
    from kiosk.games.registry import BUILTIN

    return tuple(BUILTIN)


@dataclass(frozen=True)
class KioskSettings:
    name: str = doc("Name printed on stamps and shown on screen.", "Kiosk Belgica", length=(1, 40))
    language: str = doc("Default language: fr, nl, de or en.", "fr", choices=LANGUAGES)
    mode: str = doc("Start-up mode: passport or referee.", "passport", choices=("passport", "referee"))
    games: list[str] = doc(
        "Games offered in referee mode (ids); empty = every installed game.", [], choices=_games, length=(0, 50)
    )
    admin_pin: str = doc(
        "PIN of the operator menu (digits).", "1830", pattern="[0-9]{4,8}", pattern_doc="4 to 8 digits 0-9"
    )
    idle_seconds: float = doc("Back to the attract screen after this long without activity.", 90.0, lo=10, hi=3600)


@dataclass(frozen=True)
class CameraSettings:
    source: str = doc(
        "auto, picamera2, virtual, a device index (0), /dev/videoN, a video file or a folder.", "auto", length=(1, 4096)
    )
    width: int = doc("Capture width in pixels.", 1280, lo=160, hi=4608)
    height: int = doc("Capture height in pixels.", 720, lo=120, hi=3496)
    fps: int = doc("Frames per second asked of the camera.", 15, lo=1, hi=120)
    focus_m: float = doc(
        "Lens to table in metres, for a camera that focuses (Camera Module 3): the lens is set for that "
        "distance; 0 = continuous autofocus.",
        0.0,
        lo=0,
        hi=10,
    )
    mains_hz: int = doc(
        "Mains frequency of the room's lights, 50 (Europe) or 60: the Pi camera's exposure "
        "avoids their flicker; 0 = no flicker avoidance.",
        50,
        choices=(0, 50, 60),
    )


@dataclass(frozen=True)
class VisionSettings:
    confirm_frames: int = doc(
        "Frames a card must be seen (same identity, same place) before it counts.", 3, lo=1, hi=30
    )
    remove_seconds: float = doc("Seconds a confirmed card must be gone before it is removed.", 1.5, lo=0.1, hi=60)
    min_confidence: float = doc("Lowest identification confidence that counts as a sighting.", 0.6, lo=0, hi=1)
    outline_model: bool = doc(
        "Find cards with the outline model too (models/outline.tflite): needed on white or striped "
        "tables; on a plain dark table, false saves 10 to 40 % of the detector's CPU per frame.",
        True,
    )
    model_threads: int = doc(
        "Threads each TFLite model may use, 1 to 8: a Pi has four cores and the screen takes one.", 2, lo=1, hi=8
    )


@dataclass(frozen=True)
class PassportSettings:
    cooldown_seconds: float = doc(
        "The same card shown again within this time prints no new stamp.", 30.0, lo=0, hi=86400
    )
    show_seconds: float = doc("How long a place stays on screen after its card leaves.", 8.0, lo=1, hi=600)


@dataclass(frozen=True)
class DisplaySettings:
    fullscreen: bool = doc("Fullscreen (kiosk) or a window (laptop).", True)
    width: int = doc("Window size when not fullscreen.", 1024, lo=320, hi=4096)
    height: int = doc("Window height when not fullscreen.", 600, lo=240, hi=4096)
    fps: int = doc("Frame rate of the user interface.", 30, lo=1, hi=120)
    rotate: int = doc(
        "Degrees the picture is turned clockwise on the panel: 0, 90, 180 or 270 (Touch Display 2 "
        "is 720x1280 portrait: 90 for landscape).",
        0,
        choices=(0, 90, 180, 270),
    )


#: the section of per-game option tables, ``[games.klaverjassen]``
GAMES = "games"
#: section name -> settings class ("module:Class" for sections owned by optional device modules).
SECTIONS: dict[str, Any] = {
    "kiosk": KioskSettings,
    "camera": CameraSettings,
    "vision": VisionSettings,
    "passport": PassportSettings,
    "display": DisplaySettings,
    "printer": "kiosk.devices.printer:PrinterSettings",
    "lights": "kiosk.devices.lights:LightsSettings",
    "buttons": "kiosk.devices.buttons:ButtonsSettings",
}


def section_classes() -> dict[str, type]:
    out: dict[str, type] = {}
    for name, cls in SECTIONS.items():
        resolved = load_optional(cls) if isinstance(cls, str) else cls
        if resolved is not None:
            out[name] = resolved
    return out


class Config:
    """The loaded configuration: ``config.camera.source``, ``config.printer`` ... plus its path."""

    def __init__(self, sections: dict[str, Any], path: Path | None) -> None:
        self._sections = sections
        self.path = path

    def __getattr__(self, name: str) -> Any:
        try:
            return self._sections[name]
        except KeyError:
            raise AttributeError(name) from None

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {
            name: value if isinstance(value, dict) else dataclasses.asdict(value)
            for name, value in self._sections.items()
        }

    def replace(self, section: str, **changes: Any) -> Config:
        """A copy with some fields of one section changed (CLI flags override the file)."""
        sections = dict(self._sections)
        sections[section] = dataclasses.replace(sections[section], **changes)
        return Config(sections, self.path)


def default_path() -> Path:
    """$KIOSK_CONFIG, else /etc/kiosk/kiosk.toml when it exists, else ~/.config/kiosk/kiosk.toml."""
    if env := os.environ.get("KIOSK_CONFIG"):
        return Path(env)
    system = Path("/etc/kiosk/kiosk.toml")
    if system.exists():
        return system
    return Path.home() / ".config" / "kiosk" / "kiosk.toml"


def load_config(path: Path | None = None, *, required: bool = False) -> Config:
    """Read and check the file; a missing file gives the defaults unless ``required``."""
    path = path or default_path()
    raw: dict[str, Any] = {}
    if path.exists():
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read: {exc}") from exc
    elif required:
        raise ConfigError(f"{path}: no such configuration file (create one with `kiosk config init`)")
    return Config(_check(raw, path), path if path.exists() else None)


def _check(raw: dict[str, Any], path: Path) -> dict[str, Any]:
    from kiosk.games.registry import available_games

    classes = section_classes()
    unknown = set(raw) - set(classes) - {GAMES}
    if unknown:
        name = sorted(unknown)[0]
        raise ConfigError(f"{path}: unknown section [{name}]; known sections: {', '.join([*classes, GAMES])}")
    sections = {}
    for name, cls in classes.items():
        values = raw.get(name, {})
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: {name} must be a section [{name}], not a value")
        sections[name] = _build(cls, values, path, name)
    _check_values(sections, path)
    sections[GAMES] = check_game_options(raw.get(GAMES, {}), path, available_games())
    return sections


def _build(cls: type, values: dict[str, Any], path: Path, section: str) -> Any:
    hints = get_type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    for key, value in values.items():
        if key not in fields:
            raise ConfigError(f"{path}: unknown key {section}.{key}; known keys: {', '.join(sorted(fields))}")
        expected = hints[key]
        if not _type_ok(value, expected):
            raise ConfigError(
                f"{path}: {section}.{key} must be {_type_name(expected)}, not {type(value).__name__} {value!r}"
            )
        if expected is float and isinstance(value, int):
            values = {**values, key: float(value)}
    for f in dataclasses.fields(cls):
        limits = f.metadata.get("limits")
        value = values.get(f.name)
        if limits is not None and f.name in values:
            problem = limits.problem(value)
            if problem:
                raise ConfigError(f"{path}: {section}.{f.name} {problem}")
    return cls(**values)


def _shown(value: Any) -> str:
    """A value as an error message quotes it: at most 60 characters of it."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:50]}... ({len(text)} characters)"


def _type_ok(value: Any, expected: Any) -> bool:
    origin = get_origin(expected)
    if origin is list:
        (item,) = get_args(expected) or (Any,)
        return isinstance(value, list) and all(item is Any or _type_ok(v, item) for v in value)
    if origin is not None:  # a union such as int | None
        return any(_type_ok(value, arg) for arg in get_args(expected))
    if expected is type(None):
        return value is None
    if expected is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, expected)


def _type_name(expected: Any) -> str:
    origin = get_origin(expected)
    if origin is list:
        (item,) = get_args(expected) or (Any,)
        return f"a list of {_type_name(item)}"
    if origin is not None:
        return " or ".join(_type_name(a) for a in get_args(expected))
    return {str: "a string", int: "an integer", float: "a number", bool: "true or false", dict: "a table"}.get(
        expected, getattr(expected, "__name__", str(expected))
    )


def _check_values(sections: dict[str, Any], path: Path) -> None:
    """The rules that tie values together, past each key's own limits: a section's ``validate()``
    (the device sections': a printer width its profile takes, as many LED pins as the kind needs)."""
    c: CameraSettings = sections["camera"]
    if c.focus_m != 0 and not 0.1 <= c.focus_m <= 10:
        raise ConfigError(f"{path}: camera.focus_m must be 0 (autofocus) or 0.1 to 10 metres, not {c.focus_m}")
    for section in sections.values():
        validate = getattr(section, "validate", None)
        if validate is not None:
            try:
                validate()
            except ConfigError as exc:
                raise ConfigError(f"{path}: {exc}") from None


def template() -> str:
    """The commented default file that ``kiosk config init`` writes."""
    lines = [
        "# Card kiosk configuration. Every key is optional; the value shown is the default.",
        "# Check it with `kiosk config check`.",
        "",
    ]
    for name, cls in section_classes().items():
        lines.append(f"[{name}]")
        if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
            lines.append(f"# {cls.__doc__.strip().splitlines()[0]}")
        for f in dataclasses.fields(cls):
            text = f.metadata.get("doc")
            if text:
                lines.append(f"# {text}")
            if allowed := _allowed_words(f):
                lines.append(f"# allowed: {allowed}")
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc,operator]
            if default is None:  # TOML has no null: an unset optional key stays commented out
                lines.append(f"# {f.name} =")
            else:
                lines.append(f"{f.name} = {_toml_value(default)}")
        lines.append("")
    return "\n".join(lines + _games_template())


def _games_template() -> list[str]:
    """Each installed game's options, commented out: a table sets those its house rules change."""
    from kiosk.games.registry import available_games

    lines = ["# House rules per game: uncomment a game's table and the options to change."]
    for game_id, engine in available_games().items():
        if engine.default_options:
            lines.append(f"# [{GAMES}.{game_id}]")
            for key, default in engine.default_options.items():
                lines.append(f"# {key} =" + ("" if default is None else f" {_toml_value(default)}"))
    return lines + [""]


def _allowed_words(f: dataclasses.Field[Any]) -> str:
    """What ``kiosk config init`` says a key may hold: its range or choices, or true or false."""
    limits: Limits | None = f.metadata.get("limits")
    if f.type in (bool, "bool"):
        return "true or false"
    if limits is None:
        return ""
    return limits.describe(items=str(f.type).startswith("list"))


def dump_toml(sections: dict[str, dict[str, Any]]) -> str:
    """Sections of plain values (``Config.as_dict()``) as TOML text that loads back the same."""
    lines: list[str] = []
    for name, values in sections.items():
        lines += [f"[{name}]", *(f"{key} = {_toml_value(value)}" for key, value in values.items()), ""]
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):  # JSON's string escapes are TOML's basic-string escapes
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):  # an inline table
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} to TOML")
