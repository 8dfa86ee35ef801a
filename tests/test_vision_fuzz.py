"""Fuzz: arbitrary arrays (any shape, any dtype, any values) fed to the whole vision pipeline
never raise out of it and never confirm a card."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from kiosk.vision.pipeline import VisionPipeline

_PIPELINE = VisionPipeline.for_deck("standard-52")

arrays = hnp.arrays(
    dtype=st.sampled_from([np.uint8, np.int16, np.float32, np.float64, np.bool_, np.uint16]),
    shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=48),
)
others = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.binary(max_size=20), st.lists(st.integers()))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(arrays, others))
def test_any_input_is_survived_and_confirms_nothing(frame: object):
    for _ in range(4):  # more than the frames a confirmation needs
        view = _PIPELINE.process(frame)
        assert not any(e.kind == "confirmed" for e in view.events)
    assert _PIPELINE.tracker.cards == ()
