"""The renege prover: a renege is proven as soon as the cards a player shows later make it
certain, every renege is proven once the hand is known, and a fair player is never accused.
Plus the cheating-bot runs through both referees and the message catalogs they speak."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.cli import main
from kiosk.decks import SUITS
from kiosk.games import klaverjassen, manille
from kiosk.games.registry import get_game
from kiosk.games.renege import RenegeProver, breach
from kiosk.games.tricks import PIQUET, allowed
from kiosk.i18n import LANGUAGES, catalog
from kiosk.referee.cheating import simulate_cheating
from tests.quotes import Quotes

REPO = Path(__file__).resolve().parents[1]
klaverjassen_seed = Quotes("001_40fe8032c5f19f76.txt")
manille_seed = Quotes("004_7389259e18a88c97.txt")


def test_renege_is_proven_when_the_later_card_appears_not_before():
    duties = klaverjassen.duties([(0, "KS")], "H", "amsterdam")
    prover = RenegeProver()
    assert prover.record(1, 1, "7D", duties) == []  # maybe he had no spade
    assert prover.record(2, 1, "9D", []) == []  # a lead proves nothing
    found = prover.record(3, 1, "AS", [])  # he had the A♠ all along
    assert [(r.trick, r.seat, r.card, r.rule, r.proof) for r in found] == [(1, 1, "7D", "follow_suit", ("AS",))]
    assert prover.record(4, 1, "8S", []) == []  # proven once only
    assert prover.first_offender() == 1


def test_visible_cards_prove_at_once_and_pile_cards_prove_nothing_earlier():
    duties = manille.duties("AD", "S")
    prover = RenegeProver()
    found = prover.record(1, 0, "KD", duties, shown=["10D", "8S"])
    assert [(r.rule, r.proof) for r in found] == [("go_over", ("10D",))]
    prover = RenegeProver()
    assert prover.record(1, 0, "7C", duties, shown=[]) == []
    assert prover.record(2, 0, "QD", [], from_hand=False) == []  # was hidden under a pile then
    assert [r.card for r in prover.record(3, 0, "JD", [])] == ["7C"]  # a hand card: proof


def test_first_offender_is_the_earliest_play():
    prover = RenegeProver()
    follow = klaverjassen.duties([(0, "KS")], "H", "rotterdam")
    prover.record(1, 1, "7D", follow)
    prover.record(1, 2, "8D", klaverjassen.duties([(0, "KS"), (1, "7D")], "H", "rotterdam"))
    prover.reveal(2, "9S")
    prover.reveal(1, "10S")
    assert {r.seat for r in prover.proven} == {1, 2} and prover.first_offender() == 1


@settings(max_examples=150, deadline=None)
@given(
    st.permutations(PIQUET),
    st.integers(0, 3),
    st.sampled_from(SUITS),
    st.sampled_from(klaverjassen.VARIANTS),
    st.data(),
)
def test_klaverjassen_duties_never_accuse_a_legal_card_from_part_of_a_hand(deck, led, trump, variant, data):
    plays = [((i + 3) % 4, c) for i, c in enumerate(deck[:led])]
    hand = list(deck[led : led + 8])
    duties = klaverjassen.duties(plays, trump, variant)
    legal = set(allowed(hand, duties)[1])
    for card in hand:
        part = data.draw(st.sets(st.sampled_from(hand))) | {card}
        assert (breach(card, hand, duties) is None) == (card in legal)
        if card in legal:
            assert breach(card, part, duties) is None


@settings(max_examples=150, deadline=None)
@given(st.permutations(PIQUET), st.sampled_from((*SUITS, None)), st.data())
def test_manille_duties_never_accuse_a_legal_card_from_part_of_a_hand(deck, trump, data):
    lead, available = deck[0], list(deck[1:13])
    duties = manille.duties(lead, trump)
    legal = set(allowed(available, duties)[1])
    for card in available:
        part = data.draw(st.sets(st.sampled_from(available))) | {card}
        assert (breach(card, available, duties) is None) == (card in legal)
        if card in legal:
            assert breach(card, part, duties) is None


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6),
    st.floats(0.0, 1.0),
    st.sampled_from(klaverjassen.VARIANTS),
    st.sampled_from(klaverjassen.TRUMP_CHOICES),
    st.sampled_from(klaverjassen.ROEM_MODES),
)
def test_klaverjassen_cheaters_are_all_caught_and_nobody_else(seed, rate, variant, choice, roem):
    options = {"deals": 2, "variant": variant, "trump_choice": choice, "roem": roem}
    report = simulate_cheating("klaverjassen", 4, seed, options, rate)
    assert report["deals"] == 2 and report["flagged"] == report["reneges"]
    assert report["false_accusations"] == 0 and report["card_points_ok"]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.floats(0.0, 0.5))
def test_manille_cheaters_are_all_caught_and_nobody_else(seed, rate):
    report = simulate_cheating("manille", 2, seed, {"target": 15}, rate)
    assert report["flagged"] == report["reneges"]
    assert report["false_accusations"] == 0 and report["card_points_ok"]


def test_many_deals_every_renege_flagged_no_false_accusation():
    klaverjassen_seed("Niet bekennen terwijl je de gevraagde kleur wel bezit")
    manille_seed("Vérifiez une renonce selon la main et les sommets disponibles à cet instant.")
    for game, players, matches in (("klaverjassen", 4, 20), ("manille", 2, 30)):
        totals = {"deals": 0, "reneges": 0, "flagged": 0, "false_accusations": 0}
        for seed in range(matches):
            report = simulate_cheating(game, players, seed, {}, 0.05)
            assert report["card_points_ok"]
            for key in totals:
                totals[key] += report[key]
        assert totals["deals"] >= 200 and totals["reneges"] > 50
        assert totals["flagged"] == totals["reneges"] and totals["false_accusations"] == 0


def _used_keys() -> set[str]:
    """Every message key our modules can emit: the literals plus the families built from data."""
    sources = [
        "kiosk/games/tricks.py",
        "kiosk/games/renege.py",
        "kiosk/games/klaverjassen.py",
        "kiosk/games/klaverjassen_score.py",
        "kiosk/games/manille.py",
        "kiosk/referee/tricks.py",
        "kiosk/referee/klaverjassen.py",
        "kiosk/referee/manille.py",
    ]
    text = "\n".join((REPO / s).read_text(encoding="utf-8") for s in sources)
    keys = set(re.findall(r'"((?:klaverjassen|manille)\.[a-z_0-9]+)"', text))
    rules = {
        "klaverjassen": {"follow_suit", "go_over", "must_trump", "must_overtrump", "no_undertrump"},
        "manille": {"follow_suit", "go_over", "must_trump"},
    }
    for game, names in rules.items():
        keys |= {f"{game}.{kind}_{name}" for kind in ("rule", "renege") for name in names}
        keys |= {f"{game}.{name}" for name in ("not_playing_now", "out_of_turn", "input_not_now", "input_dealer")}
        keys |= {f"{game}.suit_{s}" for s in SUITS}
    keys |= {f"klaverjassen.seat_{n}" for n in range(1, 5)} | {"manille.seat_1", "manille.seat_2"}
    keys |= {"manille.input_contre", "manille.input_surcontre"}
    keys |= {f"{game}.option.{name}" for game in rules for name in get_game(game).menu_options}  # the menu's
    return keys


def test_every_message_key_exists_in_four_languages():
    texts = catalog()
    for key in _used_keys():
        assert key in texts, key
        assert all(texts[key].get(lang) for lang in LANGUAGES), key
    ours = {k for k in texts if k.startswith(("klaverjassen.", "manille."))}
    assert ours <= _used_keys() | {"manille.suit_none"}, ours - _used_keys()


def test_kiosk_simulate_cheat_reports_every_renege_caught(capsys):
    for game in ("klaverjassen", "manille"):
        assert main(["simulate", game, "--games", "2", "--cheat", "0.1", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["flagged"] == report["reneges"] > 0 and report["false_accusations"] == 0
