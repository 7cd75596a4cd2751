"""Random inputs for geometry_rect_overlap_area: two axis-aligned rectangles [[x1, y1, x2, y2], [x3, y3, x4, y4]] given by opposite corners; integer coordinates between -20 and 20; corners in any order."""
import json

NAME = 'geometry_rect_overlap_area'

EDGE_CASES = [
    [[0, 0, 2, 2], [1, 1, 3, 3]],
    [[0, 0, 2, 2], [2, 2, 4, 4]],
    [[0, 0, 10, 10], [2, 3, 4, 5]],
    [[5, 5, 0, 0], [1, 4, 6, -1]],
    [[0, 0, 0, 5], [-1, -1, 1, 1]],
    [[-20, -20, 20, 20], [-20, -20, 20, 20]],
    [[0, 0, 1, 1], [5, 5, 6, 6]],
]


def _draw(rng):
    first = [rng.randint(-20, 20) for _ in range(4)]
    if rng.random() < 0.6:
        # A second rectangle near the first, so that overlaps are common.
        return [first, [max(-20, min(20, v + rng.randint(-6, 6))) for v in first]]
    return [first, [rng.randint(-20, 20) for _ in range(4)]]


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
