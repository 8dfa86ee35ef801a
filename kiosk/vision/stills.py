"""Still images from files (``kiosk recognize``, ``kiosk enroll``, folder replays), their size
checked from the file's header before anything is decoded.

A small file can hold a huge picture (a 48 KB PNG of 20000x20000 decodes to 1.2 GB), so the
header is read first (Pillow reads only that much) and a picture over :data:`MAX_PIXELS` is not
decoded whole: a JPEG is decoded at a half, a quarter or an eighth of its size (libjpeg scales
while decoding, so the full picture never exists in memory), anything else is refused with one
line that says why. Formats are the ones the kiosk reads: JPEG, PNG, BMP, TIFF and WebP.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from kiosk.errors import KioskError
from kiosk.vision.sources.base import MAX_PIXELS

#: A file larger than this is not read at all (a 48-megapixel JPEG is some 20 MB).
MAX_FILE_BYTES = 256 * 2**20
FORMATS: tuple[str, ...] = ("JPEG", "PNG", "BMP", "TIFF", "WEBP")
#: JPEG's decode-time reductions and the flag that asks OpenCV for each.
_REDUCED = (
    (1, cv2.IMREAD_COLOR),
    (2, cv2.IMREAD_REDUCED_COLOR_2),
    (4, cv2.IMREAD_REDUCED_COLOR_4),
    (8, cv2.IMREAD_REDUCED_COLOR_8),
)


class ImageError(KioskError):
    """A file that is not a picture the kiosk reads, or one too large to decode."""


def image_size(path: str | Path) -> tuple[int, int, str]:
    """(width, height, format) from the file's header, without decoding the picture."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                return image.width, image.height, str(image.format)
    except Image.DecompressionBombError as exc:  # Pillow's own limit, far over ours: its message has the size
        found = re.search(r"\((\d+) pixels\)", str(exc))
        size = f"{int(found[1]) / 1e6:.0f} megapixels" if found else "too many pixels"
        raise ImageError(f"{path}: {size} by its header, over the {MAX_PIXELS / 1e6:.0f} the kiosk decodes") from None
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or "not a picture"
        raise ImageError(f"{path}: cannot read it ({reason}; the kiosk reads {', '.join(FORMATS)})") from None


def read_image(path: str | Path) -> np.ndarray:
    """The picture at ``path`` as BGR uint8, at most MAX_PIXELS (a larger JPEG shrunk while
    decoding); :class:`ImageError` with one line for anything else."""
    try:
        size = Path(path).stat().st_size
    except OSError as exc:
        raise ImageError(f"{path}: cannot read it ({exc.strerror})") from None
    if size > MAX_FILE_BYTES:
        raise ImageError(f"{path}: {size / 2**20:.0f} MB, over the {MAX_FILE_BYTES // 2**20} MB the kiosk reads")
    width, height, fmt = image_size(path)
    if fmt not in FORMATS:
        raise ImageError(f"{path}: a {fmt} picture; the kiosk reads {', '.join(FORMATS)}")
    pixels = width * height
    factor, flag = next(((f, flag) for f, flag in _REDUCED if pixels / f**2 <= MAX_PIXELS), (0, 0))
    if factor == 0 or (factor > 1 and fmt != "JPEG"):
        shrink = "" if fmt == "JPEG" else " (a JPEG that size is read shrunk; other formats must be shrunk first)"
        raise ImageError(
            f"{path}: {width}x{height} is {pixels / 1e6:.0f} megapixels, over the "
            f"{MAX_PIXELS / 1e6:.0f} the kiosk decodes{shrink}"
        )
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as exc:
        raise ImageError(f"{path}: cannot read it ({exc.strerror})") from None
    image = cv2.imdecode(data, flag) if data.size else None
    if image is None:
        raise ImageError(f"{path}: a {fmt} header over a picture that cannot be decoded")
    return image
