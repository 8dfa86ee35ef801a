"""The calibration of a camera tilted away from the table: what the mat's markers give where the
camera does not look straight down."""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.mat import ASPECT
from kiosk.render.scenes import tilted_away
from kiosk.vision.calibration import Calibration


def slanted(far_edge: float, size: tuple[int, int] = (1280, 720)) -> Calibration:
    """The calibration on frames of ``size`` whose top edge is ``far_edge`` of their width as the
    camera sees it (:func:`~kiosk.render.scenes.tilted_away`), the mat filling most of the
    picture."""
    w, h = size
    x0, x1 = w / 2 - 0.45 * h * ASPECT, w / 2 + 0.45 * h * ASPECT
    mat = np.float32([[x0, 0.05 * h], [x1, 0.05 * h], [x1, 0.95 * h], [x0, 0.95 * h]])
    on_frame = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), mat)
    return Calibration(np.linalg.inv(tilted_away(size, far_edge) @ on_frame), size, "markers", 4)
