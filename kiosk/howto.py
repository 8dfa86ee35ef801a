"""How to play each game, as data: what its pictures show (which cards, which zones of its mat).

The words live in the catalog ``kiosk/i18n/catalogs/howto.toml`` under ``howto.<game>.pitch``
(the menu's one line), ``.goal``, ``.setup`` and ``.step1`` ... ``.stepN``, one per picture of
:attr:`Guide.steps`. A picture is drawn by :func:`kiosk.render.howto.render_picture` with the
game's own deck and the mat layout its referee uses, from the small spec language described
there: ``"6H + 6S ✓"`` is a row of cards and signs; ``{"draw": "pile #20"}`` fills a zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Picture:
    """One picture: a ``row`` of cards and signs on the felt, or the game's mat with ``zones``
    filled (zone name -> what lies there) and the ``lit`` zones outlined."""

    row: str = ""
    zones: Mapping[str, str] = field(default_factory=dict)
    lit: tuple[str, ...] = ()


@dataclass(frozen=True)
class Guide:
    """A game's how-to-play: a picture of its goal, its setup on the mat (for ``players``
    players) and 3 to 6 steps; a page each."""

    game_id: str
    players: int
    goal: Picture
    setup: Picture
    steps: tuple[Picture, ...]

    def key(self, part: str) -> str:
        """The message key of one text of this guide: ``pitch``, ``goal``, ``setup``, ``step2``."""
        return f"howto.{self.game_id}.{part}"

    @property
    def pages(self) -> int:
        """The goal, the setup, then one page per step."""
        return 2 + len(self.steps)

    def picture(self, page: int) -> Picture:
        return (self.goal, self.setup, *self.steps)[page]

    def text_key(self, page: int) -> str:
        """The message key of the words of ``page``."""
        return self.key(("goal", "setup")[page] if page < 2 else f"step{page - 1}")


def _row(spec: str) -> Picture:
    return Picture(row=spec)


def _mat(lit: tuple[str, ...] = (), **zones: str) -> Picture:
    return Picture(zones=zones, lit=lit)


# fmt: off
GUIDES: dict[str, Guide] = {g.game_id: g for g in (
    Guide("compromis", 2,
          goal=_row("6H/6S 4H/4C 7S/7H ✓"),
          setup=_mat(seat0="#7", seat1="#7", draw="pile #20", discard="pile 9C"),
          steps=(_row("# 9C"),
                 _mat(("discard",), discard="pile 9C 2D"),
                 _row("6H + 6S ✓ | 8C + 8D ✗"),
                 _row("6H/6S 4H/4C 7S/7H | + KC → '2"),
                 _mat(("aside",), aside="row AS JK1"),
                 _row("AS AH AD | AC JK1"))),
    Guide("choux", 3,
          goal=_row("QH/QD 10C/10S ★ | JS ✗"),
          setup=_mat(seat0="3C 3S", seat1="KC KS", seat2="5D 5H"),
          steps=(_row("10C + 10S ✓ | 10D + 10C ✗"),
                 _row("#7 ←"),
                 _row("# # # # →"),
                 _row("QH + QD ✓"),
                 _row("JS ✗"))),
    Guide("bataille", 2,
          goal=_row("#8 ★"),
          setup=_mat(seat0="pile #26", seat1="pile #26"),
          steps=(_mat(("seat0", "seat1"), seat0="9H", seat1="QS"),
                 _row("QS > 9H"),
                 _row("7C = 7D | # 4S # JH"),
                 _mat(("seat1",), seat0="pile #40"))),
    Guide("huit", 2,
          goal=_row("5H/9H/9C/3C ★"),
          setup=_mat(seat0="#7", seat1="#7", draw="pile #20", discard="pile 5H"),
          steps=(_row("5H/9H ✓ 5H/5C ✓ | 5H/2S ✗"),
                 _row("KD/8S → ♣"),
                 _row("# → 3H ✓"),
                 _row("#4 ↺ 5H"),
                 _row("# ★"))),
    Guide("president", 3,
          goal=_row("2S 2H → ★"),
          setup=_mat(seat0="#6", seat1="#6", seat2="#6", centre="row 9C 9D"),
          steps=(_mat(("centre",), centre="row 9C 9D"),
                 _row("9C 9D → QH QS ✓ | 9C 9D → KC ✗"),
                 _row("3C < 10D < | AS < 2H"),
                 _row("QH QS ↺"),
                 _row("2H → ★"))),
    Guide("patience", 1,
          goal=_mat(("found0", "found1", "found2", "found3"),
                    found0="pile KC", found1="pile KD", found2="pile KH", found3="pile KS"),
          setup=_mat(col0="column 5H", col1="column # KS", col2="column # # 9D", col3="column # # # 2C",
                     col4="column # # # # JH", col5="column # # # # # 7S", col6="column # # # # # # QD",
                     stock="pile #24"),
          steps=(_row("10S/9H ✓ | 10S/9C ✗"),
                 _row("AH 2H 3H → 4H ✓"),
                 _mat(("stock", "waste"), stock="pile #20", waste="pile 6C"),
                 _row("KS QH JC ✓ | 9D ✗"),
                 _row("? → 10S/9H"))),
    Guide("klaverjassen", 4,
          goal=_mat(("seat0", "seat2"), seat0="#8", seat2="#8"),
          setup=_mat(seat0="#8", seat1="#8", seat2="#8", seat3="#8"),
          steps=(_row("♥ → JH 9H AH"),
                 _row("KD/7D ✓ | KD/8S ✗"),
                 _row("JH > 9H > AH > 10H"),
                 _row("JH '20 9H '14 | AH '11 10H '10"),
                 _row("8D 9D 10D ✓"),
                 _row("#8 '+100"))),
    Guide("manille", 2,
          goal=_row("10D AD KD '42 → '12"),
          setup=_mat(piles0="double 10D KS 7C QH", piles1="double AH 9C JD 8S", seat0="#8", seat1="#8"),
          steps=(_row("♠ '×2 '×4"),
                 _row("10H > AH > KH | > QH > JH"),
                 _row("AD/10D ✓ | AD/KD ✗"),
                 _mat(("piles0",), piles0="double 10D KS QH", seat0="AD 7H"),
                 _row("10S '5 AS '4 KS '3 | QS '2 JS '1"))),
    Guide("kakkerlakken", 3,
          goal=_row("rat-1 fly-1 spider-1 ✓"),
          setup=_mat(seat0="#7", seat1="#7", seat2="#7"),
          steps=(_row("# → fly-1 ?"),
                 _row("# ✓ ✗ →"),
                 _row("fly-1 ✓"),
                 _mat(("seat1",), seat0="rat-1", seat1="fly-1 fly-2"),
                 _row("rat-1 rat-2 | rat-3 rat-4 ✗"))),
    Guide("pouilleux", 2,
          goal=_row("3+4/7 9+5/14 ★ | pouilleux ✗"),
          setup=_mat(seat0="3+4 7", seat1="9+5 14"),
          steps=(_row("3+4 = 7 ✓ | 5+2 3+4 ✗"),
                 _row("6+7 12 ✗"),
                 _row("# → 8+7 15 ✓"),
                 _row("pouilleux ✗"))),
    Guide("cache-cache", 2,
          goal=_row("8+7 = 15 '+1"),
          setup=_mat(seat0="double 3+4 8+7 6+7", seat1="double 9+5 5+3 7+2"),
          steps=(_mat(("centre",), centre="double 8+7"),
                 _row("8+7 = 15 ✓"),
                 _row("8+7 = 14 ✗ → #"),
                 _row("# ↔ #"))),
    Guide("recto-verso", 2,
          goal=_row("6+7 → 13 '+2"),
          setup=_mat(centre="grid 3+4 8+7 6+7 9+5 5+3 7+2"),
          steps=(_row("6+7 = 13 ?"),
                 _row("6+7 → 13"),
                 _row("6+7 = 13 ✓ | '+2 '+1"),
                 _row("6+7 = 12 ✗ | '+1 '+2"))),
    Guide("memory", 2,
          goal=_row("7x8/56 6x6/36 ★"),
          setup=_mat(centre="grid #12"),
          steps=(_mat(("centre",), centre="grid # # 7x8 # 56 # # # # # # #"),
                 _row("7x8 = 56 ✓"),
                 _row("7x8 54 ✗ ↺"),
                 _row("6x9 54 ✗ →"),
                 _row("7x8/56 6x6/36 | 9+5/14 ★"))),
)}
# fmt: on


def guide(game_id: str) -> Guide | None:
    """The how-to-play of ``game_id``; None for a game installed without one (a venue's own)."""
    return GUIDES.get(game_id)
