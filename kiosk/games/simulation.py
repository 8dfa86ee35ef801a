"""Play whole matches with the engines' bots and check the invariants after every move.

Used by ``kiosk simulate``, the property tests and the benchmarks: the same engine that referees
a table must survive thousands of bot games without losing or duplicating a card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.base import GameEngine, IllegalMove
from kiosk.games.registry import get_game


@dataclass
class SimResult:
    """One simulated match: who won, how long it took, and any invariant broken."""

    game_id: str
    seed: int
    players: int
    winners: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    moves: int = 0
    ended: bool = False
    violations: list[str] = field(default_factory=list)


def check_cards(engine: GameEngine, expected: Counter[str]) -> list[str]:
    """Problems with ``card_locations()`` compared with the cards the match started with."""
    now = Counter(card_id for card_id, _ in engine.card_locations())
    problems = []
    lost = expected - now
    extra = now - expected
    if lost:
        problems.append(f"lost cards: {sorted(lost.elements())}")
    if extra:
        problems.append(f"duplicated or new cards: {sorted(extra.elements())}")
    return problems


def play_match(
    game_id: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_moves: int = 200_000,
) -> SimResult:
    """Play one match with bots; every move's invariants are checked, the first breach stops it."""
    engine = get_game(game_id)(players, random.Random(seed), options)
    result = SimResult(game_id, seed, players)
    expected = Counter(card_id for card_id, _ in engine.card_locations())
    while not engine.over and result.moves < max_moves:
        move = engine.bot_move()
        try:
            engine.play(move)
        except IllegalMove as exc:
            result.violations.append(f"bot move {move!r} refused: {exc.key} {exc.params}")
            break
        result.moves += 1
        problems = check_cards(engine, expected)
        if problems:
            result.violations.extend(f"after move {result.moves}: {p}" for p in problems)
            break
    result.ended = engine.over
    if not engine.over and not result.violations:
        result.violations.append(f"did not end within {max_moves} moves")
    result.scores = list(engine.scores())
    result.winners = list(engine.winners()) if engine.over else []
    if engine.over and not result.winners and engine.max_players > 1:
        result.violations.append("match over without a winner")  # only a patience may be lost
    return result
