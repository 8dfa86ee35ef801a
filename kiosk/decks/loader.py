"""Load the deck files in ``kiosk/decks/data/`` into :class:`Deck` objects.

File format (TOML, one file per deck, named ``<deck-id>.toml``)::

    id = "piquet-32"
    identify_by = "index"            # or "face", "text"
    pips = true                      # number cards show their suit in pips (false: posters)
    description = "..."
    names = { fr = "...", nl = "...", de = "...", en = "..." }

    # Either a rank x suit grid, expanded to standard cards ...
    ranks = ["7", "8", "9", "10", "J", "Q", "K", "A"]
    suits = ["C", "D", "H", "S"]

    # ... or explicit cards (any Card field; names/facts are {lang = text} tables) ...
    [[cards]]
    id = "2H"
    kind = "standard"                 # default "standard" when rank and suit are given
    rank = "2"
    suit = "H"
    region = "flanders"
    province = "east-flanders"        # a key of [provinces]
    names = { fr = "Gand", nl = "Gent", de = "Gent", en = "Ghent" }
    facts = { fr = "...", nl = "...", en = "...", de = "..." }

    # ... or species x copies (animal decks): ids "<species>-1" .. "<species>-<copies>".
    copies = 8
    [species.rat]
    fr = "Rat"

    [provinces.east-flanders]        # labels the cards refer to by key
    fr = "Flandre-Orientale"

    [levels.add-20]                   # math levels; a card lists its levels = ["add-20"]
    fr = "Additions jusqu'à 20"

Errors name the file and the key, never a bare KeyError.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kiosk.decks.model import LANGUAGES, RANKS, REGIONS, SUITS, Card, Deck
from kiosk.errors import DeckError

DECK_IDS: tuple[str, ...] = ("affiche-belge", "standard-52", "piquet-32", "kakkerlakken-64", "math-pairs")
_KINDS = frozenset({"standard", "joker", "animal", "math", "blank"})
_CARD_KEYS = frozenset(
    {"id", "kind", "rank", "suit", "names", "region", "province", "facts", "species", "expression", "value", "levels"}
)
_TOP_KEYS = frozenset(
    {
        "id",
        "identify_by",
        "pips",
        "description",
        "names",
        "ranks",
        "suits",
        "cards",
        "copies",
        "species",
        "provinces",
        "levels",
    }
)


def _data_dir() -> Path:
    return Path(str(resources.files("kiosk.decks") / "data"))


def deck_ids() -> tuple[str, ...]:
    """The deck ids shipped with the kiosk, in the design's order."""
    return DECK_IDS


@cache
def load_deck(deck_id: str) -> Deck:
    """Load and validate a shipped deck; cached because decks never change at run time."""
    path = _data_dir() / f"{deck_id}.toml"
    if not path.is_file():
        known = ", ".join(DECK_IDS)
        raise DeckError(f"unknown deck {deck_id!r} (no file {path}); known decks: {known}")
    return load_deck_file(path)


