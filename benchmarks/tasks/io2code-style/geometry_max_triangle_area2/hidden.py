"""Hidden program for geometry_max_triangle_area2: twice the largest area of a triangle with corners among the points (0 when fewer than three).

Input: list of integer points [x, y]; 0 to 8 points, coordinates between -20 and 20.
Invalid input raises ValueError.
"""


def max_triangle_area2(points):
    """Twice the largest area of a triangle with corners among the points (0 when fewer than three)."""
    pts = _points(points, -20, 20, 0, 8)
    n = len(pts)
    return max((abs(_cross(pts[i], pts[j], pts[k])) for i in range(n) for j in range(i + 1, n)
                for k in range(j + 1, n)), default=0)


def _cross(o, a, b):
    """Z component of (a - o) x (b - o): positive for a left turn o -> a -> b."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


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
