"""Random inputs for algorithm_postfix_add_only: a postfix expression coded as integers: 0-9 are operands and 10 means addition; a well-formed expression of 1 to 15 tokens."""
import json

NAME = 'algorithm_postfix_add_only'

EDGE_CASES = [
    [0],
    [9],
    [3, 4, 10],
    [1, 2, 3, 10, 10],
    [1, 2, 10, 3, 10],
    [9, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10],
]


def _postfix(rng, ops, operators):
    """A random well-formed postfix expression over digits with the given number of operators."""
    if ops == 0:
        return [rng.randint(0, 9)]
    left = rng.randint(0, ops - 1)
    return _postfix(rng, left, operators) + _postfix(rng, ops - 1 - left, operators) + [rng.choice(operators)]


def _draw(rng):
    return _postfix(rng, rng.randint(0, 7), [10])


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
