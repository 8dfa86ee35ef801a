"""Recto-verso (seed 002, rule 3): announce the result of a card lying calculation up.

The cards lie calculation up in front of both players (a calculation card on its result card,
or a card printed on both sides). The asker picks one and announces its result; the other says
"c'est exact" or "c'est faux", giving his own result or not, then turns the card, which leaves
the game. :func:`points` holds the cases of the seed. Roles alternate until no card is left.

At the table (``at_table=True``) nobody deals: the engine counts the cards lying there without
naming them, learns the card the asker picks from the camera (:class:`Pick`, a table-only move)
and the announce and the validation from the players' buttons. :meth:`legal_moves` then lists
the buttons' moves only; a card shown is checked when it is seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.games import mathpairs
from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.hands import UnseenHand


def points(result: int, announced: int, exact: bool, given: int | None) -> tuple[int, int]:
    """(asker, validator) points for one card; ``given`` is the validator's result on "faux"
    (None: he gave none). A right "faux" scores 1, or 2 with the right result given."""
    if announced == result:
        return 2, 1 if exact else 0
    if exact:
        return 0, 0
    return 0, 2 if given == result else 1


def turned(card: str, announced: int, exact: bool, given: int | None, asker: int, validator: int) -> Ruling:
    """The ruling of a validated card (seats from 0): its calculation, result and both points
    (:func:`points`), as the engine and the table referee announce it alike."""
    calc = mathpairs.card(card)
    result = calc.value or 0
    gained = points(result, announced, exact, given)
    params = {
        "calculation": calc.expression,
        "value": result,
        "asker": asker + 1,
        "asker_points": gained[0],
        "validator": validator + 1,
        "validator_points": gained[1],
    }
    return Ruling("recto_verso.turned", params, "score")


@dataclass(frozen=True)
class Pick:
    """At the table: the asker lays the card ``card`` he picks in the centre (the camera reads it)."""

    card: str


@dataclass(frozen=True)
class Announce:
    """The asker picks the card ``card`` on the table and says its result is ``value``."""

    card: str
    value: int


@dataclass(frozen=True)
class Validate:
    """ "C'est exact" (``exact``) or "c'est faux" with the validator's own result ``value``, if
    he gives one."""

    exact: bool
    value: int | None = None


class RectoVerso(mathpairs.QuizEngine):
    game_id = "recto-verso"

    def _deal(self, calculations: list[str]) -> None:
        self.table: list[list[str]] = [[], []]
        if not self.at_table:
            self.table = mathpairs.dealt(calculations, 2, self.asker, self.rng)
        #: the cards on the table not named yet: all of them at the table, none when dealt
        self.unnamed = UnseenHand(len(calculations) if self.at_table else 0)
        self.picked: str | None = None  # at the table: the card in the centre
        self.announced: Announce | None = None

    @property
    def to_act(self) -> int | None:
        if self.finished:
            return None
        return self.answerer if self.announced else self.asker

    def on_table(self) -> list[str]:
        """The cards still on the table that the engine can name (none at the table)."""
        return self.table[0] + self.table[1]

    def cards_left(self) -> int:
        return len(self.on_table()) + len(self.unnamed)

    def card_locations(self) -> list[tuple[str, str]]:
        out = [loc for s in (0, 1) for c in self.table[s] for loc in self._pair_locations(c, f"table:{s}")]
        return out + [loc for c in self.out for loc in self._pair_locations(c, "out")]

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        if self.over:
            return None
        if self.picked is None:
            return "recto_verso.expect_card", {"player": self.asker + 1}
        if self.announced is None:
            return "recto_verso.expect_announce", {"player": self.asker + 1}
        return "recto_verso.expect_validation", {"player": self.answerer + 1}

    def legal_moves(self) -> list[Any]:
        if self.finished:
            return []
        if self.announced is None:
            cards = [self.picked] if self.picked else self.on_table()
            return [Announce(c, v) for c in cards for v in mathpairs.answers()]
        return [Validate(True), Validate(False)] + [Validate(False, v) for v in mathpairs.answers()]

    def play(self, move: Any) -> list[Ruling]:
        if self.finished:
            raise IllegalMove("recto_verso.game_over")
        if isinstance(move, Pick) and self.at_table and self.picked is None:
            return self._pick(move.card)
        if isinstance(move, Announce) and self.announced is None:
            if self.at_table and (self.picked is None or move.card != self.picked):
                raise IllegalMove("recto_verso.not_now")
            if not self.at_table and move.card not in self.on_table():
                raise IllegalMove("recto_verso.not_on_table", card=move.card)
            self.announced = move
            return [
                Ruling(
                    "recto_verso.announced",
                    {
                        "player": self.asker + 1,
                        "answer": move.value,
                        "calculation": mathpairs.card(move.card).expression,
                    },
                )
            ]
        if isinstance(move, Validate) and self.announced is not None:
            return self._validate(self.announced, move)
        raise IllegalMove("recto_verso.not_now")

    def _pick(self, card: str) -> list[Ruling]:
        self._check_shown(card)
        if card in self.out:
            raise IllegalMove("recto_verso.not_on_table", card=card)
        self.picked = card
        expression = mathpairs.card(card).expression
        return [Ruling("recto_verso.question", {"player": self.asker + 1, "calculation": expression})]

    def _validate(self, ann: Announce, move: Validate) -> list[Ruling]:
        ruling = turned(ann.card, ann.value, move.exact, move.value, self.asker, self.answerer)
        self.points[self.asker] += ruling.params["asker_points"]
        self.points[self.answerer] += ruling.params["validator_points"]
        side = next((side for side in self.table if ann.card in side), None)
        if side is None:
            self.unnamed.lay()
        else:
            side.remove(ann.card)
        self.out.append(ann.card)
        self.announced = self.picked = None
        rulings = [ruling]
        self._switch()
        if not self.cards_left():
            self.finished = True
            rulings.append(
                Ruling("recto_verso.game_over_points", {"points": " - ".join(map(str, self.points))}, "game_over")
            )
        return rulings

    def bot_move(self) -> Any:
        """Right three times in four, as asker and as validator."""
        if self.announced is None:
            card = self.rng.choice(self.on_table())
            value = mathpairs.card(card).value or 0
            return Announce(card, value if self.rng.random() < 0.75 else value + 1)
        result = mathpairs.card(self.announced.card).value
        if self.rng.random() < 0.75:
            return Validate(True) if self.announced.value == result else Validate(False, result)
        return Validate(False, (result or 0) + 1) if self.announced.value == result else Validate(True)
