"""Hidden program for geometry_orientation: 'ccw' when the polygon's vertices run counter-clockwise, 'cw' when clockwise, 'degenerate' when its signed area is zero.

Input: polygon: list of integer vertices [x, y] in order; 0 to 8 points, coordinates between -20 and 20.
Invalid input raises ValueError.
"""


def orientation(points):
    """'ccw' when the polygon's vertices run counter-clockwise, 'cw' when clockwise, 'degenerate' when its signed area is zero."""
    pts = _points(points, -20, 20, 0, 8)
    area2 = sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(len(pts)))
    return 'ccw' if area2 > 0 else 'cw' if area2 < 0 else 'degenerate'


def _points(x, lo, hi, min_n, max_n):
    """Return x as a list of (x, y) tuples when it holds min_n..max_n integer points in [lo, hi]."""
    if not isinstance(x, list) or not min_n <= len(x) <= max_n:
        raise ValueError(f"expected a list of {min_n} to {max_n} points")
    out = []
    for p in x:
        if not isinstance(p, list) or len(p) != 2:
            raise ValueError(f"every point must be [x, y], got {p!r}")
        for v in p:
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise ValueError(f"coordinates must be integers in [{lo}, {hi}], got {v!r}")
        out.append((p[0], p[1]))
    return out
