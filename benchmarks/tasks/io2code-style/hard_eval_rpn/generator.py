"""Random inputs for hard_eval_rpn: expression in reverse Polish notation: list of tokens, digits "0".."9" and operators "+", "-", "*"; a well-formed expression of 1 to 13 tokens."""
import json

NAME = 'hard_eval_rpn'

EDGE_CASES = [
    ['0'],
    ['7'],
    ['3', '4', '+'],
    ['3', '4', '-'],
    ['9', '9', '*', '9', '*'],
    ['1', '2', '3', '*', '-'],
    ['5', '1', '2', '+', '4', '*', '+', '3', '-'],
]


def _draw(rng):
    return _postfix(rng, rng.randint(0, 6))


def _postfix(rng, ops):
    """A random well-formed postfix expression with the given number of operators."""
    if ops == 0:
        return [str(rng.randint(0, 9))]
    left = rng.randint(0, ops - 1)
    return _postfix(rng, left) + _postfix(rng, ops - 1 - left) + [rng.choice("+-*")]


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
