"""Patience properties (hypothesis): no card lost or duplicated, every bot game ends (a win or a
give-up recorded as a loss), and the score is the cards on the foundations."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.patience import GiveUp, Patience


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), draw=st.sampled_from([1, 3]))
def test_bot_games_end_and_no_card_is_lost(seed: int, draw: int):
    game = Patience(1, random.Random(seed), {"draw": draw})
    cards = Counter(c for c, _ in game.card_locations())
    assert len(cards) == 54 and set(cards.values()) == {1}
    moves = 0
    while not game.over:
        move = game.bot_move()
        game.play(move)
        moves += 1
        assert Counter(c for c, _ in game.card_locations()) == cards
        assert game.scores() == [sum(len(p) for p in game.tableau.foundations.values())]
        assert moves < 5000
    assert game.winners() == ([0] if game.scores() == [52] else [])
    assert game.tableau.won or isinstance(move, GiveUp)
