"""Random inputs for base_median_of_three: three integers [a, b, c]; between -100 and 100."""
import json

NAME = 'base_median_of_three'

EDGE_CASES = [
    [1, 2, 3],
    [3, 2, 1],
    [2, 3, 1],
    [5, 5, 1],
    [5, 1, 1],
    [0, 0, 0],
    [-100, 100, 0],
]


def _draw(rng):
    if rng.random() < 0.25:
        v = rng.randint(-100, 100)
        xs = [v, v, rng.randint(-100, 100)]
        rng.shuffle(xs)
        return xs
    return [rng.randint(-100, 100) for _ in range(3)]


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
