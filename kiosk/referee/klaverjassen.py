"""The Klaverjassen referee: four seat zones round the centre, one card laid face up in front
of each player per trick.

The table tells it who deals (a button), the trump choice follows the bidding of the engine
(buttons; with the turned-card option the dealer first shows his last card in the centre). Then
it follows every card: turn order, the trick's winner, its points and roem, the score sheet. A
renege is proven from the cards the player lays later; proven before the deal's end, the players
lay their remaining cards face up (the showdown) so that every other renege of the deal is
checked too. The team of the first renege loses the deal: the others score 162 + all roem.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from kiosk.decks import SUITS
from kiosk.decks.model import SUIT_SYMBOLS
from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.klaverjassen import (
    PLAYERS,
    RULES,
    Klaverjassen,
    ScoreSheet,
    TrumpBidding,
    check_options,
    deal_hands,
    deal_rulings,
    duties,
    match_ruling,
    roem,
    score_deal,
    team,
    trick_rulings,
)
from kiosk.games.tricks import PIQUET, Trick, TrickTable, allowed, label
from kiosk.referee.base import InputSpec, Observation
from kiosk.referee.tricks import FinishedDeal, TrickReferee
from kiosk.referee.zones import Layout, seats_layout


class KlaverjassenReferee(TrickReferee):
    game_id = "klaverjassen"
    engine = Klaverjassen
    play_phases = ("play", "claim")

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        check_options(self.options)
        self.sheet = ScoreSheet(self.options["deals"])
        self.dealer = 0
        self.bidding: TrumpBidding | None = None
        self.roem: list[int] = []
        self.claimable: Trick | None = None

    @classmethod
    def layout(cls, players: int = PLAYERS) -> Layout:
        return seats_layout(PLAYERS)

    @property
    def over(self) -> bool:
        return self.sheet.over

    @property
    def trump(self) -> str | None:
        return self.bidding.trump if self.bidding else None

    # --- the deal's course -------------------------------------------------------------------

    def _start_deal(self) -> None:
        self._new_deal()
        self.phase = "trump"
        self.roem = []
        self.claimable = None
        mode = self.options["trump_choice"]
        self.bidding = TrumpBidding(self.dealer, mode) if mode == "obligatory" else None

    def _elsewhere(self, obs: Observation) -> list[Ruling]:
        if obs.kind == "confirmed" and obs.zone == "centre" and self.phase == "trump" and self.bidding is None:
            self.bidding = TrumpBidding(self.dealer, "turned", obs.card_id)
            return [
                Ruling(
                    "klaverjassen.turned_card",
                    {"card": label(obs.card_id), "player": self.bidding.seat + 1},
                )
            ]
        return []

    def _accept(self, seat: int, card: str) -> list[Ruling]:
        assert self.table is not None and self.trump is not None
        out: list[Ruling] = []
        if self.phase == "claim":  # the next card is laid: the roem was not claimed
            out += self._settle_claim(False)
            if self.phase != "play":  # that was the deal's last trick
                return out + [Ruling("klaverjassen.not_playing_now", {"player": seat + 1}, "reminder")]
        rules = duties(self.table.plays, self.trump, self.options["variant"])
        new = self.prover.record(self.table.trick_number, seat, card, rules)
        self.seen.add(card)
        trick = self.table.play(card)
        out += [r.ruling(self.game_id) for r in new]
        if trick is not None:
            trick_roem = roem(trick.cards, self.trump, self.options["four_low_roem"])
            if self.options["roem"] == "claimed" and trick_roem and not self.prover.proven:
                self.claimable = trick
                self.phase = "claim"
                return out + [Ruling("klaverjassen.claim_offered", {"player": trick.winner + 1})]
            self.roem.append(trick_roem)
            out += trick_rulings(trick, trick_roem)
            if len(self.table.tricks) == 8:
                return out + self._end_deal()
        if new:
            self.phase = "showdown"
            out.append(Ruling("klaverjassen.show_hands", {}, "violation"))
            out += self._show_pending()
        return out

    def _settle_claim(self, claimed: bool) -> list[Ruling]:
        assert self.claimable is not None and self.table is not None
        trick, self.claimable = self.claimable, None
        counted = roem(trick.cards, self.trump, self.options["four_low_roem"]) if claimed else 0
        self.roem.append(counted)
        self.phase = "play"
        out = trick_rulings(trick, counted)
        return out + self._end_deal() if len(self.table.tricks) == 8 else out

    def _show(self, seat: int, card: str) -> list[Ruling]:
        self.seen.add(card)
        out = [r.ruling(self.game_id) for r in self.prover.reveal(seat, card)]
        return out + self._end_deal() if len(self.seen) == len(PIQUET) else out

    def _end_deal(self) -> list[Ruling]:
        assert self.table is not None and self.bidding is not None and self.bidding.chooser is not None
        offender = self.prover.first_offender()
        renege_team = None if offender is None else team(offender)
        result = score_deal(
            self.table.tricks,
            self.bidding.trump or "",
            team(self.bidding.chooser),
            self.roem,
            renege_team,
            self.options["pit_bonus"],
        )
        self.sheet.rows.append(result)
        self.log.append(FinishedDeal(tuple(self.table.tricks), tuple(self.prover.proven), result))
        out = []
        if renege_team is not None:
            out.append(Ruling("klaverjassen.deal_lost", {"team": renege_team + 1}, "violation"))
        out += deal_rulings(result, self.sheet.totals())
        if self.sheet.over:
            self.phase = "over"
            return out + [match_ruling(self.sheet)]
        self.dealer = (self.dealer + 1) % PLAYERS
        self._start_deal()
        return out

    # --- buttons -----------------------------------------------------------------------------

    def inputs(self) -> list[InputSpec]:
        if self.phase == "dealer":
            return [self._dealer_spec()]
        if self.phase == "trump" and self.bidding is not None:
            player = {"player": self.bidding.seat + 1}
            out = [
                InputSpec(
                    "trump",
                    "klaverjassen.input_trump",
                    player,
                    {s: f"klaverjassen.suit_{s}" for s in self.bidding.suits},
                )
            ]
            if self.bidding.may_pass:
                out.append(InputSpec("pass", "klaverjassen.input_pass", player))
            return out
        if self.phase == "claim" and self.claimable is not None:
            player = {"player": self.claimable.winner + 1}
            return [
                InputSpec("claim_roem", "klaverjassen.input_claim_roem", player),
                InputSpec("skip_roem", "klaverjassen.input_skip_roem", player),
            ]
        return []

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        try:
            return self._input(action, params)
        except IllegalMove as exc:
            return [exc.ruling()]

    def _input(self, action: str, params: Mapping[str, Any]) -> list[Ruling]:
        if action == "dealer" and self.phase == "dealer":
            if not self._set_dealer(params):
                return self._refuse_input(action)
            self._start_deal()
            return [Ruling("klaverjassen.dealer", {"player": self.dealer + 1})]
        if action in ("trump", "pass") and self.phase == "trump" and self.bidding is not None:
            seat = self.bidding.seat
            if action == "pass":
                self.bidding.pass_()
                return [Ruling("klaverjassen.passed", {"player": seat + 1})]
            value = self._choice(params, SUITS)
            if value is None:
                return self._refuse_input(action)
            self.bidding.choose(value)
            self.table = TrickTable(PLAYERS, (self.dealer + 1) % PLAYERS, value, RULES)
            self.phase = "play"
            return [
                Ruling(
                    "klaverjassen.trump_chosen",
                    {"player": seat + 1, "suit": SUIT_SYMBOLS[value], "team": team(seat) + 1},
                )
            ]
        if action in ("claim_roem", "skip_roem") and self.phase == "claim":
            return self._settle_claim(action == "claim_roem")
        return self._refuse_input(action)

    def status(self) -> Mapping[str, Any]:
        to_act = None
        if self.phase == "trump" and self.bidding is not None:
            to_act = self.bidding.seat
        elif self.phase == "claim" and self.claimable is not None:
            to_act = self.claimable.winner
        elif self.phase == "play" and self.table is not None:
            to_act = self.table.to_play
        return {
            "phase": self.phase,
            "to_act": to_act,
            "dealer": self.dealer,
            "trump": self.trump,
            "playing_team": None
            if self.bidding is None or self.bidding.chooser is None
            else team(self.bidding.chooser),
            "trick": list(self.table.plays) if self.table else [],
            "tricks_played": len(self.table.tricks) if self.table else 0,
            "scores": self.sheet.seat_scores(),
            "totals": self.sheet.totals(),
            "sheet": [asdict(r) for r in self.sheet.rows],
            "reneges": [asdict(r) for r in self.prover.proven],
            "over": self.over,
            "winners": self.sheet.winners(),
        }

    # --- the cheating-bot simulation -----------------------------------------------------------

    def _simulate_deal(self, rng: random.Random, cheat_rate: float) -> set[tuple[int, int, str]]:
        """One deal of a boompje: the turned card, the bidding, then the play."""
        hands = [set(h) for h in deal_hands(rng, self.dealer)]
        if self.bidding is None:
            turned = sorted(hands[self.dealer])[rng.randrange(8)]
            self.observe(Observation("confirmed", turned, "centre"))
        while self.phase == "trump":
            assert self.bidding is not None
            if self.bidding.may_pass and rng.random() < 0.5:
                self.on_input("pass")
            else:
                self.on_input("trump", choice=rng.choice(self.bidding.suits))
        return _play_deal(self, hands, rng, cheat_rate)

    def _points_add_up(self, deal: FinishedDeal) -> bool:
        return len(deal.tricks) != 8 or sum(deal.result.card_points) == 162


def _play_deal(
    ref: KlaverjassenReferee, hands: list[set[str]], rng: random.Random, cheat_rate: float
) -> set[tuple[int, int, str]]:
    """Lay the cards of one deal before the referee; returns the reneges the bots made."""
    made: set[tuple[int, int, str]] = set()
    deals = len(ref.log)
    while len(ref.log) == deals:
        if ref.phase == "claim":
            ref.on_input("claim_roem")
            continue
        if ref.phase == "showdown":
            for seat, hand in enumerate(hands):
                for card in sorted(hand):
                    ref.observe(Observation("confirmed", card, f"seat{seat}"))
            break
        assert ref.table is not None and ref.trump is not None
        seat = ref.table.to_play
        legal = allowed(hands[seat], duties(ref.table.plays, ref.trump, ref.options["variant"]))[1]
        illegal = sorted(hands[seat] - set(legal))
        if illegal and rng.random() < cheat_rate:
            card = rng.choice(illegal)
            made.add((ref.table.trick_number, seat, card))
        else:
            card = rng.choice(sorted(legal))
        hands[seat].discard(card)
        ref.observe(Observation("confirmed", card, f"seat{seat}"))
    return made
