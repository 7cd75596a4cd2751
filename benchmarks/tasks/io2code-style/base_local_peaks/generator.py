"""Random inputs for base_local_peaks: list of integers; 0 to 12 integers between -20 and 20."""
import json

NAME = 'base_local_peaks'

EDGE_CASES = [
    [],
    [1],
    [1, 2],
    [1, 3, 1],
    [1, 2, 3],
    [3, 3, 3],
    [0, 5, 0, 5, 0],
    [-1, 0, -1, 2, 2, 1],
]


def _draw(rng):
    if rng.random() < 0.4:
        xs, v = [], rng.randint(-20, 20)
        for _ in range(rng.randint(0, 12)):
            xs.append(v)
            v = min(20, max(-20, v + rng.randint(-4, 4)))
        return xs
    return _ints(rng, -20, 20, 0, 12)


def _ints(rng, lo, hi, min_len, max_len):
    """A list of integers whose shape (random, constant, few values, sorted) varies."""
    n = rng.randint(min_len, max_len)
    shape = rng.random()
    if shape < 0.55:
        return [rng.randint(lo, hi) for _ in range(n)]
    if shape < 0.65:
        return [rng.randint(lo, hi)] * n
    if shape < 0.8:
        pool = [rng.randint(lo, hi) for _ in range(3)]
        return [rng.choice(pool) for _ in range(n)]
    xs = sorted(rng.sample(range(lo, hi + 1), min(n, hi - lo + 1)))
    return xs[::-1] if shape >= 0.9 else xs


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
