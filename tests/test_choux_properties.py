"""Le Choux de Bruxelles under random play: the 49 cards stay whole, hands only shrink by pairs
and move one card per draw, nobody holds a pair between turns, and every match ends."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.choux import Choux, Draw, choux_deck, is_pair, pairs_in
from kiosk.games.simulation import play_match
from kiosk.i18n import catalog
from kiosk.referee.base import Observation
from kiosk.referee.choux import ChouxReferee

FULL = Counter(choux_deck().ids)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 10),
    naming=st.booleans(),
    picks=st.lists(st.integers(0, 2**16), max_size=150),
)
def test_random_play_keeps_the_cards_whole(seed, players, naming, picks):
    game = Choux(players, random.Random(seed), {"naming": naming, "rounds": 2})
    for pick in picks:
        if game.over:
            break
        moves = game.legal_moves()
        assert moves
        move = moves[pick % len(moves)]
        drawer, sizes = game.to_act, [len(h) for h in game.hands]
        holder = game.holder() if isinstance(move, Draw) else None
        rounds = game.rounds_played
        game.play(move)
        assert Counter(c for c, _ in game.card_locations()) == FULL
        if game.rounds_played != rounds:
            continue  # a new deal
        delta = [len(h) - n for h, n in zip(game.hands, sizes, strict=True)]
        if holder is not None:
            assert delta[holder] == -1 and delta[drawer] in (1, -1)  # +1, or +1 - 2 for a pair
            assert all(d == 0 for s, d in enumerate(delta) if s not in (holder, drawer))
        else:
            assert all(d in (0, -2) for d in delta) and sum(d != 0 for d in delta) <= 1
        if not naming and not game.over:
            assert all(pairs_in(h) == [] for h in game.hands)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), naming=st.booleans())
def test_every_bot_match_ends_with_one_puant(seed, players, naming):
    result = play_match("choux", players, seed, {"naming": naming})
    assert result.ended and not result.violations
    assert len(result.winners) == players - 1


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 10),
    naming=st.booleans(),
    events=st.lists(
        st.tuples(
            st.sampled_from(["confirmed", "confirmed", "removed", "press"]),
            st.integers(0, 3),
            st.sampled_from(sorted(FULL) + ["JC"]),
            st.sampled_from(["", "Gand", "Ypres", "Anvers"]),
        ),
        max_size=150,
    ),
)
def test_the_table_referee_takes_any_sightings_and_buttons_and_keeps_its_record(players, naming, events):
    ref = ChouxReferee(players, {"naming": naming})
    for kind, seat, card, said in events:
        if kind == "press":
            specs = ref.inputs()
            rulings = ref.on_input(specs[0].action, text=said, **specs[0].params) if specs else []
        else:
            rulings = ref.observe(Observation(kind, card, f"seat{seat}"))
        assert all(r.key in catalog() for r in rulings)
        status = ref.status()
        laid = [c for cards in ref.engine.laid for c in cards]
        assert len(laid) == len(set(laid)) and all(is_pair(a, b) for a, b in zip(laid[::2], laid[1::2], strict=True))
        assert status.over == bool(status.winners) and sum(status.details["pairs"]) == status.details["pairs_down"]
