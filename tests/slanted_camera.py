"""The calibration of a camera tilted away from the table: what the mat's markers give where the
camera does not look straight down."""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.mat import ASPECT
from kiosk.vision.calibration import Calibration


def slanted(far_edge: float, size: tuple[int, int] = (1280, 720)) -> Calibration:
    """The calibration on frames of ``size`` whose top edge is ``far_edge`` of their width as the
    camera sees it (at 0.65 a card at the centre is foreshortened as seen 34 degrees off), the mat
    filling most of the picture."""
    w, h = size
    away = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
        np.float32([[w * (1 - far_edge) / 2, 0], [w * (1 + far_edge) / 2, 0], [w, h], [0, h]]),
    )
    x0, x1 = w / 2 - 0.45 * h * ASPECT, w / 2 + 0.45 * h * ASPECT
    mat = np.float32([[x0, 0.05 * h], [x1, 0.05 * h], [x1, 0.95 * h], [x0, 0.95 * h]])
    to_frame = away @ cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), mat)
    return Calibration(np.linalg.inv(to_frame), size, "markers", 4)
