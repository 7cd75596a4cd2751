"""Random inputs for hard_decode_ways: a string of digits; 0 to 20 characters, each 0-9."""
import json

NAME = 'hard_decode_ways'

EDGE_CASES = [
    '',
    '0',
    '1',
    '10',
    '12',
    '226',
    '06',
    '100',
    '11111111111111111111',
    '2611055971756562',
]


def _draw(rng):
    n = rng.randint(0, 20)
    r = rng.random()
    if r < 0.5:
        # Mostly 1s and 2s, so that many two-digit readings exist.
        return "".join(rng.choice("1122226") for _ in range(n))
    if r < 0.8:
        return "".join(rng.choice("0123456789") for _ in range(n))
    return "".join(rng.choice("12") + ("0" if rng.random() < 0.5 else "") for _ in range(n // 2))


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
