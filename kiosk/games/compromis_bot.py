"""Le Compromis à la belge: the simple bot ``kiosk simulate`` and the property tests play with."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.games.cards import number_of, rank_of
from kiosk.games.compromis_government import can_pair, find_government
from kiosk.games.compromis_moves import (
    Arrange,
    Declare,
    Discard,
    DrawStock,
    Give,
    PlaySpecial,
    ShowJack,
    TakeDiscard,
    Target,
    Yield,
)

if TYPE_CHECKING:
    from kiosk.games.compromis import Compromis


def bot_move(game: Compromis) -> Any:
    """Declare once a government is in hand; keep pairs, a King and a Jack; play specials."""
    phase, seat = game.turn.phase, game.to_act or 0
    hand = game.hands[seat]
    if phase in ("act", "doudou", "malmedy_give") and seat not in game.turn.declared:
        six = find_government(hand, game.deck)
        if six is not None:
            return Declare(six)
    if phase == "draw":
        top = game.discard[-1] if game.discard else None
        if top is not None and _usefulness(game, top, hand) >= 10:
            return TakeDiscard()
        return DrawStock()
    if phase == "act":
        specials = [c for c in hand if game.is_special(c)]
        if specials:
            return PlaySpecial(game.rng.choice(specials))
    if phase == "malmedy_target":
        return Target(max((s for s in range(game.players) if s != seat), key=lambda s: game.scores()[s]))
    if phase == "malmedy_defend":
        jacks = [c for c in hand if rank_of(c) == "J"]
        return ShowJack(jacks[0]) if jacks else Yield()
    if phase == "arrange":
        return Arrange(game.turn.looked)
    allowed = [c for c in hand if phase == "malmedy_give" or game.may_discard(c)]
    worst = min(
        allowed,
        key=lambda c: (_usefulness(game, c, [h for h in hand if h != c]), game.rng.random()),
    )
    return Give(worst) if phase == "malmedy_give" else Discard(worst)


def _usefulness(game: Compromis, card: str, others: list[str]) -> int:
    """How much a bot wants to keep ``card`` next to ``others``: partners count most."""
    if number_of(card) is not None:
        return 1 + 10 * sum(can_pair(card, o, game.deck) for o in others)
    rank = rank_of(card)
    if rank in ("K", "J") and not any(rank_of(o) == rank for o in others):
        return 2  # one King for the bonus, one Jack against Malmedy
    return 0
