"""Random inputs for algorithm_add_decimal_digits: two numbers written as lists of decimal digits, most significant digit first; 1 to 8 digits each (the lengths may differ); leading zeros allowed."""
import json

NAME = 'algorithm_add_decimal_digits'

EDGE_CASES = [
    [[0], [0]],
    [[9], [1]],
    [[9, 9, 9], [1]],
    [[1, 2, 3], [4, 5, 6]],
    [[0, 0, 7], [0, 3]],
    [[5, 0, 0], [5, 0, 0]],
    [[9, 9, 9, 9, 9, 9, 9, 9], [9, 9, 9, 9, 9, 9, 9, 9]],
]


def _number(rng, n):
    digits = [rng.randint(0, 9) for _ in range(n)]
    if rng.random() < 0.7 and n > 1:
        digits[0] = rng.randint(1, 9)
    if rng.random() < 0.2:
        digits = [9] * n
    return digits


def _draw(rng):
    n = rng.randint(1, 8)
    m = n if rng.random() < 0.4 else rng.randint(1, 8)
    return [_number(rng, n), _number(rng, m)]


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
