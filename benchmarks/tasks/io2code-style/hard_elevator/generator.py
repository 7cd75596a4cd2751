"""Random inputs for hard_elevator: object {"start": floor, "requests": [floor, ...]}; floors between 0 and 20; 0 to 8 requests."""
import json

NAME = 'hard_elevator'

EDGE_CASES = [
    {'start': 0, 'requests': []},
    {'start': 5, 'requests': [5]},
    {'start': 5, 'requests': [9, 2, 7]},
    {'start': 5, 'requests': [2, 9, 7, 5]},
    {'start': 20, 'requests': [0, 20, 10, 10]},
    {'start': 0, 'requests': [3, 1, 2]},
]


def _draw(rng):
    return {"start": rng.randint(0, 20), "requests": [rng.randint(0, 20) for _ in range(rng.randint(0, 8))]}


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
