"""Hidden program for geometry_lattice_on_segment: how many integer points lie on the closed segment between the two points.

Input: segment: two integer points [[x1, y1], [x2, y2]]; exactly 2 points, coordinates between -20 and 20.
Invalid input raises ValueError.
"""

import math


def lattice_on_segment(points):
    """How many integer points lie on the closed segment between the two points."""
    pts = _points(points, -20, 20, 2, 2)
    (x1, y1), (x2, y2) = pts
    return math.gcd(abs(x1 - x2), abs(y1 - y2)) + 1


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
