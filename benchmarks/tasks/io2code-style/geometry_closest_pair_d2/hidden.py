"""Hidden program for geometry_closest_pair_d2: the smallest squared distance between two of the points (listed separately).

Input: list of integer points [x, y]; 2 to 10 points, coordinates between -20 and 20.
Invalid input raises ValueError.
"""


def closest_pair_d2(points):
    """The smallest squared distance between two of the points (listed separately)."""
    pts = _points(points, -20, 20, 2, 10)
    return min((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 for i, a in enumerate(pts) for b in pts[i + 1:])


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
