"""Passport stamp artwork: one 1-bit image per place, exactly as wide as the printer's line.

A stamp looks like a border-control stamp: a frame (its shape follows the card's suit), the
kiosk's name in an inverted band between two region emblems (lion, coq, iris), the place's own
landmark (``kiosk.render.landmarks``, the one on its card) on a dithered halftone disc, the
place name (both French and Dutch for Brussels places, or on request), the province, the date in
the stamp-pad style ``29·XI·2026`` (the box left empty, for a visitor to
write the day in, where the kiosk cannot trust its clock: :mod:`kiosk.clock`), "visited" in the
kiosk's language and the card's index. Tone is drawn first and dithered (Floyd-Steinberg); lines, text, the
emblems and the landmark are drawn afterwards straight into the 1-bit image, so they stay crisp on thermal paper.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date

from PIL import Image, ImageDraw, ImageFilter

from kiosk.decks import Card, load_deck
from kiosk.decks.model import SUIT_SYMBOLS
from kiosk.i18n import translate
from kiosk.render.emblems import emblem_mask
from kiosk.render.landmarks import landmark_mask
from kiosk.render.text import font

DECK_ID = "affiche-belge"
BASE_WIDTH = 384  # the design is drawn for 58 mm paper and scaled for wider rolls
HEIGHT_RATIO = 0.74
MOTIF_SIZE = 1.6  # side of the landmark's square, in disc radii: the disc clips its corners
INK, PAPER = 0, 1
_LEADING = 1.05  # line pitch of wrapped text, in font sizes
_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
#: Frame style per suit, so stamps of the same value differ at a glance; jokers get their own.
FRAMES: dict[str | None, str] = {
    "H": "rounded",
    "D": "octagon",
    "C": "perforated",
    "S": "double",
    None: "rounded",
}


def stamp_date(day: date) -> str:
    """``29·XI·2026``: the month in Roman numerals, as on rubber date stamps, in any language."""
    return f"{day.day}·{_ROMAN[day.month - 1]}·{day.year}"


def place_lines(card: Card, lang: str, bilingual: bool) -> list[str]:
    """The place name(s): Brussels places (and every place when ``bilingual``) in FR and NL."""
    if bilingual or card.region == "brussels":
        names = [card.name("fr"), card.name("nl")]
        return names if names[0] != names[1] else names[:1]
    return [card.name(lang)]


def card_index(card: Card) -> str:
    """``7♥``, or ``★1`` for a Manneken-Pis: the card the visitor showed, in the corner."""
    if card.rank and card.suit:
        return f"{card.rank}{SUIT_SYMBOLS[card.suit]}"
    return "★" + card.id[-1]


@dataclass(frozen=True)
class StampLayout:
    """Where the parts of a stamp go for a given width (in dots)."""

    height: int
    frame: tuple[int, int, int, int]
    content: tuple[int, int, int, int]  # inside the frame lines
    band_bottom: int  # the kiosk-name band runs from the content top to here
    mid_top: int  # emblem, names and date sit between mid_top and mid_bottom
    mid_bottom: int
    foot_top: int  # "visited" and the card index below this
    disc_centre: tuple[int, int]
    disc_radius: int
    motif: tuple[int, int, int, int]  # the landmark's square, clipped to the disc
    emblems: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]  # both ends of the band


def stamp_layout(width: int) -> StampLayout:
    s = width / BASE_WIDTH
    height = round(width * HEIGHT_RATIO)
    margin = round(10 * s)
    frame = (margin, margin, width - margin - 1, height - margin - 1)
    x0, y0, x1, y1 = _content_box(frame, s)
    band_bottom, foot_top = y0 + round(30 * s), y1 - round(24 * s)
    mid_top, mid_bottom = band_bottom + round(8 * s), foot_top - round(6 * s)
    r = min(round(56 * s), (mid_bottom - mid_top) // 2)
    cx, cy = x0 + r, (mid_top + mid_bottom) // 2
    m = round(r * MOTIF_SIZE / 2)
    pad = round(4 * s)
    side = band_bottom - y0 - 2 * pad
    return StampLayout(
        height,
        frame,
        (x0, y0, x1, y1),
        band_bottom,
        mid_top,
        mid_bottom,
        foot_top,
        (cx, cy),
        r,
        (cx - m, cy - m, cx + m, cy + m),
        (
            (x0 + 2 * pad, y0 + pad, x0 + 2 * pad + side, y0 + pad + side),
            (x1 - 2 * pad - side, y0 + pad, x1 - 2 * pad, y0 + pad + side),
        ),
    )


def render_stamp(
    card: Card | str,
    *,
    day: date | None = None,
    lang: str = "fr",
    width: int = BASE_WIDTH,
    kiosk_name: str = "Kiosk Belgica",
    bilingual: bool = False,
) -> Image.Image:
    """The stamp of an L'Affiche Belge card (or card id) as a mode ``1`` image ``width`` dots
    wide, dated ``day``; with no ``day`` its date box stays empty."""
    deck = load_deck(DECK_ID)
    card = deck[card if isinstance(card, str) else card.id]
    s = width / BASE_WIDTH
    lay = stamp_layout(width)
    x0, y0, x1, y1 = lay.content
    (cx, cy), disc_r = lay.disc_centre, lay.disc_radius
    img = _halftone_disc((width, lay.height), lay.disc_centre, disc_r)
    draw = ImageDraw.Draw(img)
    _frame(draw, lay.frame, FRAMES[card.suit], s)
    # Kiosk name, white on an ink band, between the region's emblems facing each other (BE for
    # a place of no region).
    draw.rectangle((x0, y0, x1, lay.band_bottom), fill=INK)
    for i, box in enumerate(lay.emblems):
        if card.region:
            mark = emblem_mask(card.region, (box[2] - box[0], box[3] - box[1])).point(_threshold)
            img.paste(PAPER, box[:2], mark.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if i else mark)
        else:
            _text_in(draw, "BE", box, "DejaVuSans-Bold", round(18 * s), PAPER)
    _text_in(
        draw,
        kiosk_name.upper(),
        (lay.emblems[0][2] + 6 * s, y0, lay.emblems[1][0] - 6 * s, lay.band_bottom),
        "DejaVuSerif-Bold",
        round(22 * s),
        PAPER,
    )
    # The place's landmark on its halftone disc, haloed in paper, with a crisp ring.
    motif = stamp_motif(card.id, width)
    halo = motif.convert("L").filter(ImageFilter.MaxFilter(2 * max(1, round(1.5 * s)) + 1))
    img.paste(PAPER, lay.motif[:2], halo)
    img.paste(INK, lay.motif[:2], motif)
    draw.ellipse(
        (cx - disc_r, cy - disc_r, cx + disc_r, cy + disc_r),
        outline=INK,
        width=max(2, round(2 * s)),
    )

    # Place name(s), province, a rule and the date, stacked and centred beside the disc.
    tx0, tx1 = cx + disc_r + round(10 * s), x1
    lines = place_lines(card, lang, bilingual)
    name_h, gap = round((48 if len(lines) == 1 else 30) * s), round(4 * s)
    if len(lines) > 1:  # both languages at the same size
        name_h = min(_largest_fit(draw, [t], "DejaVuSansCondensed-Bold", name_h, tx1 - tx0, name_h) for t in lines)
    province_h, rule_gap, date_h = round(20 * s), round(7 * s), round(38 * s)
    stack = len(lines) * (name_h + gap) + province_h + 2 * rule_gap + date_h
    top = (lay.mid_top + lay.mid_bottom - stack) // 2
    for line in lines:
        _text_in(
            draw,
            line,
            (tx0, top, tx1, top + name_h),
            "DejaVuSansCondensed-Bold",
            name_h,
            INK,
            wrap=len(lines) == 1,
        )
        top += name_h + gap
    province = deck.provinces.get(card.province or "", {})
    _text_in(
        draw,
        province.get(lang) or province.get("fr") or "",
        (tx0, top, tx1, top + province_h),
        "DejaVuSans-Bold",
        round(17 * s),
        INK,
    )
    top += province_h + rule_gap
    draw.line((tx0, top, tx1, top), fill=INK, width=max(2, round(2 * s)))
    top += rule_gap
    draw.rectangle((tx0, top, tx1, top + date_h), outline=INK, width=max(2, round(2 * s)))
    if day is not None:
        _text_in(
            draw,
            stamp_date(day),
            (tx0 + 6 * s, top + 5 * s, tx1 - 6 * s, top + date_h - 5 * s),
            "DejaVuSansMono-Bold",
            round(26 * s),
            INK,
        )

    # Foot: "visited" in the kiosk's language, the card's index in the corner.
    foot = (x0 + 2 * s, lay.foot_top, x1 - 2 * s, y1)
    _text_in(
        draw,
        translate("devices.stamp.visited", lang).upper(),
        foot,
        "DejaVuSerif-Bold",
        round(22 * s),
        INK,
        align="left",
    )
    _text_in(draw, card_index(card), foot, "DejaVuSans-Bold", round(22 * s), INK, align="right")
    return img


def stamp_motif(card_id: str, width: int = BASE_WIDTH) -> Image.Image:
    """The landmark of ``card_id`` as printed on its stamp: a mode ``1`` mask of the layout's
    motif square (1 = ink), thresholded, cut to the inside of the disc's ring."""
    lay = stamp_layout(width)
    x0, y0, x1, y1 = lay.motif
    side = x1 - x0
    ink = landmark_mask(card_id, (side, side)).point(_threshold)
    disc = Image.new("L", (side, side), 0)
    (cx, cy), inner = lay.disc_centre, lay.disc_radius - max(2, round(2 * width / BASE_WIDTH)) - 2
    cx, cy = cx - x0, cy - y0
    ImageDraw.Draw(disc).ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=255)
    return Image.composite(ink, disc, disc).convert("1")


