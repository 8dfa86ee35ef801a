"""Property tests: no card is ever lost or duplicated, and every game ends with one loser."""

from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.kakkerlakken import Kakkerlakken, losing_species, loss_limit
from kiosk.i18n import LANGUAGES, catalog
from kiosk.referee.base import Observation
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


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 6),
    events=st.lists(
        st.tuples(
            st.sampled_from(["confirmed", "removed", "press", "press"]),
            st.sampled_from(["centre", "seat0", "seat1", "seat2", None]),
            st.sampled_from(["rat", "bat-3", "fly", "7H"]),
            st.integers(0, 99),
        ),
        max_size=150,
    ),
)
def test_the_table_referee_takes_any_sightings_and_buttons(players: int, events: list) -> None:
    ref = KakkerlakkenReferee(players)
    for kind, zone, card, pick in events:
        if kind == "press":
            specs = ref.inputs()
            spec = specs[pick % len(specs)] if specs else None
            choices = sorted(spec.choices) if spec else []
            choice = choices[pick % len(choices)] if choices else ""
            rulings = ref.on_input(spec.action, choice=choice, **spec.params) if spec else []
        else:
            rulings = ref.observe(Observation(kind, card, zone))
        assert all(r.key in catalog() for r in rulings)
        status = ref.status()
        assert status.over == bool(status.winners) and sum(status.scores) == len(status.winners)
        worst = max((n for counts in status.details["species"] for n in counts.values()), default=0)
        assert worst <= loss_limit(players) and (worst < loss_limit(players) or status.over)
