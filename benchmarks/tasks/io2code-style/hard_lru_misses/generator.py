"""Random inputs for hard_lru_misses: object {"capacity": c, "requests": [key, ...]}; capacity between 1 and 4; 0 to 15 requests, keys between 0 and 6."""
import json

NAME = 'hard_lru_misses'

EDGE_CASES = [
    {'capacity': 1, 'requests': []},
    {'capacity': 1, 'requests': [0, 0, 0]},
    {'capacity': 2, 'requests': [0, 1, 0, 2, 1]},
    {'capacity': 3, 'requests': [0, 1, 2, 3, 0, 1, 2, 3]},
    {'capacity': 4, 'requests': [6, 5, 4, 3, 2, 1, 0]},
]


def _draw(rng):
    keys = rng.randint(1, 7)
    return {"capacity": rng.randint(1, 4), "requests": [rng.randrange(keys) for _ in range(rng.randint(0, 15))]}


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
