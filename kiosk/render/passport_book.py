"""The printable passport: an A5 booklet with a box for every place's stamp, in one language.

``kiosk render passport -o passport.pdf`` writes it imposed two A5 pages to an A4 landscape
sheet in saddle-stitch order: print double-sided (flip on the short edge) at 100 %, stack the
sheets in order, fold them in half and staple on the fold. ``--pages`` writes the A5 pages in
reading order instead, for a printer that imposes booklets itself. Where everything goes comes
from :mod:`kiosk.render.passport_layout`; this module only draws it.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from kiosk.decks import Card, Deck, load_deck
from kiosk.devices.stamp import card_index, render_stamp
from kiosk.i18n import translate
from kiosk.render.belgium_map import REGION_PROVINCES, centre, draw_map, map_size, project
from kiosk.render.emblems import draw_emblem
from kiosk.render.faces import render_face
from kiosk.render.landmarks import landmark_mask
from kiosk.render.passport_layout import (
    BOX_MM,
    DECK_ID,
    HEADING_MM,
    MARGIN_MM,
    PAGE_MM,
    Page,
    Slot,
    booklet,
)
from kiosk.render.posters import PALETTES
from kiosk.render.text import font

RGB = tuple[int, int, int]
DPI = 200
SHEET_MM = (297.0, 210.0)  # A4 landscape: two A5 pages side by side
NAVY: RGB = (28, 40, 80)
GREY: RGB = (110, 110, 120)
FAINT: RGB = (218, 218, 224)  # the ghost of the landmark in an empty box
RED: RGB = (200, 30, 40)
WHITE: RGB = (255, 255, 255)
#: Map labels that do not sit at their province's centre (Flemish Brabant's is under Brussels).
_LABEL_AT: dict[str, tuple[float, float]] = {"flemish-brabant": (4.82, 50.86), "brussels": (4.37, 50.85)}


class _Sheet:
    """An A5 page being drawn: millimetres in, pixels out, in one language."""

    def __init__(self, lang: str, dpi: int) -> None:
        self.lang, self.dpi = lang, dpi
        self.img = Image.new("RGB", (self.px(PAGE_MM[0]), self.px(PAGE_MM[1])), WHITE)
        self.draw = ImageDraw.Draw(self.img)

    def px(self, mm: float) -> int:
        return round(mm / 25.4 * self.dpi)

    def t(self, key: str, **params: object) -> str:
        return translate(key, self.lang, **params)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size_pt: float,
        fill: RGB = NAVY,
        *,
        bold: bool = True,
        serif: bool = False,
        anchor: str = "ls",
        max_mm: float | None = None,
    ) -> float:
        """One line at ``xy`` (mm), shrunk to ``max_mm`` wide if given; returns its width in mm."""
        name = ("DejaVuSerif" if serif else "DejaVuSans") + ("-Bold" if bold else "")
        px = round(size_pt / 72 * self.dpi)
        f = font(name, px)
        if max_mm is not None:
            while px > 6 and self.draw.textlength(text, font=f) > self.px(max_mm):
                px -= 1
                f = font(name, px)
        self.draw.text((self.px(xy[0]), self.px(xy[1])), text, font=f, fill=fill, anchor=anchor)
        return self.draw.textlength(text, font=f) * 25.4 / self.dpi

    def paragraph(
        self, box: tuple[float, float, float], text: str, size_pt: float, fill: RGB = NAVY, centred: bool = False
    ) -> float:
        """Words wrapped into the width from (x0, y0) to x1 (mm); returns the bottom in mm."""
        x0, y, x1 = box
        f = font("DejaVuSans", round(size_pt / 72 * self.dpi))
        lines = [""]
        for word in text.split():
            trial = f"{lines[-1]} {word}".strip()
            if lines[-1] and self.draw.textlength(trial, font=f) > self.px(x1 - x0):
                lines.append(word)
            else:
                lines[-1] = trial
        x, anchor = ((x0 + x1) / 2, "ms") if centred else (x0, "ls")
        for line in lines:
            y += size_pt * 25.4 / 72 * 1.35
            self.draw.text((self.px(x), self.px(y)), line, font=f, fill=fill, anchor=anchor)
        return y

    def box(self, box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = box
        return self.px(x0), self.px(y0), self.px(x1), self.px(y1)

    def paste(self, art: Image.Image, xy: tuple[float, float], width_mm: float) -> float:
        """``art`` scaled to ``width_mm`` with its top-left at ``xy``; returns its height in mm."""
        w = self.px(width_mm)
        h = round(art.height * w / art.width)
        self.img.paste(art.convert("RGB").resize((w, h), Image.Resampling.LANCZOS), (self.px(xy[0]), self.px(xy[1])))
        return h * 25.4 / self.dpi

    def silhouette(self, card_id: str, box: tuple[float, float, float, float], fill: RGB) -> None:
        """The landmark of ``card_id`` in ``fill``, square, centred in ``box`` (mm)."""
        x0, y0, x1, y1 = self.box(box)
        side = min(x1 - x0, y1 - y0)
        at = (x0 + (x1 - x0 - side) // 2, y0 + (y1 - y0 - side) // 2)
        self.img.paste(fill, (*at, at[0] + side, at[1] + side), landmark_mask(card_id, (side, side)))

    def roundel(self, region: str, centre_mm: tuple[float, float], r_mm: float) -> None:
        """The region's emblem on a white disc ringed in the region's colour, as on the posters."""
        sky, _, land, _, _ = PALETTES[region]
        cx, cy, r = self.px(centre_mm[0]), self.px(centre_mm[1]), self.px(r_mm)
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=sky, width=max(2, r // 8))
        e = round(r * 0.68)
        draw_emblem(self.img, region, (cx - e, cy - e, cx + e, cy + e), fill=land if region == "flanders" else sky)

    def folio(self, number: int) -> None:
        self.text((PAGE_MM[0] / 2, PAGE_MM[1] - 7), str(number), 9, GREY, bold=False, anchor="ms")


def render_pages(lang: str = "fr", kiosk_name: str = "Kiosk Belgica", dpi: int = DPI) -> list[Image.Image]:
    """Every A5 page of the passport in reading order, as RGB images at ``dpi``."""
    deck = load_deck(DECK_ID)
    pages = booklet(deck)
    first = _first_pages(pages)
    out = []
    for page in pages:
        sheet = _Sheet(lang, dpi)
        if page.kind == "cover":
            _cover(sheet, deck, kiosk_name, sum(len(p.slots) for p in pages))
        elif page.kind == "howto":
            _howto(sheet, deck, kiosk_name)
        elif page.kind == "map":
            _map(sheet, deck, first)
        elif page.kind == "places":
            _places(sheet, deck, page)
        elif page.kind == "notes":
            _notes(sheet)
        else:
            _back(sheet, kiosk_name)
        if page.kind not in ("cover", "back"):
            sheet.folio(page.number)
        out.append(sheet.img)
    return out


def impose(pages: list[Image.Image]) -> list[Image.Image]:
    """The A5 pages two to an A4 landscape side, in saddle-stitch order: side 1 holds the last
    and first pages, side 2 the second and the second-to-last, and so on inwards."""
    n = len(pages)
    if n % 4:
        raise ValueError(f"a folded booklet needs a multiple of 4 pages, not {n}")
    w, h = pages[0].size
    sides = []
    for i in range(0, n // 2, 2):
        for left, right in ((n - 1 - i, i), (i + 1, n - 2 - i)):
            side = Image.new("RGB", (round(w * SHEET_MM[0] / PAGE_MM[0]), h), WHITE)
            gutter = (side.width - 2 * w) // 2
            side.paste(pages[left], (gutter, 0))
            side.paste(pages[right], (gutter + w, 0))
            tick = ImageDraw.Draw(side)
            mid, mark = side.width // 2, h // 70
            tick.line((mid, 0, mid, mark), fill=GREY, width=1)  # where to fold
            tick.line((mid, h - mark, mid, h), fill=GREY, width=1)
            sides.append(side)
    return sides


def save_passport_pdf(
    path: Path | str, lang: str = "fr", kiosk_name: str = "Kiosk Belgica", imposed: bool = True, dpi: int = DPI
) -> int:
    """Write the passport as a PDF (imposed A4 sides, or A5 pages); returns its page count."""
    pages = render_pages(lang, kiosk_name, dpi)
    if imposed:
        pages = impose(pages)
    pages[0].save(str(path), "PDF", resolution=float(dpi), quality=90, save_all=True, append_images=pages[1:])
    return len(pages)


def ghost_box(slot: Slot) -> tuple[float, float, float, float]:
    """Where the faint landmark of a box's place is drawn (mm), above the "stick here" line."""
    x0, y0, x1, y1 = slot.box
    return x0 + 4, y0 + 4, x1 - 4, y1 - 8


