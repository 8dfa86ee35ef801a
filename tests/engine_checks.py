"""Shared property checks for game engines: what every engine must keep while bots play."""

from __future__ import annotations

from kiosk.games.base import GameEngine


def cards_of(game: GameEngine) -> list[str]:
    """Every card the engine knows of, sorted: the multiset that must never change."""
    return sorted(c for c, _ in game.card_locations())


def bots_play_to_the_end(game: GameEngine, max_moves: int) -> None:
    """Bot moves until the game is over, at most ``max_moves``; after each, no card is lost or
    duplicated. Fails when the game has not ended."""
    cards = cards_of(game)
    for _ in range(max_moves):
        if game.over:
            break
        game.play(game.bot_move())
        assert cards_of(game) == cards
    assert game.over
