"""Hidden program for geometry_sort_by_distance: the points sorted by squared distance from the origin, then by x, then by y.

Input: list of integer points [x, y]; 0 to 10 points, coordinates between -20 and 20.
Invalid input raises ValueError.
"""


def sort_by_distance(points):
    """The points sorted by squared distance from the origin, then by x, then by y."""
    pts = _points(points, -20, 20, 0, 10)
    return [list(p) for p in sorted(pts, key=lambda p: (p[0] ** 2 + p[1] ** 2, p[0], p[1]))]


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
