"""Random inputs for base_compound_balance: [balance, rate, years]: a starting balance, a yearly interest rate in percent and a number of years; balance from 0 to 1000 with at most two decimals; rate from 0 to 10 with at most one decimal; years an integer from 0 to 30."""
import json
import math

NAME = 'base_compound_balance'

EDGE_CASES = [
    [0, 5, 10],
    [100, 0, 30],
    [100, 10, 1],
    [1000, 10, 30],
    [250.5, 2.5, 4],
    [1, 1, 0],
    [99.99, 0.1, 12],
]


def _draw(rng):
    balance = _dec(rng, 0, 1000, 2)
    rate = _dec(rng, 0, 10, 1)
    years = rng.randint(0, 30) if rng.random() < 0.6 else rng.randint(0, 5)
    return [balance, rate, years]


def _dec(rng, lo, hi, places):
    """A number in [lo, hi] with at most the given decimals: sometimes whole, sometimes a bound."""
    r = rng.random()
    if r < 0.1:
        return rng.choice([lo, hi])
    if r < 0.3:
        return float(rng.randint(math.ceil(lo), math.floor(hi)))
    return round(rng.uniform(lo, hi), places)


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
