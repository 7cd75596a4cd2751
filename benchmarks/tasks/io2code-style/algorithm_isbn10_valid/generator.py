"""Random inputs for algorithm_isbn10_valid: an ISBN-10 code; exactly 10 characters: nine digits, then a digit or X."""
import json

NAME = 'algorithm_isbn10_valid'

EDGE_CASES = [
    '0000000000',
    '0306406152',
    '0306406153',
    '123456789X',
    '1234567890',
    '999999999X',
    '000000001X',
]


def _check(body):
    total = sum((10 - i) * int(c) for i, c in enumerate(body))
    d = (11 - total % 11) % 11
    return "X" if d == 10 else str(d)


def _draw(rng):
    body = "".join(rng.choice("0123456789") for _ in range(9))
    r = rng.random()
    if r < 0.45:
        return body + _check(body)
    if r < 0.65:
        s = list(body + _check(body))
        i, j = sorted(rng.sample(range(9), 2))
        s[i], s[j] = s[j], s[i]
        return "".join(s)
    return body + rng.choice("0123456789X")


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
