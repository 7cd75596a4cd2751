"""Random inputs for base_floats_half_plus_one: list of floats; 0 to 10 numbers, each between -100 and 100, with at most two decimals."""
import json

NAME = 'base_floats_half_plus_one'

EDGE_CASES = [
    [],
    [0.0],
    [-2.5],
    [1.25, 1.25, 1.25],
    [100.0, -100.0],
    [0.1, 0.2, 0.3],
]


def _draw(rng):
    return _floats(rng, -100, 100, 0, 10)


def _floats(rng, lo, hi, min_len, max_len):
    """A list of floats with two decimals, sometimes whole or zero, sometimes sorted."""
    n = rng.randint(min_len, max_len)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.1:
            out.append(0.0)
        elif r < 0.25:
            out.append(float(rng.randint(int(lo), int(hi))))
        else:
            out.append(round(rng.uniform(lo, hi), 2))
    if rng.random() < 0.2:
        out.sort(reverse=rng.random() < 0.5)
    return out


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
