"""The ``[games.<id>]`` tables of the configuration: a table's house rules for each game.

A key is one of the engine's ``default_options`` and takes a value of its default's type; the
value itself is checked by the engine, which is built once with the options as a game would be
(its own check is the only one, so the config and a game never disagree).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kiosk.errors import ConfigError


def check_game_options(raw: Any, path: Path, engines: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``raw`` (the file's ``[games]`` table) checked against ``engines`` (game id -> engine class):
    game id -> the options the file sets. ConfigError names the file, the key and what is allowed."""
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: games must be tables [games.<id>], not a value")
    out = {}
    for game_id, options in raw.items():
        if game_id not in engines:
            raise ConfigError(f"{path}: unknown game [games.{game_id}]; installed games: {', '.join(engines)}")
        if not isinstance(options, dict):
            raise ConfigError(f"{path}: games.{game_id} must be a table [games.{game_id}], not a value")
        out[game_id] = _checked(engines[game_id], options, path, f"games.{game_id}")
    return out


def _checked(engine: Any, options: dict[str, Any], path: Path, section: str) -> dict[str, Any]:
    from kiosk.config import _type_name, _type_ok

    defaults = engine.default_options
    for key, value in options.items():
        if key not in defaults:
            raise ConfigError(f"{path}: unknown key {section}.{key}; known keys: {', '.join(sorted(defaults))}")
        kind = _kind(defaults[key])
        if kind is not None and not _type_ok(value, kind):
            raise ConfigError(
                f"{path}: {section}.{key} must be {_type_name(kind)}, not {type(value).__name__} {value!r}"
            )
    options = {k: float(v) if _kind(defaults[k]) is float else v for k, v in options.items()}
    try:
        engine(engine.max_players, random.Random(0), options)
    except (ValueError, TypeError) as exc:
        message = str(exc).removeprefix(f"{engine.game_id}: ")
        raise ConfigError(f"{path}: {section}: {message}") from None
    return options


def _kind(default: Any) -> type | None:
    """The type a key takes, from its default (None: any, the engine decides)."""
    if isinstance(default, Mapping):
        return dict
    return next((t for t in (bool, int, float, str) if isinstance(default, t)), None)
