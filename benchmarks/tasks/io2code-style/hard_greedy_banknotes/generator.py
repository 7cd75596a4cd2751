"""Random inputs for hard_greedy_banknotes: [amount, notes]: an amount and the values of the notes available, largest first; amount from 0 to 5000; 1 to 6 note values between 1 and 500, strictly decreasing."""
import json
import math

NAME = 'hard_greedy_banknotes'

EDGE_CASES = [
    [0, [1]],
    [5000, [500, 200, 100, 50, 20, 10]],
    [380, [200, 100, 50]],
    [7, [5, 2]],
    [6, [4, 3]],
    [1, [2]],
    [499, [500]],
    [99, [50, 20, 10, 5, 2, 1]],
]


STANDARD = [500, 200, 100, 50, 20, 10, 5, 2, 1]


def _draw(rng):
    amount = _int_in(rng, 0, 5000)
    if rng.random() < 0.6:
        size = rng.randint(1, 6)
        start = rng.randint(0, len(STANDARD) - size)
        notes = STANDARD[start:start + size] if rng.random() < 0.5 else sorted(
            rng.sample(STANDARD, size), reverse=True)
    else:
        notes = sorted(rng.sample(range(1, 501) if rng.random() < 0.5 else range(1, 13), rng.randint(1, 6)),
                       reverse=True)
    return [amount, notes]


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
