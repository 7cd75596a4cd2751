"""Random inputs for algorithm_luhn_check: a card number; 1 to 16 digits."""
import json

NAME = 'algorithm_luhn_check'

EDGE_CASES = [
    '0',
    '1',
    '18',
    '79927398713',
    '79927398710',
    '4539578763621486',
    '00',
    '59',
]


def _checked(body):
    """body followed by the digit that makes it pass the Luhn check."""
    total = 0
    for i, c in enumerate(reversed(body)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return body + str((10 - total % 10) % 10)


def _draw(rng):
    n = rng.randint(1, 16) if rng.random() < 0.5 else 16
    body = "".join(rng.choice("0123456789") for _ in range(n - 1))
    r = rng.random()
    if r < 0.45:
        return _checked(body)
    if r < 0.7:
        s = list(_checked(body))
        i = rng.randrange(len(s))
        s[i] = str((int(s[i]) + rng.randint(1, 9)) % 10)
        return "".join(s)
    return body + rng.choice("0123456789")


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
