"""Random inputs for base_range_with_step: [start, stop, step]: three integers; start and stop between -30 and 30; step between -6 and 6, never 0."""
import json

NAME = 'base_range_with_step'

EDGE_CASES = [
    [0, 10, 2],
    [10, 0, -3],
    [5, 5, 1],
    [0, 1, 6],
    [-30, 30, 6],
    [3, -3, 1],
    [30, -30, -6],
    [0, 7, 3],
]


def _draw(rng):
    start = rng.randint(-30, 30)
    stop = rng.randint(-30, 30) if rng.random() < 0.7 else start + rng.randint(-8, 8)
    stop = min(30, max(-30, stop))
    step = rng.choice([v for v in range(-6, 7) if v != 0])
    if rng.random() < 0.75 and (stop - start) * step < 0:
        step = -step
    return [start, stop, step]


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
