"""Random inputs for base_multiples_up_to: [k, n]: a step and a limit; k from 1 to 12; n from 0 to 100."""
import json

NAME = 'base_multiples_up_to'

EDGE_CASES = [
    [1, 0],
    [1, 5],
    [12, 100],
    [7, 7],
    [5, 4],
    [3, 30],
    [12, 12],
]


def _draw(rng):
    k = rng.randint(1, 12)
    n = rng.randint(0, 100) if rng.random() < 0.6 else min(100, k * rng.randint(0, 8) + rng.choice([0, 0, -1, 1]))
    return [k, max(0, n)]


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
