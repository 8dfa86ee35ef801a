"""The outline model's own training surfaces: deterministic, the frame's size, busy, and sunlight
that brightens a band of the frame and leaves the rest."""

from __future__ import annotations

import numpy as np
import pytest

from kiosk.vision.train.surfaces import carpet, printed, sunlit


@pytest.mark.parametrize("make", [carpet, printed])
def test_surfaces_are_deterministic_images_of_the_asked_size(make) -> None:  # type: ignore[no-untyped-def]
    a = make(np.random.default_rng(3), (160, 90))
    assert a.shape == (90, 160, 3) and a.dtype == np.uint8
    assert np.array_equal(a, make(np.random.default_rng(3), (160, 90)))
    assert not np.array_equal(a, make(np.random.default_rng(4), (160, 90)))


def test_carpet_is_speckled_at_the_pixel_scale() -> None:
    img = carpet(np.random.default_rng(0), (200, 120)).astype(np.float32)
    step = np.abs(np.diff(img.mean(axis=2), axis=1))
    assert np.median(step) > 3  # neighbouring loops differ: not a plain or smooth table


def test_sunlight_brightens_a_band_and_leaves_the_rest() -> None:
    grey = np.full((90, 160, 3), 100, np.uint8)
    lit = sunlit(grey, np.random.default_rng(1)).astype(np.int32)
    assert lit.min() >= 100  # nothing darker than before
    assert (lit > 140).mean() > 0.05 and (lit == 100).mean() > 0.2
