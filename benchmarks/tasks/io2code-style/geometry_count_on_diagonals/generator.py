"""Random inputs for geometry_count_on_diagonals: list of integer points [x, y]; 0 to 12 points, coordinates between -20 and 20."""
import json

NAME = 'geometry_count_on_diagonals'

EDGE_CASES = [
    [],
    [[0, 0]],
    [[3, -4]],
    [[1, 1], [1, 1]],
    [[0, 0], [3, 4]],
    [[-20, -20], [20, 20]],
    [[0, 0], [1, 1], [2, 2]],
    [[0, 0], [4, 0], [4, 3], [0, 3]],
    [[2, 2], [-2, 2], [-2, -2], [2, -2]],
    [[0, 0], [5, 0], [0, 5], [5, 5], [2, 2]],
]


def _draw(rng):
    pts = _pts(rng, -20, 20, 0, 12)
    for p in pts:
        if rng.random() < 0.35:
            # Move the point onto a diagonal.
            p[1] = p[0] if rng.random() < 0.5 else -p[0]
    return pts


def _pts(rng, lo, hi, min_n, max_n):
    """Integer points: scattered, on a line, with duplicates or on a grid line."""
    n = rng.randint(min_n, max_n)
    shape = rng.random()
    if shape < 0.6:
        return [[rng.randint(lo, hi), rng.randint(lo, hi)] for _ in range(n)]
    if shape < 0.75:
        x0, y0 = rng.randint(lo, hi), rng.randint(lo, hi)
        dx, dy = rng.choice([(1, 0), (0, 1), (1, 1), (1, -1), (2, 1)])
        out = []
        for i in range(n):
            x, y = x0 + i * dx, y0 + i * dy
            out.append([min(hi, max(lo, x)), min(hi, max(lo, y))])
        return out
    if shape < 0.9:
        base = [[rng.randint(lo, hi), rng.randint(lo, hi)] for _ in range(max(1, n - 1))]
        pts = base + [list(rng.choice(base))]
        rng.shuffle(pts)
        return pts[:n] if n else []
    x = rng.randint(lo, hi)
    return [[x, rng.randint(lo, hi)] if rng.random() < 0.5 else [rng.randint(lo, hi), x] for _ in range(n)]


def generate(k, exclude, rng):
    """Return k inputs, distinct from each other and from every input in exclude."""
    seen = {_key(x) for x in exclude}
    edges = list(EDGE_CASES)
    out = []
    attempts = 0
    while len(out) < k:
        attempts += 1
        if attempts > 500 * (k + 10):
            raise ValueError(f"{NAME}: found only {len(out)} fresh inputs of the {k} asked; the input space is exhausted")
        if edges and rng.random() < 0.25:
            x = edges.pop(rng.randrange(len(edges)))
        else:
            x = _draw(rng)
        key = _key(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def _norm(x):
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, (int, float)):
        return float(x)
    if isinstance(x, dict):
        return {str(k): _norm(v) for k, v in x.items()}
    return [_norm(v) for v in x]


def _key(x):
    """Identity of an input after JSON normalisation (1 and 1.0 are the same)."""
    return json.dumps(_norm(x), sort_keys=True)
