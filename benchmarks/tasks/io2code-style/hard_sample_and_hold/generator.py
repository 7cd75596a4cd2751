"""Random inputs for hard_sample_and_hold: [values, triggers]: a list of integers and a list of 0/1 triggers of the same length; 0 to 12 positions; values between -9 and 9."""
import json

NAME = 'hard_sample_and_hold'

EDGE_CASES = [
    [[], []],
    [[5], [0]],
    [[5], [1]],
    [[1, 2, 3, 4], [1, 1, 1, 1]],
    [[1, 2, 3, 4], [0, 0, 0, 0]],
    [[7, -3, 4, 8, -9], [0, 1, 0, 0, 1]],
    [[-9, 9, -9, 9], [1, 0, 1, 0]],
]


def _draw(rng):
    n = rng.randint(0, 12)
    values = [rng.randint(-9, 9) for _ in range(n)]
    p = rng.choice([0.2, 0.4, 0.7])
    return [values, [1 if rng.random() < p else 0 for _ in range(n)]]


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
