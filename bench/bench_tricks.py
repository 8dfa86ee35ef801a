"""Speed of the trick-taking games: deals per second for ``kiosk simulate`` (engine bots, the
invariants checked after every move) and for the cheating-bot runs through the table referee's
adapter (``kiosk.referee.cheating``), with the renege tally: every renege flagged, no false
accusation. Klaverjassen in both variants, and Manille. The target: 10,000 deals of each in
under a minute.

    .venv/bin/python bench/bench_tricks.py [--deals 10000] [--batches 5] [--cheat 0.05]

Prints, per game and mode, the median deals/s over the batches and the total time.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from kiosk.games.klaverjassen import Klaverjassen
from kiosk.games.manille import Manille
from kiosk.games.simulation import check_cards
from kiosk.referee.cheating import simulate_cheating

#: label -> (engine, options)
GAMES: dict[str, tuple[type[Klaverjassen] | type[Manille], dict[str, Any]]] = {
    "klaverjassen amsterdam": (Klaverjassen, {"variant": "amsterdam"}),
    "klaverjassen rotterdam": (Klaverjassen, {"variant": "rotterdam"}),
    "manille": (Manille, {}),
}


def _bots(cls: type[Klaverjassen] | type[Manille], options: Mapping[str, Any]) -> Callable[[int], dict[str, Any]]:
    """One bot match as ``kiosk simulate`` plays it: ``check_cards`` after every move."""

    def one(seed: int) -> dict[str, Any]:
        engine = cls(cls.min_players, random.Random(seed), options)
        expected = Counter(card for card, _ in engine.card_locations())
        while not engine.over:
            engine.play(engine.bot_move())
            problems = check_cards(engine, expected)
            assert not problems, problems
        if isinstance(engine, Klaverjassen):
            return {"deals": len(engine.sheet.rows)}
        return {"deals": len(engine.boam.rows)}

    return one


def _run(one: Callable[[int], dict[str, Any]], deals: int, batches: int) -> dict[str, Any]:
    per_batch = deals / batches
    rates: list[float] = []
    totals: dict[str, Any] = {}
    seed = 0
    started = time.perf_counter()
    for _ in range(batches):
        t0, done = time.perf_counter(), 0
        while done < per_batch:
            report = one(seed)
            seed += 1
            done += report["deals"]
            for key, value in report.items():
                totals[key] = (
                    (totals.get(key, True) and value) if isinstance(value, bool) else totals.get(key, 0) + value
                )
        rates.append(done / (time.perf_counter() - t0))
    totals["seconds"] = round(time.perf_counter() - started, 1)
    totals["median_deals_per_s"] = round(statistics.median(rates))
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--cheat", type=float, default=0.05)
    args = parser.parse_args()
    for label, (engine, options) in GAMES.items():
        players = engine.min_players
        bots = _run(_bots(engine, options), args.deals, args.batches)
        print(
            f"{label:<22} simulate (bots, invariants): {bots['median_deals_per_s']} deals/s, "
            f"{bots['deals']} deals in {bots['seconds']} s"
        )
        cheats = _run(
            functools.partial(simulate_cheating, engine.game_id, players, options=options, cheat_rate=args.cheat),
            args.deals,
            args.batches,
        )
        print(
            f"{label:<22} cheating bots via the adapter: {cheats['median_deals_per_s']} deals/s, "
            f"{cheats['deals']} deals in {cheats['seconds']} s; reneges {cheats['reneges']}, "
            f"flagged {cheats['flagged']}, false accusations {cheats['false_accusations']}, "
            f"card points ok {cheats['card_points_ok']}"
        )


if __name__ == "__main__":
    main()
