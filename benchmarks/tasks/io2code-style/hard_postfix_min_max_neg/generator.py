"""Random inputs for hard_postfix_min_max_neg: list of tokens in postfix order: integers from -9 to 9 (as JSON numbers) and the words "max", "min" (two operands) and "neg" (one operand); a well-formed expression of 1 to 13 tokens."""
import json

NAME = 'hard_postfix_min_max_neg'

EDGE_CASES = [
    [4],
    [-9],
    [3, 'neg'],
    [3, 5, 'max'],
    [3, 5, 'min'],
    [1, 2, 'max', 3, 'neg', 'min'],
    [2, 'neg', 'neg', 7, -7, 'max', 'max'],
]


def _expr(rng, size):
    """A random well-formed expression with about size operators."""
    if size <= 0:
        return [rng.randint(-9, 9)]
    if rng.random() < 0.25:
        return _expr(rng, size - 1) + ["neg"]
    left = rng.randint(0, size - 1)
    return _expr(rng, left) + _expr(rng, size - 1 - left) + [rng.choice(["max", "min"])]


def _draw(rng):
    return _expr(rng, rng.randint(0, 6))  # at most 2 * 6 + 1 = 13 tokens


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
