"""Hidden program for geometry_segment_length2: the squared length of the segment between the two points.

Input: segment: two integer points [[x1, y1], [x2, y2]]; exactly 2 points, coordinates between -20 and 20.
Invalid input raises ValueError.
"""


def segment_length2(points):
    """The squared length of the segment between the two points."""
    pts = _points(points, -20, 20, 2, 2)
    (x1, y1), (x2, y2) = pts
    return (x1 - x2) ** 2 + (y1 - y2) ** 2


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
