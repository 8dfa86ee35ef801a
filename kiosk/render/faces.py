"""Card faces for every deck: :func:`render_face` is the one entry point, cached because scenes,
sheets, the virtual table and training all ask for the same few hundred faces again and again.

Standard faces (standard-52, piquet-32) come in three looks that differ in fonts, pip shapes,
colours and court art, so that recognition learns rank and suit rather than one brand. Every
standard face — the L'Affiche Belge posters included — carries its rank-above-suit index inside
:data:`kiosk.vision.face.INDEX_BOX`, and the same turned 180 degrees in the opposite corner.
Only the foreign test layouts of :mod:`kiosk.render.foreign`, drawn when a caller names them,
place their index elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from kiosk.decks import Card
from kiosk.render import animals, mathcards, posters
from kiosk.render.courts import draw_court
from kiosk.render.pips import draw_pip
from kiosk.render.text import draw_fitted

RGB = tuple[int, int, int]
ASPECT = 7 / 5  # height / width of a face (63 x 88 mm)


@dataclass(frozen=True)
class Look:
    """How one design draws a standard face; fractions are of the face width or height."""

    rank_font: str
    pips: str  # pip family, see kiosk.render.pips
    court: str  # court art, see kiosk.render.courts
    paper: RGB
    red: RGB
    black: RGB
    rank_box: tuple[float, float, float, float]
    suit_box: tuple[float, float, float, float]
    pip_size: float
    ace_size: float
    border: RGB | None = None


# fmt: off
LOOKS: dict[str, Look] = {
    "classic": Look(
        rank_font="DejaVuSerif-Bold", pips="glyph", court="portrait", paper=(250, 247, 236),
        red=(196, 24, 40), black=(22, 22, 26), rank_box=(0.03, 0.03, 0.17, 0.135),
        suit_box=(0.045, 0.15, 0.155, 0.235), pip_size=0.17, ace_size=0.40, border=(60, 60, 90),
    ),
    "modern": Look(
        rank_font="DejaVuSansCondensed-Bold", pips="round", court="monogram", paper=(255, 255, 255),
        red=(228, 46, 78), black=(36, 38, 52), rank_box=(0.04, 0.035, 0.16, 0.125),
        suit_box=(0.05, 0.145, 0.15, 0.22), pip_size=0.15, ace_size=0.26,
    ),
    "bold": Look(
        rank_font="DejaVuSansMono-Bold", pips="sharp", court="silhouette", paper=(244, 244, 240),
        red=(214, 0, 0), black=(0, 0, 0), rank_box=(0.02, 0.02, 0.20, 0.17),
        suit_box=(0.035, 0.185, 0.185, 0.29), pip_size=0.19, ace_size=0.56,
    ),
}
POSTER_LOOK = Look(
    rank_font="DejaVuSans-Bold", pips="glyph", court="poster", paper=(255, 255, 255),
    red=(200, 16, 46), black=(20, 20, 20), rank_box=(0.03, 0.03, 0.17, 0.135),
    suit_box=(0.045, 0.15, 0.155, 0.235), pip_size=0.0, ace_size=0.0,
)
# fmt: on

_STYLES: dict[str, tuple[str, ...]] = {
    "standard-52": ("classic", "modern", "bold"),
    "piquet-32": ("classic", "modern", "bold"),
    "affiche-belge": ("poster",),
    "kakkerlakken-64": ("animal",),
    "math-pairs": ("math",),
}

# Pip centres (x, y) as fractions of the face for ranks 2..10; pips below the middle are turned.
_L, _C, _R = 0.32, 0.5, 0.68
_PIPS: dict[str, tuple[tuple[float, float], ...]] = {
    "2": ((_C, 0.2), (_C, 0.8)),
    "3": ((_C, 0.2), (_C, 0.5), (_C, 0.8)),
    "4": ((_L, 0.2), (_R, 0.2), (_L, 0.8), (_R, 0.8)),
    "5": ((_L, 0.2), (_R, 0.2), (_C, 0.5), (_L, 0.8), (_R, 0.8)),
    "6": ((_L, 0.2), (_R, 0.2), (_L, 0.5), (_R, 0.5), (_L, 0.8), (_R, 0.8)),
    "7": ((_L, 0.2), (_R, 0.2), (_C, 0.35), (_L, 0.5), (_R, 0.5), (_L, 0.8), (_R, 0.8)),
    "8": ((_L, 0.2), (_R, 0.2), (_C, 0.35), (_L, 0.5), (_R, 0.5), (_C, 0.65), (_L, 0.8), (_R, 0.8)),
    "9": (
        (_L, 0.2),
        (_R, 0.2),
        (_L, 0.4),
        (_R, 0.4),
        (_C, 0.5),
        (_L, 0.6),
        (_R, 0.6),
        (_L, 0.8),
        (_R, 0.8),
    ),
    "10": (
        (_L, 0.2),
        (_R, 0.2),
        (_C, 0.3),
        (_L, 0.4),
        (_R, 0.4),
        (_L, 0.6),
        (_R, 0.6),
        (_C, 0.7),
        (_L, 0.8),
        (_R, 0.8),
    ),
}


POSTER_MARGIN = 0.05  # white border around the L'Affiche Belge posters, as a fraction of the width


def face_styles(deck_id: str) -> tuple[str, ...]:
    """The designs a deck's faces can be rendered in; the first is the default."""
    return _STYLES.get(deck_id, ("classic", "modern", "bold"))


