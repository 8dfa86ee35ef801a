"""Président properties (hypothesis): no card lost or duplicated, every bot match ends, one
title per round, and every accepted combo beats the one before it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.president import Play, President, value
from kiosk.games.simulation import play_match


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(3, 7), back=st.booleans())
def test_bot_matches_end_without_losing_a_card(seed: int, players: int, back: bool):
    result = play_match("president", players, seed, {"rounds": 2, "president_gives_back": back})
    assert result.ended and not result.violations and sum(result.scores) == 2


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(3, 7))
def test_every_combo_has_the_count_and_beats_the_previous(seed: int, players: int):
    game = President(players, random.Random(seed), {"rounds": 1})
    while not game.over:
        previous, move = game.previous, game.bot_move()
        game.play(move)
        if isinstance(move, Play):
            assert len({value(c) for c in move.cards}) == 1
            if previous:
                assert len(move.cards) == len(previous)
                assert value(move.cards[0]) >= value(previous[0])
