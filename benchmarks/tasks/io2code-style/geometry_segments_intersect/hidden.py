"""Hidden program for geometry_segments_intersect: whether the two closed segments share at least one point.

Input: two segments [[[x1, y1], [x2, y2]], [[x3, y3], [x4, y4]]]; integer coordinates between -20 and 20; a segment may be a single point.
Invalid input raises ValueError.
"""


def segments_intersect(segments):
    """Whether the two closed segments share at least one point."""
    if not isinstance(segments, list) or len(segments) != 2:
        raise ValueError("expected two segments")
    (p1, p2), (q1, q2) = (_points(s, -20, 20, 2, 2) for s in segments)
    return _intersect(p1, p2, q1, q2)


def _cross(o, a, b):
    """Z component of (a - o) x (b - o): positive for a left turn o -> a -> b."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_segment(p, q, r):
    """Whether r, known to be collinear with p and q, lies on the segment p-q."""
    return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])


def _intersect(p1, p2, q1, q2):
    """Whether the closed segments p1-p2 and q1-q2 share at least one point."""
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return ((d1 == 0 and _on_segment(q1, q2, p1)) or (d2 == 0 and _on_segment(q1, q2, p2))
            or (d3 == 0 and _on_segment(p1, p2, q1)) or (d4 == 0 and _on_segment(p1, p2, q2)))


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
