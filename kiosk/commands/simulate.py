"""``kiosk simulate GAME --players N --games K --seed S [--json] [--cheat RATE]``.

Plays complete matches with the engines' bots and prints winners, lengths and invariant
checks. ``--cheat`` (trick-taking games) plays deals where a bot reneges now and then and
reports whether the referee caught every renege.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import tomllib
from typing import Any

from kiosk.errors import UsageError
from kiosk.games.registry import available_games
from kiosk.games.simulation import play_match
from kiosk.referee.cheating import CHEATING, simulate_cheating


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"option must be KEY=VALUE, not {text!r}")
    try:
        parsed = tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        parsed = value
    return key, parsed


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("simulate", help="play complete games with bots and check invariants")
    p.add_argument("game", help="game id (see `kiosk simulate --list`)", nargs="?")
    p.add_argument("--list", action="store_true", help="list the games that can be simulated")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the minimum)")
    p.add_argument("--games", type=int, default=100, help="number of matches (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first match")
    p.add_argument(
        "--option", type=_option, action="append", default=[], metavar="KEY=VALUE", help="game option, repeatable"
    )
    p.add_argument(
        "--cheat",
        type=float,
        default=0.0,
        metavar="RATE",
        help="trick-taking games: chance that a bot reneges when it can",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    games = available_games()
    if args.list or not args.game:
        for game_id, cls in games.items():
            print(f"{game_id:<14} {cls.min_players}-{cls.max_players} players  deck {cls.deck_id}")
        return 0 if args.list else 2
    if args.game not in games:
        raise UsageError(f"unknown game {args.game!r}; available: {', '.join(games)}")
    cls = games[args.game]
    players = args.players if args.players is not None else cls.min_players
    if not cls.min_players <= players <= cls.max_players:
        raise UsageError(f"{args.game} takes {cls.min_players} to {cls.max_players} players, not {players}")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if not 0.0 <= args.cheat <= 1.0:
        raise UsageError("--cheat must be between 0 and 1")
    options = dict(args.option)
    unknown = set(options) - set(cls.default_options)
    if unknown:
        raise UsageError(f"unknown option(s) for {args.game}: {sorted(unknown)}; known: {sorted(cls.default_options)}")
    try:
        cls(players, random.Random(args.seed), options)
    except ValueError as exc:  # an option value the engine refuses
        raise UsageError(str(exc)) from None
    if args.cheat > 0:
        return _run_cheating(args, players, options)
    started = time.perf_counter()
    results = [play_match(args.game, players, args.seed + i, options) for i in range(args.games)]
    elapsed = time.perf_counter() - started
    broken = [r for r in results if r.violations]
    wins = [0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1
    summary = {
        "game": args.game,
        "players": players,
        "games": len(results),
        "seed": args.seed,
        "ended": sum(r.ended for r in results),
        "invariant_violations": sum(len(r.violations) for r in results),
        "wins_per_seat": wins,
        "median_moves": statistics.median(r.moves for r in results),
        "max_moves": max(r.moves for r in results),
        "games_per_second": round(len(results) / elapsed, 1) if elapsed else None,
        "violations": [{"seed": r.seed, "problems": r.violations} for r in broken][:20],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"{args.game}: {summary['games']} games, {players} players, "
            f"{summary['ended']} ended, {summary['invariant_violations']} invariant violations"
        )
        print(
            f"wins per seat: {wins}; moves median {summary['median_moves']}, "
            f"max {summary['max_moves']}; {summary['games_per_second']} games/s"
        )
        for v in summary["violations"]:
            print(f"  seed {v['seed']}: {'; '.join(v['problems'])}")
    return 1 if broken else 0


def _run_cheating(args: argparse.Namespace, players: int, options: dict[str, Any]) -> int:
    if args.game not in CHEATING:
        raise UsageError(f"--cheat is only for {', '.join(CHEATING)} (their referee proves reneges), not {args.game}")
    totals: dict[str, Any] = {}
    started = time.perf_counter()
    for i in range(args.games):
        report = simulate_cheating(args.game, players, args.seed + i, options, args.cheat)
        for key, value in report.items():
            if isinstance(value, bool):
                totals[key] = totals.get(key, True) and value
            elif isinstance(value, (int, float)):
                totals[key] = totals.get(key, 0) + value
    elapsed = time.perf_counter() - started
    totals["deals_per_second"] = round(totals.get("deals", 0) / elapsed, 1) if elapsed else None
    if args.json:
        print(json.dumps({"game": args.game, "games": args.games, **totals}, indent=2))
    else:
        print(f"{args.game} with cheating bots: " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    caught_all = totals.get("flagged", 0) == totals.get("reneges", 0)
    return 0 if caught_all and totals.get("false_accusations", 0) == 0 else 1
