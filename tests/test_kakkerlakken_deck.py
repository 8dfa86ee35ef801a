"""The kakkerlakken-64 deck: 8 species x 8 cards, told apart by their artwork."""

from __future__ import annotations

from collections import Counter

from kiosk.decks import LANGUAGES, load_deck
from tests.quotes import Quotes

SPECIES = {"bat", "fly", "cockroach", "frog", "rat", "scorpion", "spider", "stinkbug"}
quote = Quotes("003_55f06b0835a16e62.txt")


def test_64_cards_of_8_species_with_names_in_four_languages() -> None:
    quote("64 cartes d'animaux (8 espèces différentes avec 8 cartes chacune")
    deck = load_deck("kakkerlakken-64")
    assert len(deck) == 64 and deck.identify_by == "face"
    assert Counter(c.species for c in deck) == {sp: 8 for sp in SPECIES}
    assert {c.id for c in deck if c.species == "rat"} == {f"rat-{n}" for n in range(1, 9)}
    for sp in SPECIES:
        assert set(deck.species[sp]) == set(LANGUAGES)
    assert deck["stinkbug-3"].name("fr") == "Punaise" and deck["cockroach-1"].name("nl") == "Kakkerlak"
