"""Le Compromis à la belge: the action cards (the Aces and the Manneken-Pis) and their effects,
as data a table may change (the ``specials`` game option, rules-decisions.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The action cards and their effect (rules-decisions.md), the ``specials`` option's default;
#: the deck data names the places. A table may give these cards other effects, or none.
SPECIALS: Mapping[str, str] = {
    "AS": "doudou",
    "AH": "malmedy",
    "AD": "binche",
    "AC": "andenne",
    "JK1": "manneken",
    "JK2": "manneken",
}
#: What an action card can do (see :meth:`kiosk.games.compromis.Compromis._do_playspecial`).
EFFECTS = ("doudou", "malmedy", "binche", "andenne", "manneken")


def special_effects(options: Mapping[str, Any]) -> dict[str, str]:
    """The live action cards of a match and their effect: the ``specials`` option, checked (an Ace
    or a Manneken-Pis -> one of :data:`EFFECTS`; a card left out is dead), none in a first game."""
    table = options["specials"]
    if not isinstance(table, Mapping):
        raise ValueError(f"compromis: option specials must be a table card = effect, not {table!r}")
    for card, effect in table.items():
        if card not in SPECIALS:
            raise ValueError(
                f"compromis: option specials: {card!r} is not an action card; allowed: {', '.join(SPECIALS)}"
            )
        if effect not in EFFECTS:
            raise ValueError(f"compromis: option specials: {card} = {effect!r}; allowed: {', '.join(EFFECTS)}")
    return {} if options["first_game"] else dict(table)


def not_special_key(card: str, first_game: bool) -> str:
    """Why ``card`` cannot be set aside as an action card: the message key."""
    if card not in SPECIALS:
        return "compromis.illegal_not_special"
    return "compromis.illegal_first_game" if first_game else "compromis.illegal_dead_card"
