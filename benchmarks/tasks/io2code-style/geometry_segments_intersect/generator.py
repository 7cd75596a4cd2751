"""Random inputs for geometry_segments_intersect: two segments [[[x1, y1], [x2, y2]], [[x3, y3], [x4, y4]]]; integer coordinates between -20 and 20; a segment may be a single point."""
import json

NAME = 'geometry_segments_intersect'

EDGE_CASES = [
    [[[0, 0], [4, 4]], [[0, 4], [4, 0]]],
    [[[0, 0], [2, 2]], [[3, 3], [5, 5]]],
    [[[0, 0], [2, 2]], [[2, 2], [5, 0]]],
    [[[0, 0], [0, 0]], [[0, 0], [0, 0]]],
    [[[1, 1], [1, 1]], [[0, 0], [2, 2]]],
    [[[0, 0], [4, 0]], [[1, 0], [3, 0]]],
    [[[-20, -20], [20, 20]], [[-20, 20], [20, -20]]],
    [[[0, 0], [4, 0]], [[0, 1], [4, 1]]],
]


def _draw(rng):
    if rng.random() < 0.3:
        # Collinear segments on one line: overlapping, touching or apart.
        y = rng.randint(-20, 20)
        xs = sorted(rng.randint(-20, 20) for _ in range(4))
        rng.shuffle(xs)
        return [[[xs[0], y], [xs[1], y]], [[xs[2], y], [xs[3], y]]]
    lo, hi = (-20, 20) if rng.random() < 0.5 else (-4, 4)
    return [[[rng.randint(lo, hi), rng.randint(lo, hi)] for _ in range(2)] for _ in range(2)]


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
