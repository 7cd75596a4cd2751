"""Random inputs for algorithm_sevens_not_fives: [a, b]: two integers; both between 0 and 300; when a is larger than b there is nothing between them."""
import json

NAME = 'algorithm_sevens_not_fives'

EDGE_CASES = [
    [0, 0],
    [0, 70],
    [35, 35],
    [7, 7],
    [300, 0],
    [0, 300],
    [100, 140],
    [1, 6],
]


def _draw(rng):
    a = rng.randint(0, 300)
    r = rng.random()
    if r < 0.6:
        b = min(300, a + rng.randint(0, 60))
    elif r < 0.8:
        b = rng.randint(0, 300)
    else:
        b = max(0, a - rng.randint(1, 20))
    return [a, b]


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