def style_known(deck_id: str, style: str) -> bool:
    """Whether ``style`` draws ``deck_id``: one of its :func:`face_styles`, or for a standard deck
    a foreign test layout (:mod:`kiosk.render.foreign`), which no scene uses unless asked."""
    from kiosk.render.foreign import FOREIGN_DECKS, is_foreign_style

    return style in face_styles(deck_id) or (deck_id in FOREIGN_DECKS and is_foreign_style(style))


def face_size(width: int) -> tuple[int, int]:
    return width, round(width * ASPECT)


@lru_cache(maxsize=512)
def render_face(card: Card, style: str | None = None, width: int = 500) -> Image.Image:
    """The upright face of ``card`` as an RGB image ``width`` x ``width * 7/5``, corners on white.

    Deterministic: the same card, style and width always give the same pixels. The image is
    shared through the cache: copy it before drawing on it.
    """
    styles = face_styles(card.deck)
    style = style or styles[0]
    if not style_known(card.deck, style):
        raise ValueError(f"deck {card.deck!r} has no face style {style!r}; styles: {styles}")
    w, h = face_size(width)
    if style not in styles:  # a foreign test layout (style_known), built on this module: imported on use
        from kiosk.render.foreign import draw_foreign_face

        img = draw_foreign_face(card, style, (w, h))
    elif style == "animal":
        img = animals.draw_animal_face(card, (w, h))
    elif style == "math":
        img = mathcards.draw_math_face(card, (w, h))
    elif style == "poster":
        # The poster is printed inside a white border, as on most real cards: the border is
        # what lets the camera find the card's outline on a busy table.
        img = Image.new("RGB", (w, h), (255, 255, 255))
        margin = round(w * POSTER_MARGIN)
        art = posters.draw_poster(card, (w - 2 * margin, h - 2 * margin))
        img.paste(art, (margin, margin), corner_mask(art.size))
        draw_indices(img, card, POSTER_LOOK, plate=True)
    else:
        look = LOOKS[style]
        img = Image.new("RGB", (w, h), look.paper)
        draw_body(img, card, look)
        draw_indices(img, card, look, plate=False)
    return _round_corners(img)


@lru_cache(maxsize=32)
def corner_mask(size: tuple[int, int]) -> Image.Image:
    """The card's outline with rounded corners as an ``L`` mask (255 inside the card)."""
    w, h = size
    mask = Image.new("L", (w * 2, h * 2), 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, w * 2 - 1, h * 2 - 1], radius=round(w * 0.09), fill=255)
    return mask.resize((w, h), Image.Resampling.LANCZOS)


def _round_corners(img: Image.Image) -> Image.Image:
    out = Image.new("RGB", img.size, (255, 255, 255))
    out.paste(img, (0, 0), corner_mask(img.size))
    return out


def ink_colour(card: Card, look: Look) -> RGB:
    return look.red if card.colour == "red" else look.black


def _box(frac: tuple[float, float, float, float], w: int, h: int) -> tuple[int, int, int, int]:
    return round(frac[0] * w), round(frac[1] * h), round(frac[2] * w), round(frac[3] * h)


def draw_indices(img: Image.Image, card: Card, look: Look, plate: bool) -> None:
    """Rank above suit in the top-left corner, then the same in the bottom-right, turned."""
    w, h = img.size
    for _turn in range(2):
        if plate:
            x0, y0, x1, y1 = _box((0.015, 0.015, 0.19, 0.255), w, h)
            ImageDraw.Draw(img).rounded_rectangle([x0, y0, x1, y1], radius=round(w * 0.03), fill=(255, 255, 255))
        if card.kind == "joker":
            draw_fitted(img, "JK", _box(look.rank_box, w, h), look.rank_font, look.black)
            draw_fitted(img, "\u2605", _box(look.suit_box, w, h), "DejaVuSans-Bold", look.red)
        elif card.rank is not None and card.suit is not None:
            colour = ink_colour(card, look)
            draw_fitted(img, card.rank, _box(look.rank_box, w, h), look.rank_font, colour)
            draw_pip(img, card.suit, look.pips, _box(look.suit_box, w, h), colour)
        img.paste(img.rotate(180))


def draw_body(img: Image.Image, card: Card, look: Look) -> None:
    """The border, pips, ace or court art of a standard face in ``look``, indices aside."""
    w, h = img.size
    if look.border is not None:
        inset = round(w * 0.035)
        ImageDraw.Draw(img).rounded_rectangle(
            [inset, inset, w - inset, h - inset],
            radius=round(w * 0.06),
            outline=look.border,
            width=max(1, w // 250),
        )
    if card.rank is None or card.suit is None:
        return
    colour = ink_colour(card, look)
    if card.rank in _PIPS:
        side = round(look.pip_size * w)
        for fx, fy in _PIPS[card.rank]:
            cx, cy = round(fx * w), round(fy * h)
            draw_pip(
                img,
                card.suit,
                look.pips,
                (cx - side // 2, cy - side // 2, cx + side // 2, cy + side // 2),
                colour,
                upside_down=fy > 0.5,
            )
    elif card.rank == "A":
        side = round(look.ace_size * w)
        cx, cy = w // 2, h // 2
        if look.court == "portrait":
            r = round(side * 0.75)
            ImageDraw.Draw(img).ellipse([cx - r, cy - r, cx + r, cy + r], outline=look.border, width=max(1, w // 120))
        draw_pip(
            img,
            card.suit,
            look.pips,
            (cx - side // 2, cy - side // 2, cx + side // 2, cy + side // 2),
            colour,
        )
    else:
        draw_court(img, card.rank, card.suit, look.court, colour, look.pips)
