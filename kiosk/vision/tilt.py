"""The table seen at a tilt: how a card's outline should look at each place of a frame.

A card is a rectangle of :data:`~kiosk.vision.geometry.CARD_ASPECT` on the table; its outline is
a perspective view of it. At a card's centre that view is, to first order, a linear map
(:func:`card_views`: the Jacobian of the homography from the card to its quad), and what tells a
card from another shape is that map's anisotropy, not the quad's 2-D aspect: a card seen square
on maps to a similarity (anisotropy 1), one seen at a tilt t is compressed by cos t along the
tilt. The anisotropy is kept as a *view*, the log of the map's metric (a traceless symmetric
2x2 matrix [[p, q], [q, -p]], stored as (p, q)): its length is the log of the larger over the
smaller singular value, its angle says along which direction the card is compressed.

All cards of a frame lie on one table, so their views vary smoothly over the frame: a frame's
:class:`Tilt` is the view fitted over the cards seen whole, affine in the position, and a quad
is card-shaped where one of its two views (either side taken as a card's short side) lies near
the fitted view at its place (:meth:`Tilt.errors`). With fewer cards than a fit needs, the
frame is taken as seen from above (:meth:`Tilt.flat`): the error is then the view's length,
which for a rectangle is ``|log(aspect / CARD_ASPECT)|`` (:func:`aspect_errors`).
"""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from kiosk.vision.geometry import CARD_ASPECT
from kiosk.vision.params import PARAMS


