"""Random inputs for algorithm_base3_increment: a base-3 number as a list of digits 0, 1 and 2, least significant digit first; 1 to 10 digits."""
import json

NAME = 'algorithm_base3_increment'

EDGE_CASES = [
    [0],
    [2],
    [2, 2, 2],
    [1, 2],
    [2, 1],
    [0, 0, 0, 0],
    [2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
    [2, 0, 2],
]


def _draw(rng):
    n = rng.randint(1, 10)
    digits = [rng.randint(0, 2) for _ in range(n)]
    if rng.random() < 0.4:
        # A run of 2s at the low end, so that the carry travels.
        k = rng.randint(1, n)
        digits[:k] = [2] * k
    return digits


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
