"""Random inputs for hard_logistic_population: [population, rate, capacity, years]: a starting population, a growth rate, the capacity of the habitat and a number of years; population an integer from 1 to 1000; rate from 0 to 1.5 with at most two decimals; capacity an integer from 1 to 1000; years an integer from 0 to 50."""
import json
import math

NAME = 'hard_logistic_population'

EDGE_CASES = [
    [10, 0.5, 100, 0],
    [10, 0.5, 100, 20],
    [100, 1, 100, 50],
    [1, 1.5, 1000, 50],
    [1000, 1.5, 1, 3],
    [500, 0, 200, 10],
    [300, 0.8, 200, 5],
]


def _draw(rng):
    capacity = rng.randint(50, 1000) if rng.random() < 0.7 else rng.randint(1, 1000)
    pop = rng.randint(1, max(1, capacity // 4)) if rng.random() < 0.6 else rng.randint(1, 1000)
    rate = _dec(rng, 0, 1.5, 2)
    years = rng.randint(0, 50) if rng.random() < 0.5 else rng.randint(0, 10)
    return [pop, rate, capacity, years]


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
