"""A hand the table cannot see (``kiosk.games.hands``): counted when the deal fixes it, never named."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.games.hands import UnseenHand


@given(dealt=st.integers(0, 30), steps=st.lists(st.sampled_from(["lay", "take"]), max_size=60))
def test_a_counted_hand_follows_what_leaves_and_joins_it_never_below_zero(dealt: int, steps: list[str]) -> None:
    hand, count = UnseenHand(dealt), dealt
    for step in steps:
        if step == "take":
            hand.take()
            count += 1
        elif count == 0:
            with pytest.raises(ValueError):
                hand.lay()  # a card seen leaving an empty hand: the engine refuses it
        else:
            hand.lay()
            count -= 1
        assert len(hand) == count


def test_a_hand_of_unknown_size_takes_any_card_laid() -> None:
    hand = UnseenHand()
    for _ in range(100):
        hand.lay()
    hand.take(3)
    assert hand.count is None and len(hand) == 0
