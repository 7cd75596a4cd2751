"""Hidden program for geometry_polygon_area2: twice the absolute area of the polygon whose vertices are given in order (shoelace formula).

Input: polygon: list of integer vertices [x, y] in order; 0 to 10 points, coordinates between -20 and 20.
Invalid input raises ValueError.
"""


def polygon_area2(points):
    """Twice the absolute area of the polygon whose vertices are given in order (shoelace formula)."""
    pts = _points(points, -20, 20, 0, 10)
    return abs(sum(pts[i][0] * pts[i - 1][1] - pts[i - 1][0] * pts[i][1] for i in range(len(pts))))


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
