"""Bataille properties (hypothesis): no card lost or duplicated, every bot game ends, the score
is the cards held and only a taking changes it."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.bataille import Bataille
from kiosk.games.simulation import play_match


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_bot_games_end_without_losing_a_card(seed: int, players: int):
    result = play_match("bataille", players, seed, {"max_rounds": 300})
    assert result.ended and not result.violations
    assert sum(result.scores) == 52


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_scores_change_only_when_someone_takes(seed: int, players: int):
    game = Bataille(players, random.Random(seed), {"max_rounds": 60})
    cards = Counter(c for c, _ in game.card_locations())
    while not game.over:
        before = game.scores()
        rulings = game.play(game.bot_move())
        assert Counter(c for c, _ in game.card_locations()) == cards
        took = [r for r in rulings if r.key == "bataille.takes"]
        if took:
            winner = took[0].params["player"] - 1
            assert game.scores()[winner] > before[winner]
            assert sum(game.scores()) == 52
        else:
            assert all(a <= b for a, b in zip(game.scores(), before, strict=True))