def load_deck_file(path: Path) -> Deck:
    """Parse one deck file; every problem is a DeckError naming ``path`` and the key."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(f"{path}: cannot read deck file: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{path}: not valid TOML: {exc}") from exc
    return _build(raw, path)


def _labels(raw: Any, path: Path, key: str) -> Mapping[str, Mapping[str, str]]:
    if raw is None:
        return MappingProxyType({})
    if not isinstance(raw, dict):
        raise DeckError(f"{path}: [{key}] must be a table of {{lang = text}} tables")
    return MappingProxyType({k: _texts(v, path, f"{key}.{k}") for k, v in raw.items()})


def _texts(raw: Any, path: Path, key: str) -> Mapping[str, str]:
    if raw is None:
        return MappingProxyType({})
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise DeckError(f"{path}: {key} must be a table of language = text")
    unknown = set(raw) - set(LANGUAGES)
    if unknown:
        raise DeckError(f"{path}: {key} has unknown language(s) {sorted(unknown)}; use {LANGUAGES}")
    return MappingProxyType(dict(raw))


def _build(raw: dict[str, Any], path: Path) -> Deck:
    unknown = set(raw) - _TOP_KEYS
    if unknown:
        raise DeckError(f"{path}: unknown key(s) {sorted(unknown)}; expected some of {sorted(_TOP_KEYS)}")
    deck_id = raw.get("id")
    if not isinstance(deck_id, str) or not deck_id:
        raise DeckError(f"{path}: 'id' must be a non-empty string")
    identify_by = raw.get("identify_by", "index")
    if identify_by not in ("index", "face", "text"):
        raise DeckError(f"{path}: 'identify_by' must be 'index', 'face' or 'text', not {identify_by!r}")
    pips = raw.get("pips", True)
    if not isinstance(pips, bool):
        raise DeckError(f"{path}: 'pips' must be true or false, not {pips!r}")
    species = _labels(raw.get("species"), path, "species")
    provinces = _labels(raw.get("provinces"), path, "provinces")
    levels = _labels(raw.get("levels"), path, "levels")

    cards: list[Card] = []
    if "ranks" in raw or "suits" in raw:
        for suit in raw.get("suits", SUITS):
            for rank in raw.get("ranks", RANKS):
                cards.append(_card({"id": f"{rank}{suit}", "rank": rank, "suit": suit}, deck_id, path, 0))
    if "copies" in raw:
        copies = raw["copies"]
        if not isinstance(copies, int) or copies < 1:
            raise DeckError(f"{path}: 'copies' must be a positive integer")
        for name in species:
            for n in range(1, copies + 1):
                cards.append(Card(id=f"{name}-{n}", deck=deck_id, kind="animal", species=name, names=species[name]))
    for i, entry in enumerate(raw.get("cards", [])):
        if not isinstance(entry, dict):
            raise DeckError(f"{path}: cards[{i}] must be a table")
        cards.append(_card(entry, deck_id, path, i))

    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise DeckError(f"{path}: duplicate card id {card.id!r}")
        seen.add(card.id)
        if card.province is not None and card.province not in provinces:
            raise DeckError(f"{path}: card {card.id}: province {card.province!r} is not in [provinces]")
        for level in card.levels:
            if level not in levels:
                raise DeckError(f"{path}: card {card.id}: level {level!r} is not in [levels]")
    if not cards:
        raise DeckError(f"{path}: the deck has no cards")
    return Deck(
        id=deck_id,
        names=_texts(raw.get("names"), path, "names"),
        identify_by=identify_by,
        cards=tuple(cards),
        description=str(raw.get("description", "")),
        pips=pips,
        provinces=provinces,
        species=species,
        levels=levels,
    )


def _card(entry: dict[str, Any], deck_id: str, path: Path, index: int) -> Card:
    where = f"cards[{index}]" + (f" ({entry['id']})" if "id" in entry else "")
    unknown = set(entry) - _CARD_KEYS
    if unknown:
        raise DeckError(f"{path}: {where}: unknown key(s) {sorted(unknown)}")
    card_id = entry.get("id")
    if not isinstance(card_id, str) or not card_id:
        raise DeckError(f"{path}: {where}: 'id' must be a non-empty string")
    rank, suit = entry.get("rank"), entry.get("suit")
    kind = entry.get("kind", "standard" if rank is not None else None)
    if kind not in _KINDS:
        raise DeckError(f"{path}: {where}: 'kind' must be one of {sorted(_KINDS)}, not {kind!r}")
    if kind == "standard":
        if rank not in RANKS or suit not in SUITS:
            raise DeckError(f"{path}: {where}: standard card needs rank in {RANKS} and suit in {SUITS}")
        if card_id != f"{rank}{suit}":
            raise DeckError(f"{path}: {where}: id must be {rank}{suit}")
    region = entry.get("region")
    if region is not None and region not in REGIONS:
        raise DeckError(f"{path}: {where}: 'region' must be one of {REGIONS}, not {region!r}")
    value = entry.get("value")
    if value is not None and not isinstance(value, int):
        raise DeckError(f"{path}: {where}: 'value' must be an integer")
    levels = entry.get("levels", [])
    if not isinstance(levels, list) or not all(isinstance(x, str) for x in levels):
        raise DeckError(f"{path}: {where}: 'levels' must be a list of level keys")
    return Card(
        id=card_id,
        deck=deck_id,
        kind=kind,
        rank=rank,
        suit=suit,
        names=_texts(entry.get("names"), path, f"{where}.names"),
        region=region,
        province=entry.get("province"),
        facts=_texts(entry.get("facts"), path, f"{where}.facts"),
        species=entry.get("species"),
        expression=entry.get("expression"),
        value=value,
        levels=tuple(levels),
    )
