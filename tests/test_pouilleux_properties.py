"""Property tests: whatever legal moves are made no card is lost; the bot always ends the match."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games import mathpairs
from kiosk.games.pouilleux import Pouilleux
from kiosk.games.registry import get_game
from kiosk.i18n import LANGUAGES, catalog
from kiosk.referee.base import Observation
from kiosk.referee.cache_cache import CacheCacheReferee
from kiosk.referee.memory import MemoryReferee
from kiosk.referee.pouilleux import PouilleuxReferee
from kiosk.referee.recto_verso import RectoVersoReferee

LEVELS = st.sampled_from(sorted(mathpairs.math_deck().levels))


def cards_of(g: Pouilleux) -> list[str]:
    return sorted(c for c, _ in g.card_locations())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), level=LEVELS, rounds=st.integers(1, 3))
def test_bot_ends_every_match(seed: int, players: int, level: str, rounds: int) -> None:
    g = Pouilleux(players, random.Random(seed), {"level": level, "rounds": rounds})
    cards = cards_of(g)
    for _ in range(5000):
        if g.over:
            break
        g.play(g.bot_move())
        assert cards_of(g) == cards
    assert g.over and g.rounds_played == rounds
    assert sum(g.scores()) == rounds * sum(4 - n for n in range(players - 1))  # 4 + 3 (+ 2)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), choices=st.lists(st.integers(0, 10**6), max_size=300))
def test_no_card_lost_whatever_the_players_do(seed: int, players: int, choices: list[int]) -> None:
    g = Pouilleux(players, random.Random(seed), {"level": "add-10", "rounds": 2})
    cards = cards_of(g)
    for choice in choices:
        if g.over:
            break
        moves = g.legal_moves()
        g.play(moves[choice % len(moves)])  # wrong pairs, false spots, searches: anything legal
        assert cards_of(g) == cards
        assert len(g.card_locations()) == len(cards)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    rounds=st.integers(1, 3),
    choices=st.lists(st.integers(0, 10**6), min_size=200, max_size=200),
)
def test_at_the_table_every_button_offered_is_taken_and_every_match_ends(
    seed: int, players: int, rounds: int, choices: list[int]
) -> None:
    ref = PouilleuxReferee(players, {"level": "add-10", "rounds": rounds}, seed)
    cards = [c for pair in mathpairs.level_pairs("add-10") for c in pair]
    totals = list(ref.engine.totals)
    for n, choice in enumerate(choices):
        if ref.status().over:
            break
        if n % 3 == 0:  # two cards laid together in some seat's zone
            zone = f"seat{choice % players}"
            for card in (cards[choice % len(cards)], cards[choice // 7 % len(cards)]):
                ref.observe(Observation("confirmed", card, zone))
            continue
        spec = ref.inputs()[choice % len(ref.inputs())]
        picks = sorted(spec.choices)
        params = {"choice": picks[choice // 11 % len(picks)]} if picks else {}
        rulings = ref.on_input(spec.action, **params)
        assert all(r.level != "violation" or r.key == "pouilleux.unfinishable" for r in rulings), rulings
        assert all(t >= old for t, old in zip(ref.engine.totals, totals, strict=True))  # points are never taken
        totals = list(ref.engine.totals)
    status = ref.status()
    assert status.over and ref.engine.rounds_played == rounds and ref.inputs() == []
    assert status.winners and all(status.scores[w] == max(status.scores) for w in status.winners)


@pytest.mark.parametrize("game_id", ["pouilleux", "cache-cache", "recto-verso", "memory"])
def test_every_ruling_of_a_bot_game_is_translated_with_its_parameters(game_id: str) -> None:
    g = get_game(game_id)(2 if game_id in ("cache-cache", "recto-verso") else 3, random.Random(4))
    while not g.over:
        for ruling in g.play(g.bot_move()):
            texts = catalog()[ruling.key]
            for lang in LANGUAGES:
                fields = {name for _, name, _, _ in string.Formatter().parse(texts[lang]) if name}
                assert fields <= set(ruling.params), (ruling.key, lang)


def test_every_button_of_the_math_referees_is_translated() -> None:
    seen = Observation("confirmed", "7x8", "centre")
    pou = PouilleuxReferee(3)
    labels = [s for s in pou.inputs()]
    pou.observe(Observation("confirmed", "7x8", "seat0"))
    pou.observe(Observation("confirmed", "54", "seat0"))
    labels += pou.inputs()
    pou.on_input("unspotted")
    pou.on_input("unfinishable")
    labels += pou.inputs()
    pou.on_input("found", choice="1")
    labels += pou.inputs()
    cc, rv = CacheCacheReferee(2, {"level": "tables-5-7"}), RectoVersoReferee(2, {"level": "tables-5-7"})
    cc.observe(seen)
    rv.observe(seen)
    labels += cc.inputs() + rv.inputs()
    rv.on_input("announce", choice="56")
    labels += rv.inputs()
    mem = MemoryReferee(2)
    for kind, zone in (("confirmed", "centre"), ("removed", "centre")):
        for card in ("7x8", "54"):
            mem.observe(Observation(kind, card, zone))
    mem.observe(Observation("confirmed", "54", "seat0"))
    labels += mem.inputs()
    assert {s.action for s in labels} >= {"out", "spotted", "found", "author", "answer", "exact", "false"}
    keys = {s.label_key for s in labels} | {k for s in labels for k in s.choices.values() if not k.isdigit()}
    for key in keys:
        assert set(catalog()[key]) == set(LANGUAGES), key
