"""The Klaverjassen referee at a table: seat zones, order of play, tricks and roem, the score
sheet, and reneges proven from later cards. Seed: 001_40fe8032c5f19f76.txt."""

from __future__ import annotations

import random

import pytest

from kiosk.games.base import Ruling
from kiosk.games.klaverjassen import ChooseTrump, ClaimRoem, Klaverjassen, Pass
from kiosk.games.tricks import PIQUET
from kiosk.modes.games import game_info
from kiosk.modes.referee import RefereeMode
from kiosk.referee.base import Expect, Observation
from kiosk.referee.klaverjassen import KlaverjassenReferee
from kiosk.referee.registry import available_referees
from tests.quotes import Quotes

SEED = "001_40fe8032c5f19f76.txt"
quote = Quotes(SEED)


def lay(ref: KlaverjassenReferee, seat: int, card: str) -> list[str]:
    return [r.key for r in ref.observe(Observation("confirmed", card, f"seat{seat}"))]


def started(trump: str = "H", **options) -> KlaverjassenReferee:
    """Seat 3 deals, seat 0 names ``trump``: seat 0 leads."""
    ref = KlaverjassenReferee(4, options)
    ref.on_input("dealer", choice="3")
    ref.on_input("trump", choice=trump)
    return ref


def test_registered_with_a_seat_zone_per_player_round_the_centre():
    assert available_referees()["klaverjassen"] is KlaverjassenReferee
    layout = KlaverjassenReferee.layout(4)
    assert set(layout.names) == {"seat0", "seat1", "seat2", "seat3", "centre"}
    assert layout.zone_at(layout["seat2"].centre) == "seat2"


def test_buttons_follow_the_trump_choice():
    ref = KlaverjassenReferee(4)
    assert [i.action for i in ref.inputs()] == ["dealer"]
    assert [r.key for r in ref.on_input("trump", choice="H")] == ["klaverjassen.input_not_now"]
    ref.on_input("dealer", choice="3")
    assert [(i.action, dict(i.params)) for i in ref.inputs()] == [
        ("trump", {"player": 1}),
        ("pass", {"player": 1}),
    ]
    for _ in range(4):
        ref.on_input("pass")
    assert [i.action for i in ref.inputs()] == ["trump"]  # everyone passed: seat 0 must choose
    keys = [r.key for r in ref.on_input("trump", choice="D")]
    assert keys == ["klaverjassen.trump_chosen"]
    assert ref.status().details["playing_team"] == 0 and ref.status().to_act == 0


def test_turned_card_is_read_from_the_centre():
    ref = KlaverjassenReferee(4, {"trump_choice": "turned"})
    ref.on_input("dealer", choice="0")
    assert ref.inputs() == []  # waiting for the turned card
    keys = [r.key for r in ref.observe(Observation("confirmed", "9D", "centre"))]
    assert keys == ["klaverjassen.turned_card"]
    assert ref.inputs()[0].choices.keys() == {"D"}


def test_order_of_play_trick_winner_points_and_roem():
    quote("La carte la plus forte de la couleur demandée remporte le pli, sauf si un atout a été joué")
    ref = started("H")
    assert lay(ref, 2, "KS") == ["klaverjassen.out_of_turn"]  # seat 2 is early: it waits
    assert lay(ref, 0, "QS") == []
    assert lay(ref, 1, "JS") == []  # and seat 2's waiting K♠ is now taken in turn
    status = ref.status()
    assert status.details["trick"] == [(0, "QS"), (1, "JS"), (2, "KS")] and status.to_act == 3
    rulings = ref.observe(Observation("confirmed", "7H", "seat3"))
    won = next(r for r in rulings if r.key == "klaverjassen.trick_won")
    assert won.params == {"player": 4, "trick": 1, "points": 3 + 2 + 4}
    roem = next(r for r in rulings if r.key == "klaverjassen.roem")
    assert roem.params == {"player": 4, "roem": 20}  # J Q K of spades
    assert ref.status().to_act == 3  # the winner leads


def test_a_card_seen_twice_is_one_play():
    ref = started("H")
    lay(ref, 0, "QS")
    assert lay(ref, 0, "QS") == []
    assert ref.status().to_act == 1


