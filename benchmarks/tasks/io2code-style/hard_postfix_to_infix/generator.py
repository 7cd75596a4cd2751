"""Random inputs for hard_postfix_to_infix: a postfix expression as a list of one-character tokens: letters a-z and the operators + - * /; well-formed, 1 to 11 tokens."""
import json

NAME = 'hard_postfix_to_infix'

EDGE_CASES = [
    ['x'],
    ['a', 'b', '+'],
    ['a', 'b', 'c', '*', '+'],
    ['a', 'b', '+', 'c', '*'],
    ['p', 'q', '-', 'r', 's', '/', '*'],
    ['a', 'a', 'a', 'a', '-', '-', '-'],
]


def _expr(rng, ops, letters):
    if ops == 0:
        return [rng.choice(letters)]
    left = rng.randint(0, ops - 1)
    return _expr(rng, left, letters) + _expr(rng, ops - 1 - left, letters) + [rng.choice("+-*/")]


def _draw(rng):
    letters = rng.choice(["abcdefghijklmnopqrstuvwxyz", "xyz", "ab"])
    return _expr(rng, rng.randint(0, 5), letters)


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
