"""The math-pairs deck: levels a teacher picks, every pair unique within a level."""

from __future__ import annotations

import operator
import re

import pytest

from kiosk.decks import LANGUAGES, load_deck
from kiosk.games import mathpairs
from kiosk.render.mathcards import card_text, reads_otherwise_upside_down

DECK = load_deck("math-pairs")
OPS = {"+": operator.add, "-": operator.sub, "x": operator.mul}


def test_deck_is_identified_by_text_and_has_the_blank_pouilleux_card() -> None:
    assert DECK.identify_by == "text"
    blank = DECK["pouilleux"]
    assert blank.kind == "blank" and blank.value is None and not blank.levels
    assert set(blank.names) == set(LANGUAGES)


def test_levels_cover_additions_subtractions_tables_2_to_10_and_mixed() -> None:
    assert set(DECK.levels) == {"add-10", "add-20", "sub-20", "tables-2-4", "tables-5-7", "tables-8-10", "mixed"}
    for names in DECK.levels.values():
        assert set(names) == set(LANGUAGES)
    tables = {int(c.id.split("x")[0]) for c in DECK if c.is_calculation and "x" in c.id}
    assert tables == set(range(2, 11))


@pytest.mark.parametrize("card", [c for c in DECK if c.is_calculation], ids=lambda c: c.id)
def test_calculation_cards_say_what_their_id_computes(card) -> None:
    a, op, b = re.fullmatch(r"(\d+)([+\-x])(\d+)", card.id).groups()
    assert card.value == OPS[op](int(a), int(b)) >= 0
    assert card.expression == f"{a} {'×' if op == 'x' else op} {b}"
    assert card.kind == "math" and card.levels


def test_result_cards_are_numbers_without_expression() -> None:
    for card in DECK:
        if card.kind == "math" and not card.is_calculation:
            assert card.id == str(card.value) and card.expression is None


@pytest.mark.parametrize("level", list(DECK.levels))
def test_every_level_is_a_playable_deck_of_unique_pairs(level: str) -> None:
    cards = DECK.level_cards(level)
    calcs = [c for c in cards if c.is_calculation]
    results = [c for c in cards if not c.is_calculation]
    assert 10 <= len(calcs) <= 20
    assert len({c.value for c in calcs}) == len(calcs)  # no two calculations share a result
    assert sorted(c.value for c in calcs) == sorted(c.value for c in results)  # one result card each
    pairs = mathpairs.level_pairs(level)
    assert all(mathpairs.is_pair(a, b) for a, b in pairs)
    ids = [c.id for c in cards]
    assert all(mathpairs.partner(a, ids) == b for a, b in pairs)


def test_only_a_calculation_and_its_result_pair() -> None:
    assert mathpairs.is_pair("7x8", "56") and mathpairs.is_pair("56", "7x8")
    assert not mathpairs.is_pair("7x8", "54")
    assert not mathpairs.is_pair("6x9", "9x6")  # two calculations of equal value
    assert not mathpairs.is_pair("pouilleux", "56")
    assert mathpairs.pair_params("54", "7x8") == {"calculation": "7 × 8", "value": 56, "shown": "54"}


def test_bad_level_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown math level"):
        mathpairs.level_pairs("algebra")
    with pytest.raises(ValueError, match="cannot use 11"):
        mathpairs.level_pairs("add-10", 11)


def test_pair_watcher_judges_two_cards_laid_in_a_zone_once() -> None:
    w = mathpairs.PairWatcher()
    assert w.confirmed("seat0", "3+4") is None
    assert w.confirmed("seat1", "7") is None  # another zone
    check = w.confirmed("seat0", "8")
    assert check is not None and not check.ok and check.params["shown"] == "8"
    assert w.confirmed("seat0", "8") is None  # seen again: no second verdict
    w.removed("seat0", "8")
    check = w.confirmed("seat0", "7")
    assert check is not None and check.ok


def test_cards_that_read_as_another_card_upside_down_are_underlined() -> None:
    marked = {c.id for c in DECK if reads_otherwise_upside_down(card_text(c))}
    assert {"6", "9", "18", "81", "6x6", "9x9", "8x6", "9x8"} <= marked
    assert not marked & {"7", "56", "7x8", "12-5", "pouilleux", "11", "8"}
