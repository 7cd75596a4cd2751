"""Hidden program for geometry_path_length: the Euclidean length of the path through the points in order, rounded to 10 decimals.

Input: path: list of integer points [x, y]; 0 to 10 points, coordinates between -20 and 20.
Invalid input raises ValueError.
"""

import math


def path_length(points):
    """The Euclidean length of the path through the points in order, rounded to 10 decimals."""
    pts = _points(points, -20, 20, 0, 10)
    return round(sum(math.dist(a, b) for a, b in zip(pts, pts[1:])), 10) + 0.0


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