def _threshold(v: int) -> int:
    """A mask's antialiased edge cut at half: solid shapes print crisp on thermal paper."""
    return 255 if v >= 128 else 0


def render_test_page(width: int, lines: list[str]) -> Image.Image:
    """A printer test page: a ruler of the full width (every dot must print), a grey ramp to
    judge the heat setting (dithered), and ``lines`` of settings in crisp text."""
    s = width / BASE_WIDTH
    line_h = round(22 * s)
    ramp_top, text_top = round(40 * s), round(110 * s)
    height = text_top + line_h * len(lines) + round(10 * s)
    tone = Image.new("L", (width, height), 255)
    for x in range(width):
        tone.paste(round(255 * x / (width - 1)), (x, ramp_top, x + 1, ramp_top + round(50 * s)))
    img = tone.convert("1", dither=Image.Dither.FLOYDSTEINBERG)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, width - 1, height - 1), outline=INK)
    for x in range(0, width, 8):  # a tick every 8 dots, longer every 64
        draw.line((x, 0, x, round((24 if x % 64 == 0 else 10) * s)), fill=INK)
    draw.line((width - 1, 0, width - 1, round(24 * s)), fill=INK)
    for i, text in enumerate(lines):
        top = text_top + i * line_h
        _text_in(
            draw,
            text,
            (6 * s, top, width - 6 * s, top + line_h),
            "DejaVuSansMono-Bold",
            round(18 * s),
            INK,
            align="left",
        )
    return img