def test_renege_proven_by_a_later_card_names_trick_card_player_and_rule():
    quote("Niet bekennen terwijl je de gevraagde kleur wel bezit: dit is een ernstige overtreding (verzaken).")
    quote(
        "Le non-respect des règles de pose s'appelle une renonce (« verzaken ») et peut entraîner "
        "la "
        "perte immédiate de la manche."
    )
    ref = started("H")
    for seat, card in enumerate(["AS", "7D", "KS", "QS"]):  # seat 1 does not follow spades
        assert "klaverjassen.renege_follow_suit" not in lay(ref, seat, card)
    rulings = ref.observe(Observation("confirmed", "10S", "seat0"))
    rulings += ref.observe(Observation("confirmed", "8S", "seat1"))  # he had a spade after all
    renege = next(r for r in rulings if r.key == "klaverjassen.renege_follow_suit")
    assert renege.params == {"trick": 1, "player": 2, "card": "7♦", "proof": "8♠"}
    assert renege.level == "violation"
    assert ref.engine.phase == "showdown" and rulings[-1].key == "klaverjassen.show_hands"
    # The players lay their remaining cards; nothing else is wrong; the deal is lost for team 2.
    rest = [c for c in PIQUET if c not in {"AS", "7D", "KS", "QS", "10S", "8S"}]
    keys: list[str] = []
    for i, card in enumerate(rest):
        keys += lay(ref, (2, 3, 0, 1)[i % 4], card)
    assert "klaverjassen.deal_lost" in keys and "klaverjassen.deal_scored" in keys
    row = ref.engine.sheet.rows[0]
    assert row.outcome == "renege" and row.score == (162 + 20, 0)  # Q K A of spades: 20 roem
    assert ref.engine.phase == "trump" and ref.engine.dealer == 0  # next deal


def test_undertrump_renege_in_amsterdam_is_proven_and_not_in_a_fair_deal():
    ref = started("H", variant="amsterdam")
    lay(ref, 0, "AS")
    lay(ref, 1, "9H")  # opponent trumps with the Nel
    lay(ref, 2, "7H")  # undertrumps...
    lay(ref, 3, "KS")
    assert ref.engine.prover.proven == []
    lay(ref, 1, "7C")  # seat 1 won and leads
    rulings = ref.observe(Observation("confirmed", "8C", "seat2"))  # ...while holding a club
    assert [r.params["card"] for r in rulings if r.key == "klaverjassen.renege_no_undertrump"] == ["7♥"]


@pytest.mark.parametrize("variant, renege", [("rotterdam", ["7♦"]), ("amsterdam", [])])
def test_a_discard_over_a_lower_trump_is_a_renege_in_rotterdam_only(variant, renege):
    quote(
        "Dans la variante de Rotterdam, vous êtes toujours tenu de couper si vous ne pouvez pas "
        "fournir la couleur demandée"
    )
    ref = started("S", variant=variant)
    for seat, card in enumerate(["AH", "JS", "7D", "7H"]):  # seat 1 trumps with the Jack; 2 discards
        lay(ref, seat, card)
    lay(ref, 1, "8C")  # seat 1 won and leads
    rulings = ref.observe(Observation("confirmed", "7S", "seat2"))  # seat 2 held a lower trump
    proven = [r for r in rulings if r.key.startswith("klaverjassen.renege_")]
    assert [(r.key, r.params["card"], r.params["proof"]) for r in proven] == [
        ("klaverjassen.renege_must_trump", card, "7♠") for card in renege
    ]


def test_house_rules_score_at_the_table_as_in_the_engine():
    ref = started("H", four_low_roem=True, pit_bonus=200)
    for rank in ("7", "8", "9", "10", "J", "Q", "K", "A"):  # seat 0 leads trumps: every trick his
        for seat, suit in enumerate("HSDC"):
            lay(ref, seat, rank + suit)
    row = ref.engine.sheet.rows[0]
    assert row.pit == 0 and row.roem == (900, 0) and row.score == (162 + 900 + 200, 0)


def test_the_status_has_one_total_per_team_and_what_the_camera_expects():
    ref = started("H", pit_bonus=200)
    for rank in ("7", "8", "9", "10", "J", "Q", "K", "A"):
        for seat, suit in enumerate("HSDC"):
            lay(ref, seat, rank + suit)
    status = ref.status()
    assert status.team_totals == (162 + 600 + 200, 0)  # team 0: seats 0 and 2
    assert status.scores == (162 + 600 + 200, 0, 162 + 600 + 200, 0)
    # the next deal: seat 0 deals, seat 1 names trump
    assert status.to_act == 1 and status.expects == Expect("klaverjassen.expect_trump", {"player": 2})


