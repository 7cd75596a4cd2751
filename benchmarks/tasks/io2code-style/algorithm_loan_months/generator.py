"""Random inputs for algorithm_loan_months: [loan, rate, payment]: a loan in euros, a monthly interest rate in percent and a monthly payment in euros; loan an integer from 0 to 5000; rate from 0 to 5 with at most one decimal; payment an integer from 1 to 1000."""
import json
import math

NAME = 'algorithm_loan_months'

EDGE_CASES = [
    [0, 1, 1],
    [1000, 0, 100],
    [1000, 0, 1000],
    [1000, 1, 10],
    [5000, 5, 251],
    [100, 1, 50],
    [5000, 0.1, 6],
    [999, 2.5, 1000],
]


def _draw(rng):
    loan = rng.choice([rng.randint(0, 5000), rng.randint(1, 50) * 100])
    rate = rng.choice([0, 0.5, 1, 1.5, 2]) if rng.random() < 0.5 else _dec(rng, 0, 5, 1)
    interest = loan * rate / 100
    r = rng.random()
    if r < 0.2:
        payment = max(1, min(1000, int(interest) + rng.randint(-2, 3)))
    elif r < 0.7:
        payment = max(1, min(1000, round(loan / rng.randint(1, 60) + interest)))
    else:
        payment = rng.randint(1, 1000)
    return [loan, rate, payment]


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
