"""Random inputs for algorithm_heads_at_least: [n, k]: a number of coin tosses and a number of heads; n from 0 to 12; k from 0 to 12."""
import json

NAME = 'algorithm_heads_at_least'

EDGE_CASES = [
    [0, 0],
    [0, 1],
    [1, 1],
    [2, 1],
    [12, 6],
    [12, 12],
    [5, 6],
    [10, 0],
    [3, 2],
]


def _draw(rng):
    n = rng.randint(0, 12)
    k = rng.randint(0, n + 1) if rng.random() < 0.85 else rng.randint(0, 12)
    return [n, min(12, k)]


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
