"""Random inputs for hard_subtract_decimal_digits: two numbers as lists of decimal digits, most significant digit first, the first at least as large as the second; 1 to 8 digits each, no leading zeros except in the number 0 itself."""
import json

NAME = 'hard_subtract_decimal_digits'

EDGE_CASES = [
    [[0], [0]],
    [[5], [3]],
    [[1, 0, 0, 0], [1]],
    [[1, 2, 3], [1, 2, 3]],
    [[9, 0, 0, 1], [9, 9, 9]],
    [[2, 0], [1, 9]],
    [[9, 9, 9, 9, 9, 9, 9, 9], [1]],
]


def _digits(n):
    return [int(c) for c in str(n)]


def _draw(rng):
    top = 10 ** rng.randint(1, 8) - 1
    a = rng.randint(0, top)
    r = rng.random()
    if r < 0.3:
        b = a - rng.randint(0, min(a, 20))
    elif r < 0.45:
        b = a
    else:
        b = rng.randint(0, a)
    return [_digits(a), _digits(b)]


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
