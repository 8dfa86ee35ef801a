"""One TOML configuration file, checked against typed sections with documented defaults.

Each section is a flat frozen dataclass; a field's ``metadata["doc"]`` is the comment that
``kiosk config init`` writes above it. The device sections come from the device modules
themselves (their settings dataclasses), so a new setting is declared once, where it is used.
A wrong key or type raises :class:`ConfigError` naming the file, the key and what was expected.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

from kiosk.errors import ConfigError
from kiosk.plugins import load_optional


def doc(text: str, default: Any = dataclasses.MISSING, **kw: Any) -> Any:
    """A dataclass field with a default and its documentation."""
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata={"doc": text}, **kw)
    return field(default=default, metadata={"doc": text}, **kw)


@dataclass(frozen=True)
class KioskSettings:
    name: str = doc("Name printed on stamps and shown on screen.", "Kiosk Belgica")
    language: str = doc("Default language: fr, nl, de or en.", "fr")
    mode: str = doc("Start-up mode: passport or referee.", "passport")
    games: list[str] = doc("Games offered in referee mode (ids); empty = every installed game.", [])
    admin_pin: str = doc("PIN of the operator menu (digits).", "1830")
    idle_seconds: float = doc("Back to the attract screen after this long without activity.", 90.0)


@dataclass(frozen=True)
class CameraSettings:
    source: str = doc("auto, picamera2, virtual, a device index (0), /dev/videoN, a video file or a folder.", "auto")
    width: int = doc("Capture width in pixels.", 1280)
    height: int = doc("Capture height in pixels.", 720)
    fps: int = doc("Frames per second asked of the camera.", 15)


@dataclass(frozen=True)
class VisionSettings:
    confirm_frames: int = doc("Frames a card must be seen (same identity, same place) before it counts.", 3)
    remove_seconds: float = doc("Seconds a confirmed card must be gone before it is removed.", 1.5)
    min_confidence: float = doc("Lowest identification confidence that counts as a sighting.", 0.6)
    outline_model: bool = doc(
        "Find cards with the outline model too (models/outline.tflite): needed on white or striped "
        "tables; on a plain dark table, false saves 10 to 40 % of the detector's CPU per frame.",
        True,
    )
    model_threads: int = doc(
        "Threads each TFLite model may use, 1 to 8: a Pi has four cores and the screen takes one.", 2
    )


@dataclass(frozen=True)
class PassportSettings:
    cooldown_seconds: float = doc("The same card shown again within this time prints no new stamp.", 30.0)
    show_seconds: float = doc("How long a place stays on screen after its card leaves.", 8.0)


@dataclass(frozen=True)
class DisplaySettings:
    fullscreen: bool = doc("Fullscreen (kiosk) or a window (laptop).", True)
    width: int = doc("Window size when not fullscreen.", 1024)
    height: int = doc("Window height when not fullscreen.", 600)
    fps: int = doc("Frame rate of the user interface.", 30)


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
        return {name: dataclasses.asdict(value) for name, value in self._sections.items()}

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
    classes = section_classes()
    unknown = set(raw) - set(classes)
    if unknown:
        name = sorted(unknown)[0]
        raise ConfigError(f"{path}: unknown section [{name}]; known sections: {', '.join(classes)}")
    sections = {}
    for name, cls in classes.items():
        values = raw.get(name, {})
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: {name} must be a section [{name}], not a value")
        sections[name] = _build(cls, values, path, name)
    _check_values(sections, path)
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
    return cls(**values)


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
    return {str: "a string", int: "an integer", float: "a number", bool: "true or false"}.get(
        expected, getattr(expected, "__name__", str(expected))
    )


def _check_values(sections: dict[str, Any], path: Path) -> None:
    from kiosk.i18n import LANGUAGES

    k: KioskSettings = sections["kiosk"]
    if k.language not in LANGUAGES:
        raise ConfigError(f"{path}: kiosk.language must be one of {', '.join(LANGUAGES)}, not {k.language!r}")
    if k.mode not in ("passport", "referee"):
        raise ConfigError(f"{path}: kiosk.mode must be passport or referee, not {k.mode!r}")
    if not k.admin_pin.isdigit() or not 4 <= len(k.admin_pin) <= 8:
        raise ConfigError(f"{path}: kiosk.admin_pin must be 4 to 8 digits")
    v: VisionSettings = sections["vision"]
    if not 1 <= v.model_threads <= 8:
        raise ConfigError(f"{path}: vision.model_threads must be 1 to 8, not {v.model_threads}")
    from kiosk.games.registry import BUILTIN

    for game in k.games:
        if game not in BUILTIN:
            raise ConfigError(f"{path}: kiosk.games: unknown game {game!r}; known: {', '.join(BUILTIN)}")


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
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc,operator]
            if default is None:  # TOML has no null: an unset optional key stays commented out
                lines.append(f"# {f.name} =")
            else:
                lines.append(f"{f.name} = {_toml_value(default)}")
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to TOML")
