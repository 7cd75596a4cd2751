"""Hidden program for geometry_points_in_circle: how many of the points lie inside or on the circle.

Input: object {"center": [x, y], "radius": r, "points": [[x, y], ...]}; integer coordinates between -20 and 20; radius between 0 and 20; 0 to 10 points.
Invalid input raises ValueError.
"""


def points_in_circle(query):
    """How many of the points lie inside or on the circle."""
    if not isinstance(query, dict) or set(query) != {"center", "radius", "points"}:
        raise ValueError("expected an object with keys center, radius and points")
    ((cx, cy),) = _points([query["center"]], -20, 20, 1, 1)
    r = query["radius"]
    if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 20:
        raise ValueError("radius must be an integer between 0 and 20")
    pts = _points(query["points"], -20, 20, 0, 10)
    return sum(1 for x, y in pts if (x - cx) ** 2 + (y - cy) ** 2 <= r * r)


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
