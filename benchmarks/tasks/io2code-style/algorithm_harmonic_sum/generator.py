"""Random inputs for algorithm_harmonic_sum: integer n; one integer between 0 and 1000."""
import json
import math

NAME = 'algorithm_harmonic_sum'

EDGE_CASES = [
    0,
    1,
    2,
    3,
    10,
    1000,
    999,
]


def _draw(rng):
    return _int_in(rng, 0, 1000)


def _int_in(rng, lo, hi):
    """An integer in [lo, hi]: often small, sometimes at the bounds, often log-uniform in size."""
    r = rng.random()
    small_lo, small_hi = max(lo, -12), min(hi, 12)
    if r < 0.3 and small_lo <= small_hi:
        return rng.randint(small_lo, small_hi)
    if r < 0.4:
        return rng.choice([lo, hi, min(hi, lo + 1), max(lo, hi - 1)])
    if r < 0.75:
        top = max(abs(lo), abs(hi))
        m = int(10 ** rng.uniform(0, math.log10(top + 1)))
        v = m if rng.random() < 0.5 else -m
        return min(hi, max(lo, v))
    return rng.randint(lo, hi)


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
