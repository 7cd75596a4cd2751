"""Random inputs for hard_cross_over_points: two price series [fast, slow] of the same length; 0 to 14 integers each, between 0 and 50."""
import json

NAME = 'hard_cross_over_points'

EDGE_CASES = [
    [[], []],
    [[1], [2]],
    [[1, 3], [2, 2]],
    [[3, 1], [2, 2]],
    [[2, 2, 2], [2, 2, 2]],
    [[1, 2, 3, 2, 1], [2, 2, 2, 2, 2]],
    [[0, 5, 0, 5, 0, 5], [5, 0, 5, 0, 5, 0]],
]


def _walk(rng, n):
    x = rng.randint(0, 50)
    out = []
    for _ in range(n):
        x = min(50, max(0, x + rng.randint(-6, 6)))
        out.append(x)
    return out


def _draw(rng):
    n = rng.randint(0, 14)
    fast = _walk(rng, n)
    if rng.random() < 0.5:
        # A slow series that follows the fast one at a distance, so that they cross.
        slow = [min(50, max(0, v + rng.randint(-5, 5))) for v in fast]
    else:
        slow = _walk(rng, n)
    return [fast, slow]


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
