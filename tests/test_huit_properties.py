"""Huit américain properties (hypothesis): no card lost or duplicated, every bot game ends,
hands change by exactly the card laid or drawn."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.huit import Draw, Huit, Play
from kiosk.games.simulation import play_match


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(2, 7))
def test_bot_games_end_without_losing_a_card(seed: int, players: int):
    result = play_match("huit", players, seed)
    assert result.ended and not result.violations and sum(result.scores) == 1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(2, 7))
def test_hands_change_by_one_card_per_move(seed: int, players: int):
    game = Huit(players, random.Random(seed))
    while not game.over:
        seat, move = game.to_act, game.bot_move()
        sizes = [len(h) for h in game.hands]
        game.play(move)
        delta = {Play: -1, Draw: 1}.get(type(move), 0)
        assert [len(h) for h in game.hands] == [n + (delta if s == seat else 0) for s, n in enumerate(sizes)]