def stamp_png(image: Image.Image) -> bytes:
    """The stamp as PNG bytes: what the job queue stores."""
    buf = io.BytesIO()
    image.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def _halftone_disc(size: tuple[int, int], centre: tuple[int, int], radius: int) -> Image.Image:
    """White paper with a disc shading from mid grey at the rim to light grey inside, dithered."""
    tone = Image.new("L", size, 255)
    draw = ImageDraw.Draw(tone)
    cx, cy = centre
    for r in range(radius, 0, -1):
        grey = round(150 + 80 * (1 - r / radius) ** 0.7)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=grey)
    return tone.convert("1", dither=Image.Dither.FLOYDSTEINBERG)


def _frame_lines(s: float) -> tuple[int, int, int]:
    """Thickness of the outer line, of the inner line, and the gap between them."""
    return max(3, round(5 * s)), max(1, round(2 * s)), round(5 * s)


def _content_box(frame: tuple[int, int, int, int], s: float) -> tuple[int, int, int, int]:
    """Where the stamp's content goes: inside both frame lines, clear of the octagon's corners."""
    thick, thin, gap = _frame_lines(s)
    pad = thick + gap + thin + round(8 * s)
    return frame[0] + pad, frame[1] + pad, frame[2] - pad, frame[3] - pad


