"""Random inputs for algorithm_weighted_char_checksum: a string of letters and digits; 0 to 20 characters."""
import json

NAME = 'algorithm_weighted_char_checksum'

EDGE_CASES = [
    '',
    'a',
    'A',
    'ab',
    'ba',
    'ABC123',
    'zzzzzzzzzzzzzzzzzzzz',
]


ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _draw(rng):
    n = rng.randint(0, 20)
    r = rng.random()
    if r < 0.6:
        return "".join(rng.choice(ALNUM) for _ in range(n))
    if r < 0.75:
        return rng.choice(ALNUM) * n
    # The same characters in another order, so that the weights matter.
    s = list(rng.choice(["abc", "Ab1", "xyz9", "hello", "ID42"]))
    rng.shuffle(s)
    return "".join(s)


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