def mirror(seed: int, options: dict) -> tuple[Klaverjassen, KlaverjassenReferee, list[Ruling], list[Ruling]]:
    """Play a match with the engine's bots and lay the same cards before the referee; returns
    both, with the rulings each gave (the table's without the dealer and turned card, which the
    dealing engine does not announce)."""
    game = Klaverjassen(4, random.Random(seed), {**options, "first_dealer": 0})
    ref = KlaverjassenReferee(4, options)
    ref.on_input("dealer", choice="0")
    said: list[Ruling] = []
    shown: list[Ruling] = []
    while not game.over:
        seat = game.to_act
        move = game.bot_move()
        said += game.play(move)
        if isinstance(move, (Pass, ChooseTrump)):
            if ref.engine.phase == "turned":
                ref.observe(Observation("confirmed", game.bidding.turned, "centre"))
            shown += ref.on_input("pass") if isinstance(move, Pass) else ref.on_input("trump", choice=move.suit)
        elif isinstance(move, ClaimRoem):
            shown += ref.on_input("claim_roem" if move.claim else "skip_roem")
        else:
            shown += ref.observe(Observation("confirmed", move.card, f"seat{seat}"))
    return game, ref, said, shown


@pytest.mark.parametrize(
    "seed, options",
    [
        (1, {"variant": "amsterdam"}),
        (2, {"variant": "rotterdam", "trump_choice": "turned"}),
        (3, {"roem": "claimed", "deals": 4}),
    ],
)
def test_a_whole_match_through_the_adapter_shows_the_engines_rulings_and_result(seed, options):
    quote(
        "Une partie complète (« boompje ») compte 16 manches ; l'équipe qui affiche le score "
        "cumulé "
        "le plus élevé remporte la victoire."
    )
    game, ref, said, shown = mirror(seed, options)
    assert [r for r in shown if r.key != "klaverjassen.turned_card"] == said  # the same words, the same order
    assert said[-1].key in ("klaverjassen.match_won", "klaverjassen.match_tied")
    status = ref.status()
    assert status.over and status.expects is None and ref.inputs() == []
    assert ref.engine.sheet.rows == game.sheet.rows and len(game.sheet.rows) == options.get("deals", 16)
    assert list(status.winners) == game.winners() and list(status.scores) == game.scores()
    assert status.team_totals == game.sheet.totals()
    assert not any(deal.reneges for deal in ref.engine.log)  # a fair table is never accused
    assert all(sum(deal.result.card_points) == 162 for deal in ref.engine.log)


def test_end_of_match_is_announced():
    ref = KlaverjassenReferee(4, {"deals": 1})
    game = Klaverjassen(4, random.Random(5), {"deals": 1, "first_dealer": 0})
    ref.on_input("dealer", choice="0")
    keys: list[str] = []
    while not game.over:
        seat, move = game.to_act, game.bot_move()
        game.play(move)
        if game.table is None or not hasattr(move, "card"):
            keys += [
                r.key
                for r in (ref.on_input("pass") if isinstance(move, Pass) else ref.on_input("trump", choice=move.suit))
            ]
        else:
            keys += lay(ref, seat, move.card)
    assert keys[-2] == "klaverjassen.deal_scored"
    assert keys[-1] in ("klaverjassen.match_won", "klaverjassen.match_tied")
    assert ref.inputs() == [] and ref.status().over and ref.engine.phase == "over"


def test_the_app_session_builds_and_drives_it():
    session = RefereeMode(game_info("klaverjassen"), 4, options={"variant": "rotterdam"}, seed=3)
    picker = session.inputs()[0]
    assert picker.action == "dealer" and set(picker.choices) == {"0", "1", "2", "3"}
    assert [r.key for r in session.on_input("dealer", choice="3")] == ["klaverjassen.dealer"]
    keys = [r.key for r in session.on_input("trump", player=1, choice="C")]
    assert keys == ["klaverjassen.trump_chosen"] and session.status().details["trump"] == "C"
    with pytest.raises(ValueError):
        KlaverjassenReferee(4, {"variant": "utrecht"})
