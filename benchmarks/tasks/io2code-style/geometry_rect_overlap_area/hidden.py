"""Hidden program for geometry_rect_overlap_area: the area of the intersection of the two rectangles.

Input: two axis-aligned rectangles [[x1, y1, x2, y2], [x3, y3, x4, y4]] given by opposite corners; integer coordinates between -20 and 20; corners in any order.
Invalid input raises ValueError.
"""


def rect_overlap_area(rects):
    """The area of the intersection of the two rectangles."""
    if not isinstance(rects, list) or len(rects) != 2:
        raise ValueError("expected two rectangles")
    boxes = []
    for r in rects:
        if not isinstance(r, list) or len(r) != 4:
            raise ValueError("every rectangle must be [x1, y1, x2, y2]")
        (x1, y1), (x2, y2) = _points([r[:2], r[2:]], -20, 20, 2, 2)
        boxes.append((min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)))
    (a, b) = boxes
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0, w) * max(0, h)


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