def _first_pages(pages: tuple[Page, ...]) -> dict[str | None, int]:
    """The page each province's boxes start on (None: the national specialities)."""
    first: dict[str | None, int] = {}
    for page in pages:
        for heading in page.headings:
            first.setdefault(heading.province, page.number)
    return first


def _cover(sheet: _Sheet, deck: Deck, kiosk_name: str, places: int) -> None:
    w, h = PAGE_MM
    for inset, line in ((6, 1.2), (8.2, 0.4)):
        sheet.draw.rectangle(sheet.box((inset, inset, w - inset, h - inset)), outline=NAVY, width=sheet.px(line))
    sheet.text((w / 2, 26), kiosk_name.upper(), 15, serif=True, anchor="ms", max_mm=w - 30)
    sheet.draw.line(sheet.box((30, 32, w - 30, 32)), fill=NAVY, width=sheet.px(0.4))
    sheet.text((w / 2, 62), sheet.t("app.passport").upper(), 38, serif=True, anchor="ms", max_mm=w - 24)
    sheet.text((w / 2, 74), deck.names.get(sheet.lang) or deck.id, 15, serif=True, bold=False, anchor="ms")
    for k, region in enumerate(("flanders", "wallonia", "brussels")):
        sheet.roundel(region, (w / 2 + (k - 1) * 34, 108), 14)
    sheet.text((w / 2, 143), sheet.t("passport.book.subtitle", n=places), 12, anchor="ms", max_mm=w - 30)
    colon = "\u00a0:" if sheet.lang == "fr" else ":"  # French puts a space before the colon
    used = sheet.text((22, 178), sheet.t("passport.book.holder") + colon, 12)
    sheet.draw.line(sheet.box((24 + used, 179, w - 22, 179)), fill=NAVY, width=sheet.px(0.3))