def card_views(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per ordered quad of (N, 4, 2), its two views (N, 2, 2): (p, q) of the card seen with its
    short side along the quad's first side, and along its second; and its depth ratio (N,): the
    farthest corner's distance from the camera over the nearest's, how much the quad converges
    (inf where no perspective view of a rectangle gives it: not convex)."""
    q = np.asarray(quads, np.float64)
    views = np.stack([_view(q), _view(np.roll(q, -1, axis=1))], axis=1)
    return views[..., :2], views[:, 0, 2]


def _view(q: np.ndarray) -> np.ndarray:
    """(p, q, depth ratio) per quad (N, 4, 2) taken as a card whose short side is its first side:
    the homography from the unit square (Heckbert's closed form), its Jacobian at the centre
    with the second axis scaled to the card's length, and the log of that map's metric."""
    x, y = q[..., 0], q[..., 1]
    dx1, dx2, dx3 = x[:, 1] - x[:, 2], x[:, 3] - x[:, 2], x[:, 0] - x[:, 1] + x[:, 2] - x[:, 3]
    dy1, dy2, dy3 = y[:, 1] - y[:, 2], y[:, 3] - y[:, 2], y[:, 0] - y[:, 1] + y[:, 2] - y[:, 3]
    den = dx1 * dy2 - dx2 * dy1
    den = np.where(np.abs(den) > 1e-9, den, 1e-9)
    g, h = (dx3 * dy2 - dx2 * dy3) / den, (dx1 * dy3 - dx3 * dy1) / den
    a, b = x[:, 1] - x[:, 0] + g * x[:, 1], x[:, 3] - x[:, 0] + h * x[:, 3]
    d, e = y[:, 1] - y[:, 0] + g * y[:, 1], y[:, 3] - y[:, 0] + h * y[:, 3]
    w = 0.5 * (g + h) + 1
    cx, cy = (0.5 * (a + b) + x[:, 0]) / w, (0.5 * (d + e) + y[:, 0]) / w
    across = np.stack([a - cx * g, d - cy * g], -1)  # d(x, y) / du
    along = np.stack([b - cx * h, e - cy * h], -1) / CARD_ASPECT  # d(x, y) / dv, v in short sides
    jac = np.stack([across, along], -1) / w[:, None, None]
    u, s, _ = np.linalg.svd(jac)
    length = np.log(np.maximum(s[:, 0], 1e-9) / np.maximum(s[:, 1], 1e-9))
    # the metric's larger eigenvalue lies along the direction the map stretches least (u[:, :, 1])
    angle = 2 * np.arctan2(u[:, 1, 1], u[:, 0, 1])
    depths = np.stack([np.ones_like(g), 1 + g, 1 + g + h, 1 + h], axis=1)
    ok = (depths.min(axis=1) > 0) & (s[:, 1] > 1e-9)
    ratio = np.where(ok, depths.max(axis=1) / np.where(ok, depths.min(axis=1), 1.0), np.inf)
    return np.stack([np.where(ok, length * np.cos(angle), np.inf), np.where(ok, length * np.sin(angle), 0), ratio], -1)


class Tilt:
    """A frame's view of its table: per place, the view (p, q) a card there shows, affine in the
    position (``coef``, 3 x 2: constant, x and y terms, positions as fractions of the frame's
    width from its centre), or the view from above (0, 0) everywhere (``coef`` None)."""

    def __init__(
        self, shape: tuple[float, ...], coef: np.ndarray | None = None, areas: np.ndarray | None = None
    ) -> None:
        self.shape = shape[:2]
        self.coef = coef
        #: log of a card's area in the frame, affine in the position as ``coef`` (3,): cards
        #: nearer the camera look larger; None where unknown
        self.areas = areas

    @classmethod
    def flat(cls) -> Tilt:
        """The view from above, the same everywhere."""
        return cls((0, 0))

    @classmethod
    def fitted(cls, quads: np.ndarray, shape: tuple[int, ...], tolerance: float) -> Tilt:
        """The view fitted over ``quads`` (ordered (N, 4, 2), the cards seen whole), each taken
        the way round its view lies nearer the fit, by least squares reweighted towards the
        median (a few pieces of cards or other shapes do not pull it), the position terms held
        towards none (``tilt_ridge``), one quad a place. The fit starts from each quad's way
        nearer the view from above, or from the view through three quads that the most fit
        (:func:`_sampled_ways`) where more fit that, and ``table_cards`` beyond the three. Seen
        from above where fewer than ``table_cards`` quads have a plausible view (``max_tilt``),
        or fit it within ``tilt_inlier`` and tell which way round they lie (``tilt_way``: a
        near-square quad fits any view one way or the other, so a steep view whose every card
        looks near square is taken as from above too), or where the fit takes fewer than
        ``tilt_gain`` more of them as cards (within ``tolerance``) than the view from above does
        and lies under ``tilt_plain`` from it at the frame's centre: a frame whose cards all
        look as seen from above is taken so."""
        p = PARAMS.propose
        flat = cls(shape)
        quads = _one_per_place(quads)
        if len(quads) < PARAMS.select.table_cards:
            return flat
        views, depth = card_views(quads)
        length = np.linalg.norm(views, axis=2)
        use = (depth <= p.max_depth) & (length.min(axis=1) <= p.max_tilt)
        if use.sum() < PARAMS.select.table_cards:
            return flat
        views, where = views[use], flat._positions(quads[use])
        ridge = np.diag([0.0, p.tilt_ridge, p.tilt_ridge])
        coef, miss = _ways_fit(views, where, ridge, length[use].argmin(axis=1))
        other, other_miss = _ways_fit(views, where, ridge, _sampled_ways(views, where, ridge))
        taken = _inliers(other_miss)
        # a view through three quads fits them whatever they are: it needs table_cards more
        if taken >= 3 + PARAMS.select.table_cards and taken > _inliers(miss):
            coef, miss = other, other_miss
        near = miss.min(axis=1) <= p.tilt_inlier
        # an outline near square tells no way round: its two views are as long (two cards half
        # over each other make one), and a fit takes whichever fits; cards must tell it
        told = np.abs(length[use, 0] - length[use, 1]) >= p.tilt_way
        if (near & told).sum() < PARAMS.select.table_cards:
            return flat
        tilted = cls(shape, coef, _area_fit(np.abs(_areas(quads[use][near])), where[near], ridge))
        gain = int(((tilted.errors(quads) <= tolerance) & (aspect_errors(quads) > tolerance)).sum())
        plain = float(np.hypot(*coef[0])) >= p.tilt_plain
        return tilted if gain >= p.tilt_gain or plain else flat

    @classmethod
    def seen_through(cls, homography: np.ndarray, shape: tuple[int, ...]) -> Tilt:
        """The view of a table that ``homography`` (3 x 3) maps to a frame of ``shape``, from the
        table's plane (in any unit of length) to the frame's pixels, as a calibrated camera knows
        it: the views of a small card at a grid of the frame's places, fitted affine."""
        h, w = shape[:2]
        grid = np.stack(np.meshgrid(np.linspace(0, w, 7), np.linspace(0, h, 5)), -1).reshape(-1, 1, 2)
        on_table = cv2.perspectiveTransform(grid, np.linalg.inv(homography)).reshape(-1, 1, 2)
        card = np.array([[0, 0], [1, 0], [1, CARD_ASPECT], [0, CARD_ASPECT]]) - [0.5, CARD_ASPECT / 2]
        small = 1e-3 * float(np.linalg.norm(np.ptp(on_table, axis=0)))  # a card's view is its Jacobian's
        corners = (on_table + small * card).reshape(-1, 1, 2)
        quads = cv2.perspectiveTransform(corners, homography).reshape(-1, 4, 2)
        views, _ = card_views(quads)  # the first side is the card's short side
        flat = cls(shape)
        return cls(shape, _weighted_fit(flat._positions(quads), views[:, 0], np.ones(len(quads)), np.zeros((3, 3))))

    def steep(self, tolerance: float) -> bool:
        """Whether a card seen from above would fail this view somewhere in the frame (it lies
        beyond ``tolerance`` of the view from above at a corner): not a camera nearly overhead."""
        if self.coef is None:
            return False
        h, w = self.shape
        corners = self._at(np.array([[0, 0], [w, 0], [w, h], [0, h]]))
        return bool(np.linalg.norm(corners @ self.coef, axis=1).max() >= tolerance)

    def placed(self, quads: np.ndarray, shape: tuple[int, ...]) -> Tilt:
        """This view for a frame of ``shape`` (positions are fractions of its width, so any scale
        of the frame it was found for), with a card's area fitted over the ``quads`` (ordered
        (N, 4, 2)) that fit it within ``tilt_inlier`` where ``table_cards`` of them do."""
        view = Tilt(shape, self.coef)
        quads = _one_per_place(quads)
        near = view.errors(quads) <= PARAMS.propose.tilt_inlier
        if near.sum() >= PARAMS.select.table_cards:
            ridge = np.diag([0.0, PARAMS.propose.tilt_ridge, PARAMS.propose.tilt_ridge])
            view.areas = _area_fit(np.abs(_areas(quads[near])), view._positions(quads[near]), ridge)
        return view

    def area_at(self, points: np.ndarray) -> np.ndarray | None:
        """A card's area in the frame (pixels) at each point of (N, 2), or None where unknown."""
        return None if self.areas is None else np.exp(self._at(points) @ self.areas)

    def _positions(self, quads: np.ndarray) -> np.ndarray:
        """(N, 3): 1 and each quad's centre as fractions of the frame's width from its centre."""
        return self._at(quads.mean(axis=1))

    def _at(self, points: np.ndarray) -> np.ndarray:
        """(N, 3): 1 and each point of (N, 2) as fractions of the frame's width from its centre."""
        h, w = self.shape
        return np.column_stack([np.ones(len(points)), (points[:, 0] - w / 2) / w, (points[:, 1] - h / 2) / w])

    def flattening(self, points: np.ndarray) -> np.ndarray:
        """Per point of (N, 2), the linear map (N, 2, 2) that undoes the view there, keeping areas:
        a card's outline seen there, mapped by it, has right angles and the card's aspect. It is
        exp(V / 2) of the view's matrix V = [[p, q], [q, -p]], the log of the metric that measures
        the frame's vectors in the table's."""
        p, q = (np.zeros((len(points), 2)) if self.coef is None else self._at(points) @ self.coef).T
        half = 0.5 * np.hypot(p, q)
        sinhc = np.sinh(half) / np.maximum(half, 1e-12)
        view = 0.5 * np.stack([np.stack([p, q], -1), np.stack([q, -p], -1)], -2)
        return np.cosh(half)[:, None, None] * np.eye(2) + sinhc[:, None, None] * view

    def errors(self, quads: np.ndarray) -> np.ndarray:
        """Per ordered quad of (N, 4, 2), how far the nearer of its views lies from the view at
        its place (inf where it converges more than ``max_depth``, or its view is steeper than
        ``max_tilt`` and more than ``tilt_inlier`` from the view at its place, which may be as
        steep near a steeply seen frame's corner): a card's quad lies within ``aspect_tolerance``."""
        p = PARAMS.propose
        if not len(quads):
            return np.zeros(0)
        views, depth = card_views(quads)
        expected = np.zeros((len(quads), 2)) if self.coef is None else self._positions(quads) @ self.coef
        miss = np.linalg.norm(views - expected[:, None, :], axis=2)
        way = miss.argmin(axis=1)
        steep = (np.linalg.norm(views[np.arange(len(quads)), way], axis=1) > p.max_tilt) & (
            miss.min(axis=1) > p.tilt_inlier
        )
        return np.where((depth > p.max_depth) | steep, np.inf, miss.min(axis=1))

    def scaled(self, factor: float) -> Tilt:
        """The same view for the frame scaled by ``factor`` (positions are fractions of its width)."""
        h, w = self.shape
        areas = None if self.areas is None else self.areas + np.array([2 * np.log(factor), 0.0, 0.0])
        return Tilt((h * factor, w * factor), self.coef, areas)

    def ordered(self, quads: np.ndarray) -> np.ndarray:
        """Ordered quads (N, 4, 2) turned, where need be, so that their first side is the card's
        short side by the view at their place, not by their 2-D sides (near a tilted frame's near
        edge a card crosswise may look longer across than along), starting at the upper of the two
        corners that may start it (as :func:`~kiosk.vision.geometry.order_corners`)."""
        if self.coef is None or not len(quads):
            return quads
        views, _ = card_views(quads)
        expected = self._positions(quads) @ self.coef
        turn = np.linalg.norm(views[:, 1] - expected, axis=1) < np.linalg.norm(views[:, 0] - expected, axis=1)
        out = np.where(turn[:, None, None], np.roll(quads, -1, axis=1), quads)
        upper = (out[:, 2, 1] < out[:, 0, 1]) | ((out[:, 2, 1] == out[:, 0, 1]) & (out[:, 2, 0] < out[:, 0, 0]))
        return np.where(upper[:, None, None], np.roll(out, -2, axis=1), out).astype(np.float32)


def aspect_errors(quads: np.ndarray) -> np.ndarray:
    """Per ordered quad of (N, 4, 2), ``|log(aspect / CARD_ASPECT)|`` of its mean long side over
    its mean short side."""
    side = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    aspect = (side[:, 1] + side[:, 3]) / np.maximum(side[:, 0] + side[:, 2], 1e-6)
    return np.abs(np.log(np.maximum(aspect, 1e-6) / CARD_ASPECT))


def _area_fit(areas: np.ndarray, where: np.ndarray, ridge: np.ndarray) -> np.ndarray:
    """The log of a card's area affine in the position (3,), fitted over the ``areas`` of quads
    at ``where`` (:meth:`Tilt._positions`) by least squares reweighted towards the median: a
    piece of a card (a court's picture frame, a card's visible end) has a card's view, not its
    area."""
    size = np.log(np.maximum(areas, 1.0))
    fit = np.array([np.median(size), 0.0, 0.0])
    for _ in range(6):
        fit = _weighted_fit(where, size, 1 / np.maximum(np.abs(size - where @ fit), 0.05), ridge)
    return fit


def _ways_fit(
    views: np.ndarray, where: np.ndarray, ridge: np.ndarray, way: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The affine view (3, 2) over quads of two ``views`` each (N, 2, 2) at ``where`` (N, 3),
    started from the views ``way`` (N,) picks, by least squares reweighted towards the median
    (a piece of a card counts little), each quad taken the way round its view lies nearer the
    fit; and each view's distance from it (N, 2)."""
    weight = np.ones(len(views))
    for _ in range(6):
        coef = _weighted_fit(where, views[np.arange(len(views)), way], weight, ridge)
        miss = np.linalg.norm(views - (where @ coef)[:, None, :], axis=2)
        way = miss.argmin(axis=1)
        weight = 1 / np.maximum(miss.min(axis=1), 0.02)
    return coef, miss


def _sampled_ways(views: np.ndarray, where: np.ndarray, ridge: np.ndarray) -> np.ndarray:
    """Which of its two views (N,) each quad shows by the view through three of them that the
    most quads fit (``tilt_inlier``): at a steep tilt a card laid across the tilt looks near
    square, and its nearer view to the view from above is the wrong one. The triples are all of
    them or ``tilt_samples`` of them, drawn the same way each time; each is taken every way round."""
    n, most = len(views), PARAMS.propose.tilt_samples
    count = math.comb(n, 3)
    ranks = range(count) if count <= most else np.random.default_rng(0).choice(count, most, replace=False)
    triples = np.array([_triple(int(r), n) for r in ranks])
    ways = np.array(list(itertools.product((0, 1), repeat=3)))  # (8, 3)
    idx = np.repeat(triples, len(ways), axis=0)  # (H, 3)
    pick = np.tile(ways, (len(triples), 1))
    a, y = where[idx], views[idx, pick]  # (H, 3, 3), (H, 3, 2)
    at = np.swapaxes(a, 1, 2)
    coef = np.linalg.solve(at @ a + ridge + 1e-9 * np.eye(3), at @ y)  # (H, 3, 2)
    miss = np.linalg.norm(views[None] - (where[None] @ coef)[:, :, None, :], axis=3)  # (H, N, 2)
    spread = np.minimum(miss.min(axis=2), PARAMS.propose.tilt_inlier).sum(axis=1)
    best = np.lexsort((-spread, _inliers(miss)))[-1]  # the most quads within, then the nearest
    return miss[best].argmin(axis=1)


def _triple(rank: int, n: int) -> list[int]:
    """The ``rank``-th of the triples of 0..``n``-1 in lexicographic order, without listing the
    others (a busy frame's quads make tens of thousands)."""
    out, x = [], 0
    for left in (3, 2, 1):
        while math.comb(n - x - 1, left - 1) <= rank:
            rank -= math.comb(n - x - 1, left - 1)
            x += 1
        out.append(x)
        x += 1
    return out


def _inliers(miss: np.ndarray) -> np.ndarray:
    """Per view whose distances from quads' two views each are ``miss`` (..., N, 2), the quads
    with a view within ``tilt_inlier`` of it."""
    return (miss.min(axis=-1) <= PARAMS.propose.tilt_inlier).sum(axis=-1)


def _weighted_fit(where: np.ndarray, target: np.ndarray, weight: np.ndarray, ridge: np.ndarray) -> np.ndarray:
    """The affine coefficients (3, ...) of ``target`` in the positions ``where`` (N, 3) by least
    squares weighted by ``weight``, the terms held towards none by ``ridge`` (3 x 3)."""
    wx = where * weight[:, None]
    return np.linalg.solve(wx.T @ where + ridge + 1e-9 * np.eye(3), wx.T @ target)


def _one_per_place(quads: np.ndarray) -> np.ndarray:
    """``quads`` less those centred within a third of a card's width of one before them: the
    cues outline a card several times, and a view is fitted over cards, not outlines."""
    centres = quads.mean(axis=1)
    reach = np.sqrt(np.abs(_areas(quads)) / CARD_ASPECT) / 3
    near = np.linalg.norm(centres[:, None] - centres[None], axis=2) < np.minimum(reach[:, None], reach[None])
    first = ~np.tril(near, -1).any(axis=1)
    return quads[first]


def _areas(quads: np.ndarray) -> np.ndarray:
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * (x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)
