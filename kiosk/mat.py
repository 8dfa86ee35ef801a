"""Geometry of the printed table mat, shared by the mat renderer and the table calibration.

Mat coordinates are normalised: (0, 0) is the mat's top-left corner as seen from the kiosk's
camera, (1, 1) its bottom-right, whatever the paper size (A3 or A2 landscape, both 1:sqrt(2)).
Four ArUco markers (OpenCV's DICT_4X4_50, ids 0..3 clockwise from the top-left) sit in the
corners; calibration finds them and maps camera pixels to mat coordinates.
"""

from __future__ import annotations

ARUCO_DICT = "DICT_4X4_50"
MARKER_IDS: tuple[int, int, int, int] = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
#: Paper sizes in millimetres, landscape (width, height).
PAPER_MM: dict[str, tuple[int, int]] = {"A3": (420, 297), "A2": (594, 420)}
ASPECT = 420 / 297  # width / height of every supported paper size
#: Side of a marker as a fraction of the mat's height, and the inset of its centre from the edges.
MARKER_SIDE = 0.09
MARKER_INSET = 0.075


def marker_centres() -> dict[int, tuple[float, float]]:
    """Marker id -> centre in mat coordinates (insets scaled so the margin is equal in mm)."""
    ix = MARKER_INSET / ASPECT
    iy = MARKER_INSET
    return {
        MARKER_IDS[0]: (ix, iy),
        MARKER_IDS[1]: (1 - ix, iy),
        MARKER_IDS[2]: (1 - ix, 1 - iy),
        MARKER_IDS[3]: (ix, 1 - iy),
    }


def marker_corners(marker_id: int) -> list[tuple[float, float]]:
    """The four corners (clockwise from top-left, as OpenCV reports them) of a marker in mat coordinates."""
    cx, cy = marker_centres()[marker_id]
    hx, hy = MARKER_SIDE / ASPECT / 2, MARKER_SIDE / 2
    return [(cx - hx, cy - hy), (cx + hx, cy - hy), (cx + hx, cy + hy), (cx - hx, cy + hy)]
