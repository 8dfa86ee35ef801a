"""The deck model and loader: ids, lookups, and clear errors for broken deck files."""

from pathlib import Path

import pytest

from kiosk.decks import load_deck, load_deck_file, parse_standard_id
from kiosk.errors import DeckError


def test_piquet_has_32_cards_7_to_ace():
    deck = load_deck("piquet-32")
    assert len(deck) == 32
    assert {c.rank for c in deck} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert deck["10H"].colour == "red" and deck["QS"].colour == "black"


def test_parse_standard_id():
    assert parse_standard_id("10H") == ("10", "H")
    with pytest.raises(ValueError):
        parse_standard_id("JK1")


@pytest.mark.parametrize(
    "text, needle",
    [
        ("id = 'x'\nbogus = 1\n", "bogus"),
        ("id = 'x'\n[[cards]]\nid='2Z'\nrank='2'\nsuit='Z'\n", "2Z"),
        ("id = 'x'\n[[cards]]\nid='AS'\nrank='A'\nsuit='S'\n[[cards]]\nid='AS'\nrank='A'\nsuit='S'\n", "duplicate"),
        ("id = = 'x'", "not valid TOML"),
        ("id = 'x'\n[[cards]]\nid='AS'\nrank='A'\nsuit='S'\nregion='mars'\n", "region"),
        ("id = 'x'\npips = 'no'\n[[cards]]\nid='AS'\nrank='A'\nsuit='S'\n", "pips"),
    ],
)
def test_broken_deck_file_names_file_and_key(tmp_path: Path, text: str, needle: str):
    path = tmp_path / "broken.toml"
    path.write_text(text)
    with pytest.raises(DeckError) as err:
        load_deck_file(path)
    assert str(path) in str(err.value) and needle in str(err.value)


def test_only_the_posters_have_no_pips():
    """The kiosk's own deck prints a poster on every card; any standard deck shows pips."""
    assert {d: load_deck(d).pips for d in ("standard-52", "piquet-32", "affiche-belge")} == {
        "standard-52": True,
        "piquet-32": True,
        "affiche-belge": False,
    }
    assert not load_deck("affiche-belge").subset(["2H", "3H"]).pips


def test_unknown_deck_lists_known_ones():
    with pytest.raises(DeckError, match="piquet-32"):
        load_deck("tarot-78")
