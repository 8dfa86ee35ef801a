"""Conversions into pygame surfaces: camera frames (BGR numpy) and Pillow images (card faces,
stamps). Frames are converted for display only and never written anywhere."""

from __future__ import annotations

import numpy as np
import pygame
from PIL import Image


def from_pil(img: Image.Image) -> pygame.Surface:
    """A Pillow image as a surface (``frombuffer``, which pygame 2.1.2, Debian Bookworm's, has)."""
    if img.mode not in ("RGB", "RGBA"):
        img = img.convert("RGBA" if "A" in img.getbands() or img.mode == "P" else "RGB")
    return pygame.image.frombuffer(img.tobytes(), img.size, "RGBA" if img.mode == "RGBA" else "RGB")


def from_bgr(frame: np.ndarray) -> pygame.Surface | None:
    """A BGR uint8 frame as a surface; None for anything that is not one (garbage frames)."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        return None
    h, w = frame.shape[:2]
    if h < 2 or w < 2:
        return None
    rgb = np.ascontiguousarray(frame[:, :, ::-1])
    return pygame.image.frombuffer(rgb.tobytes(), (w, h), "RGB")


def fit(surface: pygame.Surface, box: pygame.Rect) -> tuple[pygame.Surface, pygame.Rect, float]:
    """Scale ``surface`` to fit ``box`` keeping its aspect; returns it, where it goes, the scale."""
    w, h = surface.get_size()
    scale = min(box.width / w, box.height / h)
    size = (max(1, int(w * scale)), max(1, int(h * scale)))
    scaled = pygame.transform.smoothscale(surface, size) if size != (w, h) else surface
    rect = scaled.get_rect(center=box.center)
    return scaled, rect, scale
