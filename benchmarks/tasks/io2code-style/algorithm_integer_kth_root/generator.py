"""Random inputs for algorithm_integer_kth_root: pair [n, k]; n between 0 and 1000000, k between 1 and 6."""
import json

NAME = 'algorithm_integer_kth_root'

EDGE_CASES = [
    [0, 1],
    [1, 6],
    [1000000, 2],
    [1000000, 3],
    [999999, 3],
    [64, 6],
    [63, 6],
    [17, 1],
    [80, 4],
    [81, 4],
]


def _draw(rng):
    k = rng.randint(1, 6)
    r = rng.random()
    if r < 0.4:
        # A perfect power, or one less than it.
        top = int(round(1000000 ** (1 / k)))
        n = rng.randint(0, top) ** k - rng.randint(0, 1)
        return [min(1000000, max(0, n)), k]
    if r < 0.7:
        return [rng.randint(0, 1000), k]
    return [rng.randint(0, 1000000), k]


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
