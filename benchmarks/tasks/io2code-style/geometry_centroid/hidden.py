"""Hidden program for geometry_centroid: the centroid [mean x, mean y], rounded to 10 decimals.

Input: list of integer points [x, y]; 1 to 10 points, coordinates between -20 and 20.
Invalid input raises ValueError.
"""


def centroid(points):
    """The centroid [mean x, mean y], rounded to 10 decimals."""
    pts = _points(points, -20, 20, 1, 10)
    n = len(pts)
    return [round(sum(p[0] for p in pts) / n, 10) + 0.0, round(sum(p[1] for p in pts) / n, 10) + 0.0]


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
