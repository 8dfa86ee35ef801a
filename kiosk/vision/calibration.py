"""Table calibration: camera pixels -> mat coordinates (0..1), from the mat's ArUco markers or
from four corners touched on the live view. Saved as JSON in the state directory; a save that
fails (full disk) is reported and the kiosk goes on with the calibration in memory."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from kiosk import mat
from kiosk.devices.state import load_json, save_file
from kiosk.vision.tilt import Tilt

_MAT_CORNERS = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
#: The steepest camera the kiosk's figures were measured at (degrees from looking straight down,
#: docs/vision.md): beyond it, cards are missed
MAX_SLANT = 35.0
#: A mat corner this share of the frame's width from where the calibration puts it: the camera
#: (or the mat) has moved (about 5 mm on an A3 mat filling the picture)
MOVED_SHARE = 0.01


@dataclass(frozen=True)
class Calibration:
    """A homography from camera pixels to mat coordinates, with how it was obtained."""

    homography: np.ndarray  # 3x3 float64
    frame_size: tuple[int, int]
    method: str  # "markers" | "touch"
    markers_seen: int = 0

    def to_mat(self, points: np.ndarray) -> np.ndarray:
        """Map (N, 2) camera pixels to (N, 2) mat coordinates."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """Map mat coordinates back to camera pixels (to draw the zones on the live view)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)

    def moved(self, other: Calibration) -> bool:
        """Whether ``other`` sees the mat elsewhere in the picture: a corner of it more than
        :data:`MOVED_SHARE` of the frame's width from where this one puts it (or another frame
        size). Markers found again on a still camera land within a pixel or two."""
        if other.frame_size != self.frame_size:
            return True
        apart = np.linalg.norm(self.to_camera(_MAT_CORNERS) - other.to_camera(_MAT_CORNERS), axis=1)
        return bool(apart.max() > MOVED_SHARE * self.frame_size[0])

    def slant(self) -> float:
        """Degrees the camera looks away from straight down at the picture's centre: there a card
        is foreshortened by their cosine (the length of the table's view, :mod:`~kiosk.vision.tilt`)."""
        coef = self.table_view.coef
        length = 0.0 if coef is None else float(np.hypot(*coef[0]))
        return float(np.degrees(np.arccos(np.exp(-length))))

    @cached_property
    def table_view(self) -> Tilt:
        """The camera's view of the table (:class:`~kiosk.vision.tilt.Tilt`), from the mat's plane
        (measured in its height: the mat is :data:`kiosk.mat.ASPECT` wide) to camera pixels:
        where the camera looks at the table at a slant, cards are outlined in that view. Worked
        out once per calibration (the operator menu shows the slant on every redraw)."""
        w, h = self.frame_size
        mat_to_camera = np.linalg.inv(self.homography) @ np.diag([1 / mat.ASPECT, 1.0, 1.0])
        return Tilt.seen_through(mat_to_camera, (h, w))

    def save(self, path: Path) -> bool:
        """Atomic write: a power cut leaves the old file or the new one, never half of one.
        False when it could not be written (reported once; never raises for the disk)."""
        data = {
            "homography": self.homography.tolist(),
            "frame_size": list(self.frame_size),
            "method": self.method,
            "markers_seen": self.markers_seen,
        }
        return save_file(path, json.dumps(data).encode("utf-8"))

    @classmethod
    def load(cls, path: Path) -> Calibration | None:
        """The saved calibration, or None when absent or unreadable (a bad file is set aside and
        the kiosk recalibrates)."""
        return load_json(path, cls._parse)

    @classmethod
    def _parse(cls, data: Any) -> Calibration:
        h = np.array(data["homography"], dtype=np.float64)
        if h.shape != (3, 3) or not np.isfinite(h).all() or abs(np.linalg.det(h)) < 1e-12:
            raise ValueError("the homography is not an invertible 3x3 matrix")
        w, hgt = (int(v) for v in data["frame_size"])
        if not (0 < w <= 10_000 and 0 < hgt <= 10_000):
            raise ValueError(f"frame size {w}x{hgt} out of range")
        return cls(h, (w, hgt), str(data["method"]), int(data.get("markers_seen", 0)))


_detector: cv2.aruco.ArucoDetector | None = None


def _aruco() -> cv2.aruco.ArucoDetector:
    global _detector
    if _detector is None:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, mat.ARUCO_DICT))
        _detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    return _detector


def from_markers(frame: np.ndarray, min_markers: int = 3) -> Calibration | None:
    """Find the mat's markers in a BGR frame; None unless at least ``min_markers`` are seen."""
    if frame is None or frame.ndim < 2 or frame.size == 0:
        return None
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _aruco().detectMarkers(gray)
    if ids is None:
        return None
    src: list[np.ndarray] = []
    dst: list[tuple[float, float]] = []
    for quad, marker_id in zip(corners, ids.flatten(), strict=True):
        if int(marker_id) in mat.MARKER_IDS:
            src.extend(quad.reshape(4, 2))
            dst.extend(mat.marker_corners(int(marker_id)))
    seen = len(src) // 4
    if seen < min_markers:
        return None
    h, _ = cv2.findHomography(np.array(src, np.float32), np.array(dst, np.float32), cv2.RANSAC, 3.0)
    if h is None:
        return None
    return Calibration(h, (frame.shape[1], frame.shape[0]), "markers", seen)


def from_touches(points: list[tuple[float, float]], frame_size: tuple[int, int]) -> Calibration:
    """Four camera-pixel points touched clockwise from the mat's top-left corner."""
    if len(points) != 4:
        raise ValueError("touch calibration needs exactly four corners")
    h = cv2.getPerspectiveTransform(np.array(points, np.float32), _MAT_CORNERS)
    return Calibration(h.astype(np.float64), frame_size, "touch", 0)


def identity(frame_size: tuple[int, int]) -> Calibration:
    """No calibration yet: the whole camera frame is taken as the mat."""
    w, h = frame_size
    return from_touches([(0, 0), (w, 0), (w, h), (0, h)], frame_size)
