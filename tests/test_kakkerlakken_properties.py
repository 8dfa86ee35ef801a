"""Property tests: no card is ever lost or duplicated, and every game ends with one loser."""

from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.kakkerlakken import Kakkerlakken, losing_species, loss_limit
from kiosk.i18n import LANGUAGES, catalog
from kiosk.referee.kakkerlakken import KakkerlakkenReferee
from tests.engine_checks import bots_play_to_the_end, cards_of


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), aside=st.integers(0, 30))
def test_every_game_ends_with_one_loser_and_no_card_lost(seed: int, players: int, aside: int) -> None:
    g = Kakkerlakken(players, random.Random(seed), {"aside": aside, "starter": seed % players})
    assert cards_of(g) == sorted(f"{sp}-{n}" for sp in g.species for n in range(1, 9))
    bots_play_to_the_end(g, 64 * players)  # each round puts one card face up; passes are bounded
    assert len(g.winners()) == players - 1
    loser = next(s for s in range(players) if s not in g.winners())
    # the loser holds a losing species or has nothing left to start with; nobody else does
    assert losing_species(g.front[loser], loss_limit(players), g.in_play_counts) or not g.hands[loser]
    assert all(losing_species(g.front[s], loss_limit(players), g.in_play_counts) is None for s in g.winners())


def test_every_ruling_and_button_is_translated_with_its_parameters() -> None:
    g = Kakkerlakken(4, random.Random(9))
    rulings = []
    while not g.over:
        rulings += g.play(g.bot_move())
    ref = KakkerlakkenReferee(3)
    labels = [s.label_key for s in ref.inputs()] + list(ref.inputs()[0].choices.values())
    ref.on_input("offer", choice="1")
    labels += list(ref.inputs()[0].choices.values())
    rulings += ref.on_input("claim", choice="rat")
    labels += [s.label_key for s in ref.inputs()]
    assert {"kakkerlakken.offered", "kakkerlakken.judged_right"} <= {r.key for r in rulings}
    for ruling in rulings:
        for lang in LANGUAGES:
            text = catalog()[ruling.key][lang]
            assert {n for _, n, _, _ in string.Formatter().parse(text) if n} <= set(ruling.params)
    for key in labels:
        assert set(catalog()[key]) == set(LANGUAGES), key
