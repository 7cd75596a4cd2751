"""Random inputs for hard_toggle_mask_on_zero: list of integers; 0 to 14 integers, each between 0 and 9."""
import json

NAME = 'hard_toggle_mask_on_zero'

EDGE_CASES = [
    [],
    [5],
    [0],
    [0, 5],
    [5, 0, 5, 0, 5],
    [0, 0, 7],
    [1, 2, 0, 3, 4, 0, 5, 6],
    [9, 9, 9],
]


def _draw(rng):
    p = rng.choice([0.1, 0.25, 0.4])
    return [0 if rng.random() < p else rng.randint(1, 9) for _ in range(rng.randint(0, 14))]


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
