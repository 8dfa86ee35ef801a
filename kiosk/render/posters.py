"""L'Affiche Belge faces: each place as a small travel poster (sky, landmark, region emblem, name).

The poster leaves the two index corners free (the face renderer puts the standard index on a
white plate there), so the deck is read like any standard deck by its indices while the art
shows the place. Each place has its own landmark (``kiosk.render.landmarks``), the same drawing
as on its passport stamp.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from kiosk.decks import Card
from kiosk.render.emblems import draw_emblem
from kiosk.render.landmarks import landmark_mask
from kiosk.render.text import draw_fitted

RGB = tuple[int, int, int]
# region -> (sky top, sky bottom, landmark/hills, band, band text)
PALETTES: dict[str | None, tuple[RGB, RGB, RGB, RGB, RGB]] = {
    "flanders": ((250, 204, 40), (255, 240, 180), (34, 34, 34), (20, 20, 20), (250, 214, 60)),
    "wallonia": ((214, 40, 50), (250, 176, 100), (70, 40, 40), (150, 20, 30), (255, 226, 90)),
    "brussels": ((30, 80, 170), (140, 185, 235), (28, 40, 80), (20, 40, 110), (252, 214, 60)),
    None: ((90, 110, 130), (200, 210, 220), (40, 50, 60), (40, 50, 60), (240, 240, 240)),
}
_REGION_LABEL = {
    "flanders": "VLAANDEREN",
    "wallonia": "WALLONIE",
    "brussels": "BRUXELLES · BRUSSEL",
}


def _sky(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    w, h = size
    grad = Image.linear_gradient("L").resize((w, h))
    return Image.composite(Image.new("RGB", size, bottom), Image.new("RGB", size, top), grad)


def draw_poster(card: Card, size: tuple[int, int]) -> Image.Image:
    """The poster art of an affiche-belge card (without its indices)."""
    w, h = size
    region = card.region if card.region in PALETTES else ("brussels" if card.kind == "joker" else None)
    sky_top, sky_bottom, land, band, band_text = PALETTES[region]
    img = _sky(size, sky_top, sky_bottom)
    d = ImageDraw.Draw(img)
    r = w * 0.08
    d.ellipse([w * 0.3 - r, h * 0.4 - r, w * 0.3 + r, h * 0.4 + r], fill=(255, 250, 230))
    side = round(h * 0.36)
    x0, y0 = (w - side) // 2, round(h * 0.645) - side
    img.paste(land, (x0, y0, x0 + side, y0 + side), landmark_mask(card.id, (side, side)))
    d.polygon(
        [
            (0, h * 0.62),
            (w * 0.3, h * 0.6),
            (w * 0.7, h * 0.66),
            (w, h * 0.62),
            (w, h * 0.7),
            (0, h * 0.7),
        ],
        fill=land,
    )
    d.rectangle([0, h * 0.7, w, h], fill=band)
    # Emblem roundel in the free top-right corner.
    ex, ey, er = w * 0.84, h * 0.11, w * 0.12
    if region is not None:
        d.ellipse(
            [ex - er, ey - er, ex + er, ey + er],
            fill=(255, 255, 255),
            outline=land,
            width=max(1, w // 150),
        )
        inner = er * 0.75
        draw_emblem(
            img,
            region,
            (round(ex - inner), round(ey - inner), round(ex + inner), round(ey + inner)),
            fill=sky_top if region != "flanders" else land,
        )
    label = _REGION_LABEL.get(region or "", "")
    if label:
        draw_fitted(
            img,
            label,
            (round(w * 0.25), round(h * 0.035), round(w * 0.68), round(h * 0.07)),
            "DejaVuSansCondensed-Bold",
            land,
        )
    name_fr, name_nl = card.name("fr"), card.name("nl")
    draw_fitted(
        img,
        name_fr.upper(),
        (round(w * 0.05), round(h * 0.73), round(w * 0.76), round(h * 0.81)),
        "DejaVuSansCondensed-Bold",
        band_text,
        squeeze=0.7,
    )
    if name_nl != name_fr:
        draw_fitted(
            img,
            name_nl,
            (round(w * 0.05), round(h * 0.835), round(w * 0.76), round(h * 0.885)),
            "DejaVuSerif-Bold",
            (255, 255, 255),
            squeeze=0.7,
        )
    return img