def _frame(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], style: str, s: float) -> None:
    """The stamp's border: thick outer line and thin inner line, in one of four shapes."""
    x0, y0, x1, y1 = box
    thick, thin, gap = _frame_lines(s)
    inset = (x0 + thick + gap, y0 + thick + gap, x1 - thick - gap, y1 - thick - gap)
    if style == "rounded":
        r = round(22 * s)
        draw.rounded_rectangle(box, radius=r, outline=INK, width=thick)
        draw.rounded_rectangle(inset, radius=max(1, r - thick - gap), outline=INK, width=thin)
    elif style == "octagon":
        c = round(18 * s)
        draw.polygon(_octagon(box, c), outline=INK, width=thick)
        draw.polygon(_octagon(inset, c - gap), outline=INK, width=thin)
    elif style == "perforated":
        draw.rectangle(box, outline=INK, width=thick)
        step, hole = round(16 * s), round(4 * s)
        for x in range(x0 + step // 2, x1, step):
            for y in (y0, y1):
                draw.ellipse((x - hole, y - hole, x + hole, y + hole), fill=PAPER)
        for y in range(y0 + step // 2, y1, step):
            for x in (x0, x1):
                draw.ellipse((x - hole, y - hole, x + hole, y + hole), fill=PAPER)
        draw.rectangle(inset, outline=INK, width=thin)
    else:  # double: square corners with diamond studs
        draw.rectangle(box, outline=INK, width=thick)
        draw.rectangle(inset, outline=INK, width=thin)
        d = round(6 * s)
        for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            draw.polygon([(x, y - d), (x + d, y), (x, y + d), (x - d, y)], fill=INK)


def _octagon(box: tuple[int, int, int, int], c: int) -> list[tuple[int, int]]:
    x0, y0, x1, y1 = box
    return [
        (x0 + c, y0),
        (x1 - c, y0),
        (x1, y0 + c),
        (x1, y1 - c),
        (x1 - c, y1),
        (x0 + c, y1),
        (x0, y1 - c),
        (x0, y0 + c),
    ]


def _text_in(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: tuple[float, float, float, float],
    font_name: str,
    size: int,
    fill: int,
    *,
    align: str = "center",
    wrap: bool = False,
) -> None:
    """Draw ``text`` at the largest size up to ``size`` that fits ``box`` (on two lines when
    ``wrap`` and that is clearly bigger), aligned horizontally, centred vertically. On a 1-bit
    image Pillow renders glyphs unantialiased: crisp dots, no grey fringe."""
    if not text:
        return
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    lines, px = [text], _largest_fit(draw, [text], font_name, size, w, h)
    if wrap and any(ch in text for ch in " -"):
        two = _split_two(text)
        px2 = _largest_fit(draw, two, font_name, size, w, h)
        if px2 > px * 1.15:
            lines, px = two, px2
    f = font(font_name, px)
    top_ink, bottom_ink = f.getbbox(lines[0])[1], f.getbbox(lines[-1])[3]
    y = y0 + (h - ((len(lines) - 1) * px * _LEADING + bottom_ink - top_ink)) / 2 - top_ink
    for t in lines:
        left, _, right, _ = f.getbbox(t)
        x = {"left": x0, "right": x1 - (right - left)}.get(align, x0 + (w - (right - left)) / 2) - left
        draw.text((round(x), round(y)), t, font=f, fill=fill)
        y += px * _LEADING


def _largest_fit(draw: ImageDraw.ImageDraw, lines: list[str], font_name: str, size: int, w: float, h: float) -> int:
    """The largest pixel size (``size`` at most, 8 at least) at which ``lines`` fit w x h."""
    for px in range(size, 8, -1):
        f = font(font_name, px)
        ink = (len(lines) - 1) * px * _LEADING + f.getbbox(lines[-1])[3] - f.getbbox(lines[0])[1]
        if max(draw.textlength(t, font=f) for t in lines) <= w and ink <= h:
            return px
    return 8


def _split_two(text: str) -> list[str]:
    """Split at the space or hyphen nearest the middle, keeping the hyphen on the first line."""
    cuts = [i for i, ch in enumerate(text) if ch in " -"]
    i = min(cuts, key=lambda k: abs(k - len(text) / 2))
    return [text[: i + 1].strip(), text[i + 1 :].strip()] if text[i] == "-" else [text[:i], text[i + 1 :]]
