"""Where everything goes in the printable passport: its A5 pages and one box per place.

The layout is geometry only (millimetres on an A5 page, no text measured), so the page a place's
box is on is the same in every language, and the passport screen can tell the visitor that page
without drawing anything: :func:`page_of` is what both the screen and the PDF use.

Pages: the cover, how it works, the map, then the places region by region (Flanders, Wallonia,
Brussels, then the national specialities of no region), province by province (west to east, as
on the map), two boxes a row; a province heading repeats when its boxes go on over a page. Note
pages before the back cover make the count a multiple of four, as a folded booklet needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kiosk.decks import Card, Deck, load_deck
from kiosk.decks.model import REGIONS
from kiosk.modes.passport import has_stamp
from kiosk.render.belgium_map import REGION_PROVINCES

DECK_ID = "affiche-belge"
PAGE_MM = (148.0, 210.0)  # A5 portrait
BOX_MM = (60.0, 42.0)  # a 58 mm printer's stamp (48 x 36 mm printed) and a margin round it
MARGIN_MM = 10.0
BAND_MM = 11.0  # the region's band at the top of a places page
HEADING_MM = 8.0  # a province's heading
LABEL_MM = 6.0  # the place's name and card index above its box
ROW_GAP_MM = 4.0
TOP_MM = MARGIN_MM + BAND_MM + 3.0  # where headings and boxes start
BOTTOM_MM = PAGE_MM[1] - MARGIN_MM - 4.0  # and must end, above the page number
#: Regions in the booklet's order; None holds the places of no region (national specialities).
REGION_ORDER: tuple[str | None, ...] = (*REGIONS, None)


@dataclass(frozen=True)
class Slot:
    """A place's box: the card and the box's corners (x0, y0, x1, y1) in mm on its page."""

    card_id: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class Heading:
    """A province's heading (None: the national specialities) whose top is ``y`` mm."""

    province: str | None
    y: float
    continued: bool = False


@dataclass(frozen=True)
class Page:
    """One A5 page: ``kind`` is cover, howto, map, places, notes or back."""

    number: int
    kind: str
    region: str | None = None
    headings: tuple[Heading, ...] = ()
    slots: tuple[Slot, ...] = ()


def place_groups(deck: Deck) -> list[tuple[str | None, str | None, list[Card]]]:
    """(region, province, cards) in booklet order, for every card that prints a stamp."""
    cards = [c for c in deck if has_stamp(c)]
    groups = []
    for region in REGION_ORDER:
        in_region = [c for c in cards if c.region == region]
        known = REGION_PROVINCES.get(region or "", ())
        others = sorted({c.province or "" for c in in_region} - set(known))
        for province in [*known, *others]:
            members = [c for c in in_region if (c.province or "") == province]
            if members:
                groups.append((region, province or None, members))
    return groups


def booklet(deck: Deck) -> tuple[Page, ...]:
    """The pages of the passport for ``deck``, numbered from 1."""
    kinds: list[tuple[str, str | None, list[Heading], list[Slot]]] = [
        ("cover", None, [], []),
        ("howto", None, [], []),
        ("map", None, [], []),
    ]
    row_h = LABEL_MM + BOX_MM[1] + ROW_GAP_MM
    gap = PAGE_MM[0] - 2 * MARGIN_MM - 2 * BOX_MM[0]
    for region in REGION_ORDER:
        groups = [g for g in place_groups(deck) if g[0] == region]
        if not groups:
            continue
        kinds.append(("places", region, [], []))
        y = TOP_MM
        for _, province, cards in groups:
            for i in range(0, len(cards), 2):
                if y + (HEADING_MM if i == 0 else 0.0) + row_h > BOTTOM_MM:  # over the page
                    kinds.append(("places", region, [], []))
                    y = TOP_MM
                if i == 0 or y == TOP_MM:
                    kinds[-1][2].append(Heading(province, y, continued=i > 0))
                    y += HEADING_MM
                for k, card in enumerate(cards[i : i + 2]):
                    x = MARGIN_MM + k * (BOX_MM[0] + gap)
                    top = y + LABEL_MM
                    kinds[-1][3].append(Slot(card.id, (x, top, x + BOX_MM[0], top + BOX_MM[1])))
                y += row_h
    while (len(kinds) + 1) % 4:
        kinds.append(("notes", None, [], []))
    kinds.append(("back", None, [], []))
    return tuple(
        Page(n, kind, region, tuple(headings), tuple(slots))
        for n, (kind, region, headings, slots) in enumerate(kinds, start=1)
    )


@cache
def _pages_by_card() -> dict[str, int]:
    return {s.card_id: page.number for page in booklet(load_deck(DECK_ID)) for s in page.slots}


def page_of(card_id: str) -> int | None:
    """The passport page holding the box of L'Affiche Belge card ``card_id`` (None: no box)."""
    return _pages_by_card().get(card_id)
