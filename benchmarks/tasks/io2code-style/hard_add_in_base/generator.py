"""Random inputs for hard_add_in_base: a list [base, a, b]: the base (2 to 10) and two digit lists of the same length, least significant digit first; each digit list has 1 to 8 digits, every digit below the base."""
import json

NAME = 'hard_add_in_base'

EDGE_CASES = [
    [2, [1], [1]],
    [10, [9, 9], [1, 0]],
    [3, [2, 2, 2], [2, 2, 2]],
    [7, [0], [0]],
    [5, [4, 3], [0, 1]],
    [10, [5, 5, 5, 5], [4, 4, 4, 4]],
    [9, [8, 8, 8, 8, 8, 8, 8, 8], [1, 0, 0, 0, 0, 0, 0, 0]],
]


def _draw(rng):
    base = rng.randint(2, 10)
    n = rng.randint(1, 8)
    hi = base - 1
    if rng.random() < 0.3:
        # Digits near the top, so that carries chain.
        return [base, [rng.randint(max(0, hi - 1), hi) for _ in range(n)], [rng.randint(0, hi) for _ in range(n)]]
    return [base, [rng.randint(0, hi) for _ in range(n)], [rng.randint(0, hi) for _ in range(n)]]


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
