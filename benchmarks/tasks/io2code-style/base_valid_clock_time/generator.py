"""Random inputs for base_valid_clock_time: a text; 0 to 8 characters: digits and colons."""
import json

NAME = 'base_valid_clock_time'

EDGE_CASES = [
    '',
    '00:00',
    '23:59',
    '24:00',
    '12:60',
    '1:30',
    '12:3',
    '12:30:',
    '::',
    '9999',
    '19:05',
]


def _draw(rng):
    r = rng.random()
    h, m = rng.randint(0, 29), rng.randint(0, 69)
    if r < 0.5:
        return f"{h:02d}:{m:02d}"
    if r < 0.7:
        return f"{h}:{m}"
    if r < 0.8:
        s = list(f"{h:02d}:{m:02d}")
        rng.shuffle(s)
        return "".join(s)
    return "".join(rng.choice("0123456789:") for _ in range(rng.randint(0, 8)))


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
