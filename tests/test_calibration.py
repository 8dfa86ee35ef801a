"""Table calibration: markers found under perspective map pixels to the right mat coordinates."""

from pathlib import Path

import cv2
import numpy as np

from kiosk import mat
from kiosk.vision.calibration import Calibration, from_markers, from_touches, identity


def _mat_image(width: int = 1400) -> np.ndarray:
    """A blank mat with the four markers drawn exactly where kiosk.mat puts them."""
    height = int(round(width / mat.ASPECT))
    img = np.full((height, width), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, mat.ARUCO_DICT))
    for marker_id in mat.MARKER_IDS:
        corners = np.array(mat.marker_corners(marker_id)) * [width, height]
        side = int(round(corners[1, 0] - corners[0, 0]))
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        x, y = (int(round(v)) for v in corners[0])
        img[y : y + side, x : x + side] = marker
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)


def _photograph(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mat seen by a tilted camera on a dark table: the frame and the mat->frame homography."""
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[180, 90], [1120, 60], [1200, 680], [90, 650]])
    m = cv2.getPerspectiveTransform(src, dst)
    frame = cv2.warpPerspective(img, m, (1280, 720), borderValue=(40, 50, 60))
    return frame, m @ np.diag([w, h, 1.0])


def test_markers_map_pixels_to_mat_coordinates():
    frame, mat_to_px = _photograph(_mat_image())
    cal = from_markers(frame)
    assert cal is not None and cal.markers_seen == 4 and cal.method == "markers"
    for mx, my in [(0.5, 0.5), (0.2, 0.8), (0.9, 0.1)]:
        px = cv2.perspectiveTransform(np.array([[[mx, my]]]), mat_to_px)[0, 0]
        got = cal.to_mat(px[None])[0]
        assert np.allclose(got, (mx, my), atol=0.01)


def test_no_markers_no_calibration():
    assert from_markers(np.full((480, 640, 3), 128, np.uint8)) is None
    assert from_markers(np.zeros((0, 0, 3), np.uint8)) is None


def test_touch_calibration_and_round_trip(tmp_path: Path):
    cal = from_touches([(100, 50), (700, 60), (690, 420), (110, 430)], (800, 480))
    assert np.allclose(cal.to_mat(np.array([[100, 50], [690, 420]])), [[0, 0], [1, 1]], atol=1e-6)
    path = tmp_path / "calibration.json"
    cal.save(path)
    loaded = Calibration.load(path)
    assert loaded is not None and np.allclose(loaded.homography, cal.homography)
    assert np.allclose(loaded.to_camera(np.array([[0.0, 0.0]])), [[100, 50]], atol=1e-6)


def test_corrupt_calibration_file_is_ignored(tmp_path: Path):
    path = tmp_path / "calibration.json"
    path.write_text('{"homography": [[1, 0], [0, 1]]')
    assert Calibration.load(path) is None
    assert Calibration.load(tmp_path / "absent.json") is None


def test_identity_covers_whole_frame():
    cal = identity((640, 480))
    assert np.allclose(cal.to_mat(np.array([[320, 240]])), [[0.5, 0.5]])
