"""Table calibration: markers found under perspective map pixels to the right mat coordinates."""

from pathlib import Path

import cv2
import numpy as np

from kiosk import mat
from kiosk.vision.calibration import Calibration, from_markers, from_touches, identity
from kiosk.vision.geometry import order_corners
from kiosk.vision.params import DetectorConfig
from kiosk.vision.tilt import Tilt


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


def test_the_markers_give_the_cameras_view_of_the_table():
    """Cards lying anywhere on the mat, at any turn, fit the view the markers give well within
    a card's tolerance, where judged as seen from above some do not (the camera looks at a
    slant)."""
    img = _mat_image()
    frame, mat_to_px = _photograph(img)
    cal = from_markers(frame)
    assert cal is not None
    view, flat = cal.table_view, Tilt((720, 1280))
    rng = np.random.default_rng(3)
    card = (np.array([[0, 0], [63, 0], [63, 88], [0, 88]]) - [31.5, 44]) / 297  # mm, on an A3 mat's height
    quads = []
    for _ in range(12):
        turn = rng.uniform(0, np.pi)
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        on_mat = (card @ rot.T) * [1 / mat.ASPECT, 1] + rng.uniform(0.15, 0.85, 2)
        seen = cv2.perspectiveTransform(on_mat.reshape(-1, 1, 2), mat_to_px)
        quads.append(order_corners(seen.reshape(4, 2).astype(np.float32)))
    tolerance = DetectorConfig().aspect_tolerance
    assert view.errors(np.stack(quads)).max() < tolerance / 4
    assert flat.errors(np.stack(quads)).max() > tolerance


def test_the_kiosks_vision_keeps_a_calibration_through_a_change_of_deck():
    """Set on the kiosk's vision, a calibration places cards on the mat and gives the detector
    its view of the table, and both hold for a game on another deck."""
    from kiosk.config import VisionSettings
    from kiosk.runtime import VisionLink

    cal = from_markers(_photograph(_mat_image())[0])
    assert cal is not None
    link = VisionLink("virtual", (1280, 720), "affiche-belge", VisionSettings(), 15.0)
    link.set_calibration(cal)
    link.set_deck("standard-52")
    pipeline = link.worker.pipeline
    view = pipeline.detector.view
    assert view is not None and view.coef is not None
    assert np.allclose(view.coef, cal.table_view.coef)
    located = pipeline.tracker.locate
    assert located is not None
    corners = cal.to_camera(np.array([[0.45, 0.45], [0.55, 0.45], [0.55, 0.55], [0.45, 0.55]]))
    centre = located(corners.astype(np.float32))
    assert centre is not None and np.allclose(centre, (0.5, 0.5), atol=0.01)


def test_markers_found_again_tell_a_moved_camera_from_a_still_one():
    """The same mat found again through a still camera is no move; the picture shifted by 2 % of
    its width, or taken at another size, is."""
    img = _mat_image()
    frame, _ = _photograph(img)
    first, again = from_markers(frame), from_markers(frame.copy())
    shifted = from_markers(cv2.warpAffine(frame, np.float32([[1, 0, 26], [0, 1, 0]]), (1280, 720)))
    assert first is not None and again is not None and shifted is not None
    assert not first.moved(again)
    assert first.moved(shifted) and shifted.moved(first)
    assert first.moved(Calibration(first.homography, (640, 360), "markers", 4))
