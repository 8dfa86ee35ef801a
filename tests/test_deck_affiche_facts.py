"""The place texts of L'Affiche Belge, proofread against public sources (docs/affiche-belge.md
lists them per place). Each test pins a fact that was once wrong, in the four languages, so that
it cannot come back."""

from __future__ import annotations

import re
from datetime import date

import pytest

from kiosk.decks import LANGUAGES, load_deck
from kiosk.devices.stamp import place_lines, render_stamp


@pytest.fixture(scope="module")
def deck():
    return load_deck("affiche-belge")


def facts(deck, card_id: str) -> dict[str, str]:
    return {lang: deck[card_id].fact(lang) for lang in LANGUAGES}


def test_the_cinquantenaire_arcade_is_dated_1905_for_the_75th_not_fifty_years(deck):
    for lang, text in facts(deck, "5H").items():
        assert "1905" in text and "75" in text, lang
        assert "1880" in text, lang  # the park itself was laid out for the fiftieth
        assert "1830-1880" not in text, lang


def test_lier_clock_shows_the_moon_and_tides_among_others_in_french_too(deck):
    assert "entre autres" in deck["3H"].fact("fr")
    assert deck["3H"].name("fr") == "Lier"  # the booklet's name, not the exonym Lierre


def test_the_cuberdon_and_the_frites_belong_to_no_brussels_region(deck):
    # The booklet names the Jacks "specialities" and gives them no region; the cuberdon is a
    # Ghent sweet and frites are national. The Brussels-named Jacks keep Brussels.
    for card_id in ("JD", "JC"):
        assert deck[card_id].region is None and deck[card_id].province is None, card_id
    assert {deck[c].region for c in ("JS", "JH")} == {"brussels"}
    assert all(re.search(r"Gent|Ghent|Gand", t) for t in facts(deck, "JD").values())
    assert "de frituur" in deck["JC"].fact("nl") and "het frituur" not in deck["JC"].fact("nl")


def test_a_stamp_without_region_shows_no_brussels_sign_and_one_name(deck):
    assert place_lines(deck["JC"], "nl", bilingual=False) == ["Frieten"]
    frites = render_stamp("JC", day=date(2026, 12, 6), lang="fr")
    brussels_jack = render_stamp("JH", day=date(2026, 12, 6), lang="fr")
    assert frites.size == brussels_jack.size and frites.tobytes() != brussels_jack.tobytes()


def test_bastogne_nuts_is_dated_22_december_1944_not_christmas(deck):
    for lang, text in facts(deck, "4D").items():
        assert "22" in text and "1944" in text, lang
        assert not re.search(r"No[eë]l|Kerst|Christmas|Weihnacht", text), lang
        assert deck["4D"].name(lang) in text, lang  # the town is named in every language


def test_godfrey_was_one_of_the_leaders_of_the_first_crusade(deck):
    one_of = {
        "fr": "l'un des chefs",
        "nl": "een van de leiders",
        "en": "one of the leaders",
        "de": "einem der Anführer",
    }
    for lang, text in facts(deck, "2C").items():
        assert one_of[lang] in text, lang


def test_andenne_legend_explains_the_emblem_and_no_unconfirmed_nickname(deck):
    text = facts(deck, "AC")
    for lang, martel in {
        "fr": "Charles Martel",
        "nl": "Karel Martel",
        "en": "Charles Martel",
        "de": "Karl Martell",
    }.items():
        assert martel in text[lang], lang
    assert "les Ours" not in text["fr"] and "de Beren" not in text["nl"]
    assert "according to legend" in text["en"] and "after a local legend" not in text["en"]
    assert re.search(r": [A-ZÄÖÜ]", text["de"])  # a full sentence after the colon


@pytest.mark.parametrize(
    "card_id, right, wrong",
    [
        ("3S", "dem Menentor", "dem Menenpoort"),
        ("5C", "des Genevers", "des Genever,"),
        ("7H", ": Auf Englisch", ": auf Englisch"),
    ],
)
def test_german_grammar(deck, card_id, right, wrong):
    assert right in deck[card_id].fact("de") and wrong not in deck[card_id].fact("de")


def test_sprouts_many_languages_name_them_after_brussels_in_all_four(deck):
    many = {"fr": "Bien des langues", "nl": "Veel talen", "en": "Many languages", "de": "Viele Sprachen"}
    for lang, text in facts(deck, "JS").items():
        assert many[lang].lower() in text.lower(), lang


def test_manneken_pis_museum_shows_part_of_the_costumes(deck):
    for lang, text in facts(deck, "JK1").items():
        assert "140" in text, lang


def test_villers_ruins_among_the_largest_in_belgium_not_europe(deck):
    for lang, text in facts(deck, "3C").items():
        assert re.search(r"Belgique|België|Belgium|Belgiens", text), lang
        assert not re.search(r"Europ", text), lang


def test_namur_at_the_foot_of_its_citadel_and_mechelen_the_habsburg_netherlands(deck):
    namur = facts(deck, "10C")
    assert "aan de voet" in namur["nl"] and "am Fuß" in namur["de"] and "at the foot" in namur["en"]
    for lang, text in facts(deck, "QH").items():
        assert "habsb" in text.lower(), lang
