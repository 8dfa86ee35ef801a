"""Klondike hint solver: the next move of a winning line, or an honest "no win found".

Input is a :class:`~kiosk.games.patience.Tableau` (from the engine, or built by the referee from
what the camera saw and what the player told it); unknown cards are ``None``.

Search: depth-first with a transposition table over canonical states (columns as a set, so two
layouts that differ only by column order are searched once), after the safe moves to the
foundations are made automatically (a card goes home when nothing could still need it: both
opposite-colour piles are at least one below it and the other pile of its colour two below).
Moves are ordered (home, runs that turn a card up, talon cards, foundation cards back), and a card
laid from the talon or a foundation only to carry another is laid together with it, as one step.

Three facts keep the search small:
- Draw 1 with unlimited passes: every stock or waste card can be reached by turning the stock,
  so the talon is searched as a set of reachable cards in a fixed cyclic order, and a talon card
  is laid on a column only to carry another (it can wait in the talon until then). Draw 3 keeps
  the exact positions a 3-card turn can reach; there a talon card is also laid on its own, since
  taking it out shifts which cards the turns reach, and waste positions that the turns cycle
  through anyway count as one.
- Once no face-down card is left (and, in draw 3, the talon is empty), the game is won: the
  lowest card left is always on top of its column or reachable in the talon.
- A state whose every continuation was searched to the end without a win is remembered as dead
  for the rest of the hint (not a state left only because the search was on its way elsewhere).

Restarts: a search that needs far more nodes than most is usually stuck under an early wrong
move, so the search runs with a node limit, then again from scratch with randomised move orders
and growing limits until the budget is spent. Between two of them a best-first search, resumed
each time, expands half as many nodes (8,000 in all at most): it follows the most promising
positions (cards home, few and shallow face-down cards) and finds some lines in a few dozen nodes
that every depth-first order misses for seconds.

With unknown cards a win cannot be proven; the solver then looks for a line that turns up a
hidden card (status ``progress``), or suggests turning the stock to see unknown talon cards.
"""

from __future__ import annotations

import bisect
import copy
import functools
import heapq
import itertools
import operator
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.decks import SUITS
from kiosk.games.patience import RANKS, Draw, Move, Recycle, Tableau

