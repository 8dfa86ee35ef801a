"""Le Compromis à la belge under random play: no card lost or duplicated, 7 cards at every turn's
start, scores only moved by a valid government (+1, +2 with a King), and every bot match ends."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.compromis import Compromis
from kiosk.games.compromis_government import check_government
from kiosk.games.compromis_moves import Declare
from kiosk.games.compromis_specials import EFFECTS, SPECIALS
from kiosk.games.simulation import play_match
from kiosk.i18n import catalog
from kiosk.referee.base import Observation
from kiosk.referee.compromis import CompromisReferee

FULL = Counter(Compromis(2, random.Random(0)).deck.ids)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    first_game=st.booleans(),
    picks=st.lists(st.integers(0, 2**16), max_size=120),
    specials=st.one_of(st.just(SPECIALS), st.dictionaries(st.sampled_from(list(SPECIALS)), st.sampled_from(EFFECTS))),
)
def test_random_legal_play_keeps_every_invariant(seed, players, first_game, picks, specials):
    game = Compromis(players, random.Random(seed), {"first_game": first_game, "specials": specials})
    for pick in picks:
        if game.over:
            break
        moves = game.legal_moves()
        assert moves, "no legal move while the match goes on"
        move = moves[pick % len(moves)]
        actor, before = game.to_act, game.scores()
        king = isinstance(move, Declare) and any(c.startswith("K") for c in game.hands[actor] if c not in move.cards)
        game.play(move)
        assert Counter(c for c, _ in game.card_locations()) == FULL
        gained = [after - b for after, b in zip(game.scores(), before, strict=True)]
        if isinstance(move, Declare) and check_government(move.cards, game.deck).ok:
            assert gained[actor] == (2 if king else 1)
            assert sum(gained) == gained[actor]
        else:
            assert gained == [0] * players
        if not game.over and game.turn.phase == "draw":
            assert [len(h) for h in game.hands] == [7] * players
            assert not set(game.discard) & set(game.effects)  # a live action card is set aside


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), first_game=st.booleans())
def test_every_bot_match_ends_with_a_winner_and_no_card_lost(seed, players, first_game):
    result = play_match("compromis", players, seed, {"first_game": first_game})
    assert result.ended and not result.violations
    assert max(result.scores) >= (4 if players == 2 else 3)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 6),
    events=st.lists(
        st.tuples(
            st.sampled_from(["confirmed", "confirmed", "removed", "press"]),
            st.sampled_from(["discard", "aside", "draw", "seat0", "seat1", None]),
            st.sampled_from(sorted(FULL)),
            st.integers(0, 9),
        ),
        max_size=120,
    ),
)
def test_the_table_referee_takes_any_sightings_and_buttons_and_keeps_its_record(players, events):
    ref = CompromisReferee(players)
    for kind, zone, card, pick in events:
        if kind == "press":
            specs = ref.inputs()
            rulings = ref.on_input(specs[pick % len(specs)].action, **specs[pick % len(specs)].params) if specs else []
        else:
            before = ref.status().scores
            rulings = ref.observe(Observation(kind, card, zone))
            assert all(a >= b for a, b in zip(ref.status().scores, before, strict=True))
        assert all(r.key in catalog() for r in rulings)
        status = ref.status()
        assert len(status.scores) == players and status.over == bool(status.winners)
        public = ref.engine.discard + ref.engine.aside
        assert len(public) == len(set(public)) and ref.engine.unseen_stock >= 0
