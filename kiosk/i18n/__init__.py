"""Translations of every message key into French, Dutch, German and English.

Catalogs are TOML files in ``kiosk/i18n/catalogs/``, one per domain (``app.toml``,
``compromis.toml`` ...), so each part of the kiosk owns its messages::

    ["compromis.government_ok"]
    fr = "Gouvernement formé par {player} !"
    nl = "{player} vormt een regering!"
    de = "..."
    en = "..."

Keys are unique across all catalogs; parameters use ``str.format`` names. A test fails when a
key lacks a language or when code uses a key no catalog defines.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("fr", "nl", "de", "en")
DEFAULT_LANGUAGE = "fr"


def _catalog_dir() -> Path:
    return Path(str(resources.files("kiosk.i18n") / "catalogs"))


@cache
def catalog() -> dict[str, dict[str, str]]:
    """key -> {lang: text}, merged from every catalog file; a key defined twice is an error."""
    merged: dict[str, dict[str, str]] = {}
    for path in sorted(_catalog_dir().glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for key, texts in data.items():
            if key in merged:
                raise ValueError(f"{path.name}: message key {key!r} is already defined elsewhere")
            if not isinstance(texts, dict):
                raise ValueError(f"{path.name}: {key!r} must be a table of language = text")
            merged[key] = texts
    return merged


def translate(key: str, lang: str = DEFAULT_LANGUAGE, **params: Any) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in.

    Missing language: English, then French. Unknown key: the key itself (so a screen still shows
    something), which the catalog test turns into a failure.
    """
    texts = catalog().get(key)
    if texts is None:
        return key
    text = texts.get(lang) or texts.get("en") or texts.get("fr") or key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text