UNKNOWN = 52  # a card not seen yet (card ints are 0..51; states hold them in bytes)
# Restarts (see the module docstring): the first search keeps the plain move order, the later ones
# add random noise of up to _NOISE to the priorities (so classes of moves mix, not only ties); the
# first may expand _FIRST_NODES nodes, each later one _GROWTH times more than the one before.
_NOISE = 5.0
_FIRST_NODES = 2000
_GROWTH = 1.5
# After each depth-first search, the best-first search expands _SHARE times as many nodes, up to
# _BEST_FIRST_NODES in all: the lines it finds and the depth-first searches miss are short ones.
_SHARE = 0.5
_BEST_FIRST_NODES = 8000
_IDS = [f"{r}{s}" for s in SUITS for r in RANKS]  # int c: suit = c // 13, rank = c % 13 + 1
_INDEX = {card: i for i, card in enumerate(_IDS)}
_RANK = [c % 13 + 1 for c in range(52)]
_SUIT = [c // 13 for c in range(52)]
_RED = [SUITS[c // 13] in ("D", "H") for c in range(52)]
#: card -> the cards (ints) that may be laid on it in a column.
_ON = [[o for o in range(52) if _RANK[o] == _RANK[c] - 1 and _RED[o] != _RED[c]] for c in range(52)]
#: card -> the cards it may be laid on in a column.
_UNDER = [[u for u in range(52) if c in _ON[u]] for c in range(52)]
_KINGS = [c for c in range(52) if _RANK[c] == 13]
_ONE = [bytes((c,)) for c in range(53)]  # card -> a one-card run
_FIRST = operator.itemgetter(0)
_OTHER_SAME_COLOUR = [SUITS.index({"C": "S", "S": "C", "D": "H", "H": "D"}[s]) for s in SUITS]
_OPPOSITE = [[SUITS.index(o) for o in SUITS if (o in ("D", "H")) != (s in ("D", "H"))] for s in SUITS]


@dataclass(frozen=True)
class Hint:
    """``status``: ``win`` (``line`` wins, every stock turn included), ``progress`` (``line``
    turns up a hidden card or a stock card; no win proven), ``no_win_found`` or ``won``."""

    status: str
    line: tuple[Any, ...] = ()
    nodes: int = 0

    @property
    def move(self) -> Any:
        """The next move to play, None when there is none to give."""
        return self.line[0] if self.line else None


# A search state: (columns, foundations, talon, pos). A column is (down, up), bytes of card ints
# (bytes: membership and slicing run in C, and their hashes are cached for the transposition table);
# foundations a tuple of 4 counts in SUITS order; talon the stock and waste in dealing order
# (waste bottom .. top, then stock top .. bottom); pos the number of those cards in the waste.
State = tuple[tuple[tuple[bytes, bytes], ...], tuple[int, ...], bytes, int]


def _encode(t: Tableau) -> State:
    def num(card: str | None) -> int:
        return UNKNOWN if card is None else _INDEX[card]

    cols = tuple((bytes(num(c) for c in col.down), bytes(num(c) for c in col.up)) for col in t.columns)
    found = tuple(len(t.foundations[s]) for s in SUITS)
    talon = bytes(num(c) for c in t.waste) + bytes(num(c) for c in reversed(t.stock))
    return cols, found, talon, len(t.waste)


def _safe(card: int, found: tuple[int, ...]) -> bool:
    """Nothing can still need ``card`` in a column (it may go home without losing a win)."""
    rank, suit = _RANK[card], _SUIT[card]
    if found[suit] != rank - 1:
        return False
    if rank <= 2:
        return True
    a, b = _OPPOSITE[suit]
    return found[a] >= rank - 1 and found[b] >= rank - 1 and found[_OTHER_SAME_COLOUR[suit]] >= rank - 2


@functools.cache
def _safe_next(found: tuple[int, ...]) -> tuple[int, ...]:
    """The next card of each suit that may go home safely now (suits in order)."""
    return tuple(s * 13 + n for s, n in enumerate(found) if n < 13 and _safe(s * 13 + n, found))


@functools.cache
def _unsafe_tops(found: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(suit, card) of each foundation's top card that a column might still need."""
    return tuple(
        (s, s * 13 + n - 1) for s, n in enumerate(found) if n and not _safe(s * 13 + n - 1, _bump(found, s, -1))
    )


@functools.cache
def _reachable_at(n: int, pos: int, draw: int) -> list[int]:
    """Indices of the ``n`` talon cards that turning the stock can bring to the top of the waste."""
    if draw == 1:
        return list(range(n))
    seen = {pos - 1} if pos else set()
    p = pos
    while p < n:
        p = min(p + draw, n)
        seen.add(p - 1)
    p = 0
    while p < n:
        p = min(p + draw, n)
        seen.add(p - 1)
    return sorted(seen)


Step = tuple[Any, ...]  # ("col_found", i) ("run", i, k, n) ("talon_found", card)
#                         ("talon_col", card, k) ("found_col", suit, k)


class _Search:
    def __init__(
        self, draw: int, deadline: float, goal_reveal: bool, limit: int, rng: random.Random | None, dead: set[Any]
    ):
        self.draw = draw
        self.deadline = deadline
        self.goal_reveal = goal_reveal
        self.limit = limit
        self.rng = rng
        self.cut = False  # stopped by ``limit`` or ``deadline``: a None from run() proves nothing
        self.seen: set[Any] = set()
        self.dead = dead  # states proven to lead nowhere, kept across restarts
        self.nodes = 0

    def key(self, s: State) -> Any:
        """Columns as a set (their order does not matter; two can only be alike when empty,
        and the number of empty ones follows from the others); in draw 1 the talon follows
        from the columns and foundations."""
        if self.draw == 1:
            return frozenset(s[0]), s[1]
        talon, pos = s[2], s[3]
        return frozenset(s[0]), talon, pos if pos % 3 and pos != len(talon) else 0

    def done(self, s: State) -> bool:
        cols, _, talon, _ = s
        if any(down for down, _ in cols):
            return False
        return (self.draw == 1 or not talon) and UNKNOWN not in talon

    def children(self, s: State) -> list[tuple[int, list[Step], State]]:
        """(priority, steps, next state before settling), best first."""
        cols, found, talon, pos = s
        out: list[tuple[int, list[Step], State]] = []
        reach: bytes | dict[int, int]
        where: Callable[[int], int]  # talon card -> its index
        if self.draw == 1:
            reach, where = talon, talon.index  # UNKNOWN is never looked up
        else:
            reach = {talon[i]: i for i in _reachable_at(len(talon), pos, self.draw) if talon[i] != UNKNOWN}
            where = reach.__getitem__
        ups = [up for _, up in cols]
        allup = b"".join(ups)  # every face-up card: a card's column is found by its offset in this
        starts = list(itertools.accumulate(map(len, ups), initial=0))
        empty = None
        kings = False
        tops: dict[int, int] = {}
        for i, (down, up) in enumerate(cols):
            if not up:
                if not down and empty is None:
                    empty = i
                continue
            top = up[-1]
            tops[top] = i
            kings = kings or (bool(down) and _RANK[up[0]] == 13)
            if found[_SUIT[top]] == _RANK[top] - 1:
                out.append(
                    (
                        0 if len(up) == 1 and down else 1,
                        [("col_found", i)],
                        (_set_col(cols, i, down, up[:-1]), _bump(found, _SUIT[top], 1), talon, pos),
                    )
                )
        kings = kings or any(c in reach for c in _KINGS)
        runs = [(k, o) for k, u2 in enumerate(ups) if u2 for c in _ON[u2[-1]] if (o := allup.find(c)) >= 0]
        if empty is not None:  # kings heading a run over face-down cards, to the first empty column
            runs += [(empty, starts[i]) for i, (down, up) in enumerate(cols) if down and up and _RANK[up[0]] == 13]
            runs.sort(key=_FIRST)
        for k, o in runs:
            i = bisect.bisect_right(starts, o) - 1
            j = o - starts[i]
            d2, u2 = cols[k]
            down, up = cols[i]
            prio = _run_priority(down, up, j, found, kings)
            if prio is None:
                continue
            ncols = _set_col(_set_col(cols, i, down, up[:j]), k, d2, u2 + up[j:])
            out.append((prio, [("run", i, k, len(up) - j)], (ncols, found, talon, pos)))
        npos = pos
        for suit in range(4):
            card = suit * 13 + found[suit]
            if found[suit] < 13 and card in reach:
                idx = where(card)
                npos = idx if self.draw == 3 else 0
                out.append(
                    (1, [("talon_found", card)], (cols, _bump(found, suit, 1), talon[:idx] + talon[idx + 1 :], npos))
                )
        laid = [
            (card, k)
            for k, (_, u2) in enumerate(cols)
            if u2
            for card in _ON[u2[-1]]
            if card in reach and (self.draw == 3 or any(c in reach or c in allup for c in _ON[card]))
        ]
        if empty is not None:
            laid += [(card, empty) for card in _KINGS if card in reach]
        for card, k in laid:
            idx = where(card)
            npos = idx if self.draw == 3 else 0
            d2, u2 = cols[k]
            placed = (_set_col(cols, k, d2, u2 + _ONE[card]), found, talon[:idx] + talon[idx + 1 :], npos)
            if _RANK[card] == 13:
                out.append((4, [("talon_col", card, k)], placed))
            elif self.draw == 3:
                out.append((5, [("talon_col", card, k)], placed))
                out += [
                    (4, [("talon_col", card, k), step], after)
                    for step, after in self._carry(placed, k, card, kings, allup, starts)
                ]
            else:  # laid only to carry another card: both moves at once
                out += [
                    (4, [("talon_col", card, k), step], after)
                    for step, after in self._carry(placed, k, card, kings, allup, starts)
                ]
        for suit, card in _unsafe_tops(found):
            targets = [tops[c] for c in _UNDER[card] if c in tops]
            if not targets or not any(c in reach or c in allup for c in _ON[card]):
                continue
            for k in targets:
                d2, u2 = cols[k]
                placed = (_set_col(cols, k, d2, u2 + _ONE[card]), _bump(found, suit, -1), talon, pos)
                out += [
                    (7, [("found_col", suit, k), step], after)
                    for step, after in self._carry(placed, k, card, kings, allup, starts)
                ]
        if self.rng is None:
            out.sort(key=_FIRST)
        else:
            rnd = self.rng.random
            out.sort(key=lambda x: x[0] + _NOISE * rnd())
        return out

    def _carry(
        self, s: State, k: int, base: int, kings: bool, allup: bytes, starts: list[int]
    ) -> list[tuple[Step, State]]:
        """The moves that put a talon card or a run onto ``base``, just laid on column ``k`` (a
        talon or foundation card; ``allup``: the face-up cards, none of which can lie on it yet, and
        ``starts`` where each column's begin in it)."""
        cols, found, talon, pos = s
        out: list[tuple[Step, State]] = []
        reach = talon if self.draw == 1 else [talon[i] for i in _reachable_at(len(talon), pos, 3)]
        d2, u2 = cols[k]
        for card in _ON[base]:
            if card in reach:
                idx = talon.index(card)
                out.append(
                    (
                        ("talon_col", card, k),
                        (
                            _set_col(cols, k, d2, u2 + _ONE[card]),
                            found,
                            talon[:idx] + talon[idx + 1 :],
                            idx if self.draw == 3 else 0,
                        ),
                    )
                )
            o = allup.find(card)
            if o >= 0:
                i = bisect.bisect_right(starts, o) - 1
                j = o - starts[i]
                down, up = cols[i]
                if _run_priority(down, up, j, found, kings) is not None:
                    ncols = _set_col(_set_col(cols, i, down, up[:j]), k, d2, u2 + up[j:])
                    out.append((("run", i, k, len(up) - j), (ncols, found, talon, pos)))
        return out

    def settle(self, s: State) -> tuple[State, list[Step], bool]:
        """Turn up exposed face-down cards and make the safe moves home.

        Returns the new state, the safe moves made, and whether an unknown card was exposed.
        """
        cols, found, talon, pos = s
        steps: list[Step] = []
        revealed = changed = False
        while True:
            for i, (down, up) in enumerate(cols):
                if down and not up:
                    if down[-1] == UNKNOWN:
                        revealed = True
                    else:
                        cols = _set_col(cols, i, down[:-1], down[-1:])
                        changed = True
            step = None
            for card in _safe_next(found):
                suit = _SUIT[card]
                for i, (down, up) in enumerate(cols):
                    if up and up[-1] == card:
                        cols = _set_col(cols, i, down, up[:-1])
                        step = ("col_found", i)
                        break
                else:
                    if self.draw == 3 or card not in talon:
                        continue
                    idx = talon.index(card)
                    talon = talon[:idx] + talon[idx + 1 :]
                    step = ("talon_found", card)
                found = _bump(found, suit, 1)
                steps.append(step)
                break
            if step is None:
                return ((cols, found, talon, pos) if changed else s), steps, revealed
            changed = True

    def run(self, root: State) -> list[Step] | None:
        """The steps of a line from ``root`` to the goal, or None (exhausted or out of time).

        A state whose every child was searched to the end without a line joins ``dead``, which
        the restarts share; one with a child skipped only because it is on the current path or
        in an unfinished part of the search does not (that child may yet lead somewhere)."""
        dead = self.dead
        start, autos, revealed = self.settle(root)
        if (revealed and self.goal_reveal) or self.done(start):
            return autos
        first = self.key(start)
        if first in dead:
            return None
        self.seen.add(first)
        stack = [iter(self.children(start))]
        keys: list[tuple[Any, ...]] = [(first,)]
        clean = [True]  # per frame: every child so far was proven dead
        path: list[list[Step]] = [autos]
        while stack:
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                path.pop()
                done_keys = keys.pop()
                if clean.pop():
                    dead.update(done_keys)
                elif clean:
                    clean[-1] = False
                continue
            _, moves, raw = step
            key = self.key(raw)  # settling is a function of the state: skip it for old ones
            if key in self.seen:
                if key not in dead:
                    clean[-1] = False
                continue
            self.seen.add(key)
            nxt, autos, revealed = self.settle(raw)
            if (revealed and self.goal_reveal) or self.done(nxt):
                return [s for steps in path for s in steps] + moves + autos
            frame_keys: tuple[Any, ...] = (key,)
            if nxt is not raw:
                settled = self.key(nxt)
                if settled in self.seen:
                    if settled in dead:
                        dead.add(key)
                    else:
                        clean[-1] = False
                    continue
                self.seen.add(settled)
                frame_keys = (key, settled)
            self.nodes += 1
            if self.nodes >= self.limit or (self.nodes & 255 == 0 and time.thread_time() > self.deadline):
                self.cut = True
                return None
            path.append(moves + autos)
            keys.append(frame_keys)
            clean.append(True)
            stack.append(iter(self.children(nxt)))
        return None


def _run_priority(down: bytes, up: bytes, j: int, found: tuple[int, ...], kings: bool) -> int | None:
    """The search priority of moving ``up[j:]`` to another column, None when not worth it."""
    if j == 0:
        if not down and not kings:
            return None  # emptying a column nothing can use
        return 2 - (len(down) > 3) if down else 6
    below = up[j - 1]
    if found[_SUIT[below]] != _RANK[below] - 1:
        return None  # a partial run moves only to send the card under it home
    return 3


def _bump(found: tuple[int, ...], suit: int, by: int) -> tuple[int, ...]:
    return found[:suit] + (found[suit] + by,) + found[suit + 1 :]


def _set_col(cols: tuple, i: int, down: bytes, up: bytes) -> tuple:
    return cols[:i] + ((down, up),) + cols[i + 1 :]


def hint(tableau: Tableau, budget_s: float = 2.0) -> Hint:
    """The next move to play on ``tableau`` and the line it starts.

    ``budget_s`` is CPU time of the calling thread, so the vision thread and other programs
    sharing the processor do not eat the search's budget (the wait on screen may be longer).
    """
    if tableau.won:
        return Hint("won")
    root = _encode(tableau)
    known = not any(UNKNOWN in down for down, _ in root[0]) and UNKNOWN not in root[2]
    line, nodes = _restarts(root, tableau.draw, not known, time.thread_time() + budget_s)
    if line is None and not known and UNKNOWN in root[2]:
        return Hint("progress", (Draw() if tableau.stock else Recycle(),), nodes)
    if line is None:
        return Hint("no_win_found", (), nodes)
    moves = _concrete(tableau, line)
    if not known:
        return Hint("progress", tuple(moves), nodes)
    finished = copy.deepcopy(tableau)
    for move in moves:
        finished.apply(move)
    return Hint("win", tuple(moves + _finish(finished)), nodes)


def _restarts(root: State, draw: int, goal_reveal: bool, deadline: float) -> tuple[list[Step] | None, int]:
    """Depth-first searches with a growing node limit, each followed by half as many nodes of one
    resumable best-first search (up to its cap), until one finds a line, one ends having searched
    everything (no line exists under the search's rules) or the time is up; returns the line and
    the nodes of all of them. Seeded, so a position gets the same searches each time (only the
    deadline may stop them sooner)."""
    limit, nodes, attempt = _FIRST_NODES, 0, 0
    dead: set[Any] = set()
    best = _BestFirst(_Search(draw, deadline, goal_reveal, 0, None, set()), root)
    while True:
        search = _Search(draw, deadline, goal_reveal, limit, random.Random(attempt) if attempt else None, dead)
        line = search.run(root)
        nodes += search.nodes
        if line is not None or not search.cut or time.thread_time() > deadline:
            return line, nodes
        if best.expanded < _BEST_FIRST_NODES:
            line = best.run(min(int(search.nodes * _SHARE), _BEST_FIRST_NODES - best.expanded))
            nodes += best.nodes
            if line is not None or best.exhausted or time.thread_time() > deadline:
                return line, nodes
        attempt += 1
        limit = int(limit * _GROWTH)


class _BestFirst:
    """Best-first search: always expands the most promising state seen (:func:`_promise`), the
    newest first among equals. It finds the lines of some deals in a few dozen nodes where a
    depth-first search spends its whole budget under an early wrong move. Resumable: each
    :meth:`run` goes on where the last stopped."""

    def __init__(self, search: _Search, root: State):
        self.search = search
        self.nodes = 0  # expanded by the last run
        self.expanded = 0  # by all runs
        self.exhausted = False
        start, autos, revealed = search.settle(root)
        first = search.key(start)
        self.goal = autos if (revealed and search.goal_reveal) or search.done(start) else None
        self.parents: dict[Any, tuple[Any, list[Step]]] = {first: (None, autos)}
        self.count = 0
        self.heap: list[tuple[int, int, State, Any]] = [(-_promise(start), 0, start, first)]
        search.seen.add(first)

    def run(self, budget: int) -> list[Step] | None:
        """Expand up to ``budget`` nodes; the line found, else None."""
        if self.goal is not None:
            return self.goal
        search, heap, parents = self.search, self.heap, self.parents
        self.nodes = 0
        while heap:
            if self.nodes >= budget or (self.nodes & 255 == 0 and time.thread_time() > search.deadline):
                return None
            _, _, state, here = heapq.heappop(heap)
            self.nodes += 1
            self.expanded += 1
            for _, moves, raw in search.children(state):
                key = search.key(raw)
                if key in search.seen:
                    continue
                search.seen.add(key)
                nxt, autos, revealed = search.settle(raw)
                if (revealed and search.goal_reveal) or search.done(nxt):
                    return self._line(here) + moves + autos
                if nxt is not raw:
                    key = search.key(nxt)
                    if key in search.seen:
                        continue
                    search.seen.add(key)
                parents[key] = (here, moves + autos)
                self.count += 1
                heapq.heappush(heap, (-_promise(nxt), -self.count, nxt, key))
        self.exhausted = True
        return None

    def _line(self, key: Any) -> list[Step]:
        """The steps from the root to the state ``key``."""
        parts: list[list[Step]] = []
        while key is not None:
            key, steps = self.parents[key]
            parts.append(steps)
        return [step for steps in reversed(parts) for step in steps]


def _promise(s: State) -> int:
    """How close ``s`` looks to a win: cards home, few face-down cards, the deep ones counting
    more (a column's k-th hidden card from the top counts k), a short talon, empty columns."""
    cols, found, talon, _ = s
    hidden = deep = empty = 0
    for down, up in cols:
        n = len(down)
        hidden += n
        deep += n * (n + 1) // 2
        empty += not n and not up
    return 5 * sum(found) - 10 * hidden - deep - len(talon) + 3 * empty


def _fetch(t: Tableau, card: str, dst: str) -> list[Any]:
    """The stock turns that bring talon ``card`` to the top of the waste, then the move."""
    moves: list[Any] = []
    for _ in range(2 * (len(t.stock) + len(t.waste)) + 2):
        if t.waste and t.waste[-1] == card:
            t.apply(Move("waste", dst))
            return moves + [Move("waste", dst)]
        turn = Draw() if t.stock else Recycle()
        t.apply(turn)
        moves.append(turn)
    raise AssertionError(f"talon card {card} unreachable")  # the search only picks reachable ones


def _concrete(tableau: Tableau, steps: list[Step]) -> list[Any]:
    """The engine moves (stock turns included) that play the search's ``steps``."""
    t = copy.deepcopy(tableau)
    moves: list[Any] = []
    for step in steps:
        kind = step[0]
        if kind in ("talon_found", "talon_col"):
            moves += _fetch(t, _IDS[step[1]], "found" if kind == "talon_found" else f"col{step[2]}")
            continue
        if kind == "col_found":
            move = Move(f"col{step[1]}", "found")
        elif kind == "run":
            move = Move(f"col{step[1]}", f"col{step[2]}", step[3])
        else:
            move = Move(f"found:{SUITS[step[1]]}", f"col{step[2]}")
        t.apply(move)
        moves.append(move)
    return moves


def _finish(t: Tableau) -> list[Any]:
    """A position with no face-down card: bring the lowest card home until all are home."""
    moves: list[Any] = []
    while not t.won:
        tops = {col.up[-1]: f"col{i}" for i, col in enumerate(t.columns) if col.up}
        talon = [c for c in t.stock + t.waste if c is not None]
        card = min(
            (c for c in list(tops) + talon if _RANK[_INDEX[c]] == len(t.foundations[SUITS[_SUIT[_INDEX[c]]]]) + 1),
            key=lambda c: _RANK[_INDEX[c]],
        )
        if card in tops:
            move = Move(tops[card], "found")
            t.apply(move)
            moves.append(move)
        else:
            moves += _fetch(t, card, "found")
    return moves


class Advisor:
    """Hints that follow one line: asked again on the position the line predicted, it gives the
    line's next move instead of searching anew (a fresh search could pick another line)."""

    def __init__(self, budget_s: float = 2.0):
        self.budget_s = budget_s
        self._line: list[Any] = []
        self._expected: list[State] = []
        self._status = ""

    def hint(self, tableau: Tableau) -> Hint:
        here = _encode(tableau)
        if here in self._expected:
            k = self._expected.index(here)
            return Hint(self._status, tuple(self._line[k:]))
        result = hint(tableau, self.budget_s)
        self._status, self._line = result.status, list(result.line)
        t = copy.deepcopy(tableau)
        self._expected = []
        for move in self._line:
            self._expected.append(_encode(t))
            t.apply(move)
        return result


__all__ = ["Advisor", "Hint", "hint"]
