"""Every message key has all four languages, every key used in the code exists, formats agree."""

import re
import string
from pathlib import Path

import pytest

from kiosk.i18n import LANGUAGES, catalog, translate

PACKAGE = Path(__file__).resolve().parents[1] / "kiosk"
KEY_RE = re.compile(
    r"""["']((?:app|devices|compromis|choux|bataille|huit|president|patience|klaverjassen|manille|"""
    r"""tricks|kakkerlakken|pouilleux|cache_cache|recto_verso|memory|mathpairs|passport|howto)\.[a-z0-9_.\-]+)["']"""
)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(catalog()))
def test_key_has_every_language_and_same_parameters(key: str):
    texts = catalog()[key]
    missing = [lang for lang in LANGUAGES if not texts.get(lang, "").strip()]
    assert not missing, f"{key} lacks {missing}"
    params = {lang: _fields(texts[lang]) for lang in LANGUAGES}
    assert len({frozenset(p) for p in params.values()}) == 1, f"{key}: parameters differ {params}"


def test_every_key_used_in_code_is_translated():
    used: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        for key in KEY_RE.findall(path.read_text(encoding="utf-8")):
            if not key.endswith(".") and "{" not in key:
                used.setdefault(key, path)
    known = catalog()
    dynamic_prefixes = ("app.game.", "app.region.", "app.mode.")
    missing = {
        k: str(p.relative_to(PACKAGE))
        for k, p in used.items()
        if k not in known and not k.startswith(dynamic_prefixes) and not k.endswith(tuple("._"))
    }
    assert not missing, f"keys used but not in any catalog: {missing}"


def test_translate_fills_parameters_and_falls_back():
    assert translate("app.menu.players", "nl", n=3) == "Spelers: 3"
    assert translate("no.such.key", "fr") == "no.such.key"