def _howto(sheet: _Sheet, deck: Deck, kiosk_name: str) -> None:
    w, _ = PAGE_MM
    sheet.text((MARGIN_MM, 22), sheet.t("passport.book.howto"), 20)
    example = deck["QS"] if "QS" in deck else next(iter(deck))
    stamp = render_stamp(example, lang=sheet.lang, kiosk_name=kiosk_name, day=None)
    x_art, art_w = MARGIN_MM + 14, 48.0
    y = 30.0
    for number, key in enumerate(("show", "print", "stick"), start=1):
        cx, cy = MARGIN_MM + 5, y + 5
        sheet.draw.ellipse(sheet.box((cx - 5, cy - 5, cx + 5, cy + 5)), fill=NAVY)
        sheet.text((cx, cy), str(number), 14, WHITE, anchor="mm")
        if key == "show":  # the card, upright
            art_h = sheet.paste(render_face(example, None, 400), (x_art + art_w / 2 - 13, y), 26)
        elif key == "print":  # its stamp, on the printer's paper
            art_h = sheet.paste(stamp, (x_art, y), art_w)
            sheet.draw.rectangle(sheet.box((x_art, y, x_art + art_w, y + art_h)), outline=GREY, width=1)
        else:  # a box of the passport with the stamp in it
            art_h = 36.0
            _dashed(sheet, (x_art, y, x_art + art_w, y + art_h))
            sheet.paste(stamp, (x_art + 6, y + 4), art_w - 12)
        sheet.paragraph((x_art + art_w + 5, y + 2, w - MARGIN_MM), sheet.t(f"passport.book.howto.{key}"), 12)
        y += art_h + 9
    sheet.paragraph((MARGIN_MM, PAGE_MM[1] - 24, w - MARGIN_MM), sheet.t("app.privacy"), 8.5, GREY)


