"""The printable passport: a folded A5 booklet with exactly one box per place, grouped by region
and province, in four languages, and the passport screen names the page the PDF puts a box on.

Seed 000_de7fdf0eefacbd60.txt: the place's stamp "s'imprime dans ton passeport"."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from kiosk.cli import main
from kiosk.decks import load_deck
from kiosk.i18n import LANGUAGES, translate
from kiosk.modes.passport import has_stamp
from kiosk.render.landmarks import landmark_mask
from kiosk.render.passport_book import ghost_box, impose, render_pages, save_passport_pdf
from kiosk.render.passport_layout import (
    BOTTOM_MM,
    BOX_MM,
    MARGIN_MM,
    PAGE_MM,
    REGION_ORDER,
    TOP_MM,
    booklet,
    page_of,
)
from kiosk.ui.screens.passport import page_line

DECK = load_deck("affiche-belge")
PLACES = [c.id for c in DECK if has_stamp(c)]
DPI = 60  # enough to tell the pages apart; the PDF itself is drawn at 200


def _pdf_pages(path: Path) -> list[tuple[float, float]]:
    data = path.read_bytes()
    count = len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
    boxes = [tuple(float(v) for v in m.split()[2:]) for m in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", data)]
    assert len(boxes) == count
    return boxes  # type: ignore[return-value]


def _iou(ghost: np.ndarray, card_id: str) -> float:
    """How well ``ghost`` (the ink drawn in a box's landmark area) matches the card's landmark,
    drawn square and centred as the booklet draws it."""
    h, w = ghost.shape
    side = min(w, h)
    mask = Image.new("L", (w, h), 0)
    mask.paste(landmark_mask(card_id, (side, side)), ((w - side) // 2, (h - side) // 2))
    drawn = np.asarray(mask) >= 128
    return float((drawn & ghost).sum() / max(1, (drawn | ghost).sum()))


def _check_layout(pages) -> None:  # type: ignore[no-untyped-def]
    assert len(pages) % 4 == 0  # sheets folded in half
    assert [p.number for p in pages] == list(range(1, len(pages) + 1))
    for page in pages:
        for slot in page.slots:
            x0, y0, x1, y1 = slot.box
            assert (x1 - x0, y1 - y0) == BOX_MM
            assert MARGIN_MM <= x0 and x1 <= PAGE_MM[0] - MARGIN_MM and TOP_MM <= y0 and y1 <= BOTTOM_MM
        boxes = [s.box for s in page.slots]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]  # no two overlap


def test_the_booklet_has_one_box_per_place_and_folds() -> None:
    pages = booklet(DECK)
    _check_layout(pages)
    boxes = Counter(s.card_id for p in pages for s in p.slots)
    assert set(boxes) == set(PLACES) and set(boxes.values()) == {1} and len(PLACES) == 52
    assert [p.kind for p in pages[:3]] == ["cover", "howto", "map"] and pages[-1].kind == "back"
    assert "JK1" not in boxes and "JK2" not in boxes  # the Manneken-Pis opens the surprise: no stamp


def test_boxes_follow_region_then_province_under_their_heading() -> None:
    order: list[tuple[int, str | None]] = []
    for page in booklet(DECK):
        for slot in page.slots:
            card = DECK[slot.card_id]
            assert page.region == card.region
            above = [h for h in page.headings if h.y < slot.box[1]]
            assert above and above[-1].province == card.province  # its province's heading is above it
            order.append((REGION_ORDER.index(card.region), card.province))
    assert [r for r, _ in order] == sorted(r for r, _ in order)
    runs = [p for i, (_, p) in enumerate(order) if i == 0 or order[i - 1][1] != p]
    assert len(runs) == len(set(runs)) == 12  # each province's boxes together: 10, Brussels, none


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(PLACES), min_size=1, max_size=52, unique=True))
def test_any_set_of_places_gets_a_foldable_booklet_with_each_box_once(ids: list[str]) -> None:
    pages = booklet(DECK.subset(ids))
    _check_layout(pages)
    assert sorted(s.card_id for p in pages for s in p.slots) == sorted(ids)


@pytest.fixture(scope="module")
def french_pages() -> list[Image.Image]:
    return render_pages("fr", "Musée L", dpi=DPI)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_screen_names_the_page_the_pdf_puts_the_box_on(lang: str, french_pages: list[Image.Image]) -> None:
    pages = booklet(DECK)
    for card_id in PLACES:
        number = page_of(card_id)
        assert page_line(lambda key, **p: translate(key, lang, **p), card_id) == translate(
            "passport.page", lang, page=number
        )
        if lang != "fr":
            continue
        # On that page of the drawing, the box's faint landmark is this place's and no other's.
        slot = next(s for s in pages[number - 1].slots if s.card_id == card_id)
        box = tuple(round(v / 25.4 * DPI) for v in ghost_box(slot))
        ghost = np.asarray(french_pages[number - 1].convert("L").crop(box)) < 237
        likeness = {other: _iou(ghost, other) for other in PLACES}
        assert likeness[card_id] > 0.8 and max(likeness, key=likeness.__getitem__) == card_id
    assert page_line(lambda key, **p: key, "JK1") is None


def test_every_language_gets_its_own_words_on_the_same_pages() -> None:
    covers = {}
    for lang in LANGUAGES:
        pages = render_pages(lang, "Musée L", dpi=40)
        assert len(pages) == len(booklet(DECK))
        covers[lang] = np.asarray(pages[0]).tobytes()
        assert translate("app.passport", lang) and translate("passport.book.howto", lang)
    assert len(set(covers.values())) == 4  # the title is in each language


def test_imposition_pairs_pages_for_a_saddle_stitched_fold() -> None:
    pages = [Image.new("RGB", (148, 210), (k, k, k)) for k in range(8)]
    sides = impose(pages)
    assert len(sides) == 4 and sides[0].size == (297, 210)
    left_right = [(s.getpixel((74, 100))[0], s.getpixel((222, 100))[0]) for s in sides]
    assert left_right == [(7, 0), (1, 6), (5, 2), (3, 4)]  # 8|1, back 2|7, then 6|3, back 4|5
    with pytest.raises(ValueError, match="multiple of 4"):
        impose(pages[:6])


def test_the_pdf_is_a4_sides_or_a5_pages(tmp_path: Path) -> None:
    imposed, pages = tmp_path / "booklet.pdf", tmp_path / "pages.pdf"
    assert save_passport_pdf(imposed, "nl", "Museum", dpi=DPI) == 8
    assert save_passport_pdf(pages, "de", "Museum", imposed=False, dpi=DPI) == 16
    a4 = _pdf_pages(imposed)
    a5 = _pdf_pages(pages)
    assert len(a4) == 8 and all(abs(w - 841.9) < 2 and abs(h - 595.3) < 2 for w, h in a4)
    assert len(a5) == 16 and all(abs(w - 419.5) < 2 and abs(h - 595.3) < 2 for w, h in a5)


def test_kiosk_render_passport(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("KIOSK_CONFIG", str(tmp_path / "none.toml"))
    out = tmp_path / "passport.pdf"
    assert main(["render", "passport", "-o", str(out), "--lang", "en", "--name", "Card Museum", "--pages"]) == 0
    assert len(_pdf_pages(out)) == 16 and "passport (en): 16" in capsys.readouterr().out
    assert main(["render", "passport", "-o", str(tmp_path / "x.png")]) == 2
    assert main(["render", "passport", "-o", str(tmp_path / "x.pdf"), "--name", " "]) == 2
    assert main(["render", "passport", "-o", str(tmp_path / "no" / "x.pdf")]) == 2
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "x.png").exists()
