"""Random inputs for algorithm_years_to_target: [amount, target, rate]: a starting amount, the amount wanted and a yearly interest rate in percent; amount from 1 to 1000, target from 1 to 100000, rate from 1 to 50, all integers."""
import json
import math

NAME = 'algorithm_years_to_target'

EDGE_CASES = [
    [100, 100, 5],
    [100, 150, 50],
    [1, 100000, 1],
    [1000, 1, 7],
    [100, 121, 10],
    [500, 1000, 7],
    [1, 2, 50],
    [100, 101, 1],
]


def _draw(rng):
    amount = _int_in(rng, 1, 1000)
    r = rng.random()
    if r < 0.5:
        target = min(100000, round(amount * rng.uniform(1, 12)))
    elif r < 0.6:
        target = rng.randint(1, amount)
    elif r < 0.8:
        target = rng.randint(1, 100000)
    else:
        target = _int_in(rng, 1, 100000)
    rate = rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 50]) if rng.random() < 0.6 else rng.randint(1, 50)
    return [amount, max(1, target), rate]


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