def _map(sheet: _Sheet, deck: Deck, first: dict[str | None, int]) -> None:
    w, _ = PAGE_MM
    sheet.text((MARGIN_MM, 22), sheet.t("passport.book.map"), 18, max_mm=w - 2 * MARGIN_MM)
    map_w = w - 2 * MARGIN_MM
    box = (MARGIN_MM, 30.0, MARGIN_MM + map_w, 30.0 + map_size(map_w)[1])
    tints = {p: _tint(PALETTES[region][0], 0.35) for region, provinces in REGION_PROVINCES.items() for p in provinces}
    px_box = sheet.box(box)
    draw_map(sheet.img, px_box, tints, NAVY, width=max(1, sheet.px(0.3)))
    numbers = {p: k for k, p in enumerate((p for ps in REGION_PROVINCES.values() for p in ps), start=1)}
    for province, k in numbers.items():
        x, y = project(*_LABEL_AT.get(province, centre(province)), px_box)
        r = sheet.px(2.6)
        sheet.draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=NAVY, width=max(1, sheet.px(0.25)))
        sheet.draw.text((x, y), str(k), font=font("DejaVuSans-Bold", round(r * 1.15)), fill=NAVY, anchor="mm")
    # Legend: Flanders and Brussels on the left, Wallonia and the national specialities on the right.
    columns = ((("flanders", "brussels"), MARGIN_MM), (("wallonia", None), w / 2 + 2))
    for regions, x in columns:
        y = box[3] + 9
        for region in regions:
            rows: list[tuple[str | None, str]]
            if region is None:
                title, rows = sheet.t("passport.book.belgium"), [(None, sheet.t("passport.book.national"))]
            else:
                title = sheet.t(f"app.region.{region}")
                rows = [(p, _province_name(deck, p, sheet.lang)) for p in REGION_PROVINCES[region]]
            sheet.text((x, y), title, 10.5)
            y += 5.2
            for row_province, name in rows:
                if row_province is not None:
                    sheet.text((x + 3.6, y), str(numbers[row_province]), 8.5, bold=False, anchor="rs")
                sheet.text((x + 5.5, y), name, 8.5, bold=False, max_mm=w / 2 - 27)
                page = first.get(row_province)
                if page is not None:
                    sheet.text((x + w / 2 - 12, y), sheet.t("passport.book.page", page=page), 8.5, anchor="rs")
                y += 4.4
            y += 2.5


