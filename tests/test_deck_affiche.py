"""The L'Affiche Belge deck data against every fact seed 000_de7fdf0eefacbd60.txt states."""

from __future__ import annotations

import pytest

from kiosk.decks import LANGUAGES, load_deck
from tests.quotes import seed_says

MINISTER_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")


@pytest.fixture(scope="module")
def deck():
    return load_deck("affiche-belge")


def test_54_cards_52_standard_and_two_manneken_pis(deck):
    seed_says("Le jeu de L’Affiche Belge est un vrai jeu de 54 cartes")
    assert len(deck) == 54
    standard = [c for c in deck if c.kind == "standard"]
    assert len(standard) == 52 and len({(c.rank, c.suit) for c in standard}) == 52
    jokers = [c for c in deck if c.kind == "joker"]
    assert [c.id for c in jokers] == ["JK1", "JK2"]
    assert all(c.name("fr") == "Manneken-Pis" for c in jokers)


@pytest.mark.parametrize(
    "card_id, nl_name, region",
    [
        ("3H", "Lier", "flanders"),
        ("3C", "Villers-la-Ville", "wallonia"),
        ("3S", "Ieper", "flanders"),
        ("3D", "Nijvel", "wallonia"),
        ("KC", "Antwerpen", "flanders"),
        ("KS", "Eupen", "wallonia"),
    ],
)
def test_choux_examples_name_the_suits(deck, card_id, nl_name, region):
    seed_says(
        "Exemples : Villers-la-Ville (3 ♣) + Ieper (3 ♠) · Lier (3 ♥) + Nivelles (3 ♦) · "
        "Anvers (Roi ♣) + Eupen (Roi ♠)."
    )
    assert deck[card_id].name("nl") == nl_name
    assert deck[card_id].region == region


def test_government_example_regions(deck):
    seed_says(
        "Exemple : Lier (3) + Villers-la-Ville (3), De Panne (4) + Arlon (4), Laeken (7) + Spa "
        "(7) : "
        "c’est un gouvernement !"
    )
    by_name = {c.name("nl"): c for c in deck}
    assert (by_name["De Panne"].rank, by_name["De Panne"].region) == ("4", "flanders")
    assert (by_name["Aarlen"].rank, by_name["Aarlen"].region) == ("4", "wallonia")
    assert (by_name["Laken"].rank, by_name["Laken"].region) == ("7", "brussels")
    assert (by_name["Spa"].rank, by_name["Spa"].region) == ("7", "wallonia")


def test_laeken_and_cinquantenaire_are_the_brussels_ministers(deck):
    seed_says("Bruxelles est bilingue : Laeken (7) et le Cinquantenaire (5) jouent au choix le rôle flamand ou wallon.")
    seed_says("Brussel is tweetalig: Laken (7) en het Jubelpark (5)")
    brussels = {
        (c.rank, c.name("fr"), c.name("nl")) for c in deck if c.rank in MINISTER_RANKS and c.region == "brussels"
    }
    assert brussels == {("7", "Laeken", "Laken"), ("5", "Cinquantenaire", "Jubelpark")}


@pytest.mark.parametrize("rank, only", [("2", "Gent"), ("10", "Leuven")])
def test_gent_and_leuven_are_the_only_flemish_of_their_value(deck, rank, only):
    seed_says("Gent (2) et Leuven (10) sont les seules villes flamandes de leur valeur.")
    flemish = [c.name("nl") for c in deck if c.rank == rank and c.region == "flanders"]
    assert flemish == [only]
    # The others are coqs (Brussels ministers are only Laeken and Cinquantenaire).
    assert {c.region for c in deck if c.rank == rank and c.name("nl") != only} == {"wallonia"}


@pytest.mark.parametrize("rank", ["3", "4", "5", "6", "7", "8", "9"])
def test_every_value_3_to_9_has_a_lion_and_a_coq(deck, rank):
    seed_says("Une paire = un lion + un coq de même valeur, de 2 à 10.")
    regions = [c.region for c in deck if c.rank == rank]
    assert "flanders" in regions and "wallonia" in regions


def test_jacks_are_the_specialities_with_the_choux_as_jack_of_spades(deck):
    seed_says("Les Choux de Bruxelles (Valet de ♠) restent seuls")
    seed_says("(Gaufre de Bruxelles, Cuberdon et Frites)")
    seed_says("(Brusselse wafel, Cuberdon en Frieten)")
    assert deck["JS"].name("fr") == "Choux de Bruxelles"
    assert deck["JS"].name("nl") == "Spruitjes"
    others = {deck[f"J{s}"].name("fr") for s in "CDH"}
    assert others == {"Gaufre de Bruxelles", "Cuberdon", "Frites"}
    assert {deck[f"J{s}"].name("nl") for s in "CDH"} == {"Brusselse wafel", "Cuberdon", "Frieten"}
    # The booklet gives the Jacks no region: only those named after Brussels carry its sign.
    assert [deck[f"J{s}"].region for s in "CDHS"] == [None, None, "brussels", "brussels"]


def test_aces_are_the_action_places(deck):
    seed_says("Une spécialité protège-t-elle aussi contre Binche ou les Ours ? Non, uniquement contre Malmedy")
    seed_says("Le Doudou, si la défausse est vide ?")
    seed_says("Andenne à 2 joueurs ?")
    aces = {c.name("fr") for c in deck if c.rank == "A"}
    assert aces == {"Doudou (Mons)", "Malmedy", "Binche", "Andenne"}
    assert deck["AS"].name("nl") == "Doudou (Bergen)"


@pytest.mark.parametrize(
    "card_id, names",
    [
        ("2H", ("Gand", "Gent", "Gent", "Ghent")),
        ("KC", ("Anvers", "Antwerpen", "Antwerpen", "Antwerp")),
        ("10H", ("Louvain", "Leuven", "Löwen", "Leuven")),
        ("KH", ("Liège", "Luik", "Lüttich", "Liège")),
    ],
)
def test_names_differ_by_language_where_they_do_in_life(deck, card_id, names):
    assert tuple(deck[card_id].name(lang) for lang in LANGUAGES[:2] + ("de", "en")) == names


def test_every_card_speaks_four_languages_and_every_place_has_a_province(deck):
    for card in deck:
        assert set(card.names) == set(LANGUAGES), card.id
        assert set(card.facts) == set(LANGUAGES), card.id
        assert all(len(t) > 20 and "\n" not in t for t in card.facts.values()), card.id
        if card.id in ("JD", "JC"):  # specialities of no one region: the cuberdon and the frites
            assert card.region is None and card.province is None
            continue
        assert card.region in ("flanders", "wallonia", "brussels"), card.id
        assert card.province in deck.provinces, card.id
    for key, labels in deck.provinces.items():
        assert set(labels) == set(LANGUAGES), key


def test_places_are_unique_except_the_two_manneken_pis(deck):
    places = [c.name("fr") for c in deck if c.kind == "standard"]
    assert len(places) == len(set(places)) == 52
    facts = [c.fact("en") for c in deck]
    assert len(set(facts)) == 54


def test_region_matches_province(deck):
    flemish = {"antwerp", "limburg", "east-flanders", "west-flanders", "flemish-brabant"}
    walloon = {"walloon-brabant", "hainaut", "liege", "luxembourg", "namur"}
    for card in deck:
        expected = {"flanders": flemish, "wallonia": walloon, "brussels": {"brussels"}, None: {None}}[card.region]
        assert card.province in expected, card.id
