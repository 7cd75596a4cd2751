"""Random inputs for hard_postfix_codes: digits and operator codes above 9: 10 is +, 11 is -, 12 is *; a well-formed postfix expression of 1 to 13 tokens."""
import json

NAME = 'hard_postfix_codes'

EDGE_CASES = [
    [0],
    [8],
    [3, 4, 11],
    [4, 3, 11],
    [2, 3, 4, 12, 10],
    [9, 9, 12, 9, 12, 9, 12],
    [1, 2, 11, 3, 11, 4, 11],
]


def _postfix(rng, ops, operators):
    """A random well-formed postfix expression over digits with the given number of operators."""
    if ops == 0:
        return [rng.randint(0, 9)]
    left = rng.randint(0, ops - 1)
    return _postfix(rng, left, operators) + _postfix(rng, ops - 1 - left, operators) + [rng.choice(operators)]


def _draw(rng):
    return _postfix(rng, rng.randint(0, 6), [10, 11, 12])


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