def _places(sheet: _Sheet, deck: Deck, page: Page) -> None:
    w, _ = PAGE_MM
    region = page.region
    band_top, band_bottom = MARGIN_MM, MARGIN_MM + 11
    _, _, _, band, band_text = PALETTES[region]
    sheet.draw.rectangle(sheet.box((MARGIN_MM, band_top, w - MARGIN_MM, band_bottom)), fill=band)
    title = sheet.t(f"app.region.{region}") if region else sheet.t("passport.book.belgium")
    sheet.text((MARGIN_MM + 4, band_bottom - 3.2), title.upper(), 14, band_text, max_mm=w - 40)
    if region:
        sheet.roundel(region, (w - MARGIN_MM - 6.5, (band_top + band_bottom) / 2), 4.6)
    else:
        sheet.text((w - MARGIN_MM - 4, band_bottom - 3.2), "BE", 14, band_text, anchor="rs")
    for heading in page.headings:
        name = _province_name(deck, heading.province, sheet.lang) if heading.province else None
        label = name or sheet.t("passport.book.national")
        if heading.continued:
            label += " " + sheet.t("passport.book.continued")
        baseline = heading.y + HEADING_MM - 2.6
        used = sheet.text((MARGIN_MM, baseline), label, 11.5, max_mm=w - 2 * MARGIN_MM - 10)
        rule_y = baseline - 1.2
        sheet.draw.line(sheet.box((MARGIN_MM + used + 3, rule_y, w - MARGIN_MM, rule_y)), fill=GREY, width=1)
    for slot in page.slots:
        _slot(sheet, deck[slot.card_id], slot)


def _slot(sheet: _Sheet, card: Card, slot: Slot) -> None:
    x0, y0, x1, y1 = slot.box
    index = card_index(card)
    index_w = sheet.text((x1, y0 - 1.6), index, 10, RED if card.colour == "red" else NAVY, anchor="rs")
    sheet.text((x0, y0 - 1.6), card.name(sheet.lang), 9.5, max_mm=BOX_MM[0] - index_w - 2)
    _dashed(sheet, slot.box)
    sheet.silhouette(card.id, ghost_box(slot), FAINT)
    sheet.text(((x0 + x1) / 2, y1 - 2.8), sheet.t("passport.book.stick"), 7, GREY, bold=False, anchor="ms")


def _notes(sheet: _Sheet) -> None:
    w, h = PAGE_MM
    sheet.text((MARGIN_MM, 22), sheet.t("passport.book.notes"), 18)
    y = 38.0
    while y < h - 18:
        sheet.draw.line(sheet.box((MARGIN_MM, y, w - MARGIN_MM, y)), fill=FAINT, width=max(1, sheet.px(0.25)))
        y += 9


def _back(sheet: _Sheet, kiosk_name: str) -> None:
    w, _ = PAGE_MM
    sheet.silhouette("JK2", (w / 2 - 28, 30, w / 2 + 28, 86), NAVY)
    sheet.text((w / 2, 100), sheet.t("app.surprise.title"), 18, serif=True, anchor="ms")
    sheet.paragraph((24, 106, w - 24), sheet.t("passport.book.surprise"), 12, centred=True)
    sheet.text((w / 2, 170), kiosk_name, 13, serif=True, anchor="ms", max_mm=w - 30)
    sheet.text((w / 2, 178), "L'Affiche Belge", 10, GREY, serif=True, bold=False, anchor="ms")


def _dashed(sheet: _Sheet, box: tuple[float, float, float, float]) -> None:
    """A dashed frame: where the stamp goes."""
    x0, y0, x1, y1 = sheet.box(box)
    dash, width = sheet.px(2.2), max(1, sheet.px(0.3))
    for a, b, horizontal, at in ((x0, x1, True, y0), (x0, x1, True, y1), (y0, y1, False, x0), (y0, y1, False, x1)):
        for s in range(a, b, 2 * dash):
            e = min(s + dash, b)
            sheet.draw.line((s, at, e, at) if horizontal else (at, s, at, e), fill=NAVY, width=width)


def _province_name(deck: Deck, province: str | None, lang: str) -> str:
    names = deck.provinces.get(province or "", {})
    return names.get(lang) or names.get("fr") or (province or "")


def _tint(colour: RGB, strength: float) -> RGB:
    """``colour`` washed towards white: ``strength`` 1 keeps it, 0 gives white."""
    return tuple(round(255 - (255 - c) * strength) for c in colour)  # type: ignore[return-value]
