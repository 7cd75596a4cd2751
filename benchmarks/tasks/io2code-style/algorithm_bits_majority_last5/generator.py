"""Random inputs for algorithm_bits_majority_last5: a bit stream; 0 to 18 values, each 0 or 1."""
import json

NAME = 'algorithm_bits_majority_last5'

EDGE_CASES = [
    [],
    [1],
    [1, 1],
    [1, 1, 1],
    [1, 1, 1, 0, 0, 0, 0],
    [1, 0, 1, 0, 1, 0, 1, 0, 1],
    [0, 0, 1, 1, 1, 1, 1, 0, 0],
]


def _draw(rng):
    return _bits(rng, 0, 18)


def _bits(rng, min_len, max_len):
    """A list of bits whose density of ones varies from sparse to dense."""
    n = rng.randint(min_len, max_len)
    p = rng.choice([0.15, 0.5, 0.5, 0.85])
    return [1 if rng.random() < p else 0 for _ in range(n)]


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
