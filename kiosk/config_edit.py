"""Read or change one key of the configuration file in place (``kiosk config get|set``).

The installer sets the operator PIN and the printer's serial port this way; a venue sets a
game's house rule as ``games.<id>.<option>`` (``games.klaverjassen.pit_bonus``). Every other line,
comment included, stays as it was; the changed file is checked as ``kiosk config check`` does
before it replaces the old one (atomically), so a wrong value changes nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any, get_type_hints

from kiosk.config import GAMES, Config, _check, _toml_value, section_classes, template
from kiosk.devices.state import atomic_write
from kiosk.errors import ConfigError


def _game_field(key: str) -> tuple[str, str, Any, Any]:
    """``games.<id>.<option>`` -> (``games.<id>``, option, its type or None, its default)."""
    from kiosk.game_options import _kind
    from kiosk.games.registry import available_games

    _, game_id, name = (key.split(".", 2) + ["", ""])[:3]
    engines = available_games()
    if game_id not in engines:
        raise ConfigError(f"unknown key {key!r}: games.<id>.<option>, ids: {', '.join(engines)}")
    defaults = engines[game_id].default_options
    if name not in defaults:
        raise ConfigError(f"unknown key {key!r}; options of games.{game_id}: {', '.join(sorted(defaults))}")
    return f"{GAMES}.{game_id}", name, _kind(defaults[name]), defaults[name]


def _field(key: str) -> tuple[str, str, Any]:
    """``section.name`` -> (section, name, the field's type); ConfigError for an unknown key.
    A game's house rule is ``games.<id>.<option>`` (section ``games.<id>``; type None: any)."""
    if key.startswith(f"{GAMES}."):
        return _game_field(key)[:3]
    section, _, name = key.partition(".")
    classes = section_classes()
    if section not in classes:
        raise ConfigError(f"unknown key {key!r}: sections are {', '.join(classes)}")
    hints = get_type_hints(classes[section])
    if name not in hints:
        raise ConfigError(f"unknown key {key!r}; keys of [{section}]: {', '.join(sorted(hints))}")
    return section, name, hints[name]


def get_value(config: Config | None, key: str, default: bool = False) -> Any:
    """The value of ``section.name`` in ``config``, or its documented default (``default``, or
    no ``config``)."""
    if key.startswith(f"{GAMES}."):
        section, name, _, fallback = _game_field(key)
        if default or config is None:
            return fallback
        return config.games.get(section.partition(".")[2], {}).get(name, fallback)
    section, name, _ = _field(key)
    if default or config is None:
        spec = next(f for f in dataclasses.fields(section_classes()[section]) if f.name == name)
        return spec.default if spec.default is not dataclasses.MISSING else spec.default_factory()  # type: ignore[misc,operator]
    return getattr(getattr(config, section), name)


def shown(value: Any) -> str:
    """A value as ``kiosk config get`` prints it: strings bare, the rest as TOML."""
    return value if isinstance(value, str) else _toml_value(value)


def set_value(path: Path, key: str, text: str) -> Any:
    """Set ``section.name`` to ``text`` in the file at ``path`` (written from the template when
    missing) and return the value. ``text`` is taken as it is for a string key and read as a
    TOML value (``19200``, ``true``, ``[17, 27, 22]``) for the others."""
    section, name, kind = _field(key)
    if kind is str:
        value: Any = text
    else:
        try:
            value = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            if kind is not None:
                raise ConfigError(f"{key}: {text!r} is not a value (a number, true or false, [a, list])") from None
            value = text  # a game option that takes anything: the engine's check decides
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else template().splitlines()
    updated = "\n".join(_with_line(lines, section, name, f"{name} = {_toml_value(value)}")) + "\n"
    _check(tomllib.loads(updated), path)
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.stat() if path.exists() else None
    atomic_write(path, updated.encode("utf-8"))
    if old is not None:  # the new file keeps the old one's mode and group (it may hold the PIN)
        os.chmod(path, stat.S_IMODE(old.st_mode))
        with contextlib.suppress(PermissionError):
            os.chown(path, -1, old.st_gid)
    return value


def _with_line(lines: list[str], section: str, name: str, line: str) -> list[str]:
    """``lines`` with ``line`` in place of the key's line (set, or commented out as an unset
    optional key is) in ``[section]``, else added at the end of that section, else in a new one."""
    header = re.compile(rf"\s*\[{re.escape(section)}\]\s*(#.*)?")
    start = next((i for i, text in enumerate(lines) if header.fullmatch(text)), None)
    if start is None:
        return [*lines, "", f"[{section}]", line]
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    for pattern in (rf"\s*{re.escape(name)}\s*=.*", rf"\s*#\s*{re.escape(name)}\s*=.*"):
        at = next((i for i in range(start + 1, end) if re.fullmatch(pattern, lines[i])), None)
        if at is not None:
            return [*lines[:at], line, *lines[at + 1 :]]
    last = max((i for i in range(start, end) if lines[i].strip()), default=start)
    return [*lines[: last + 1], line, *lines[last + 1 :]]
