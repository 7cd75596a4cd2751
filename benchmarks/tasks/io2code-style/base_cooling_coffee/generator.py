"""Random inputs for base_cooling_coffee: [temp, room, k, minutes]: the starting temperature of a drink, the room temperature, a cooling factor and a number of minutes; temp and room whole degrees from -20 to 100; k from 0 to 1 with at most two decimals; minutes an integer from 0 to 60."""
import json
import math

NAME = 'base_cooling_coffee'

EDGE_CASES = [
    [90, 20, 0.1, 10],
    [90, 20, 0, 60],
    [90, 20, 1, 1],
    [20, 20, 0.5, 5],
    [-20, 100, 0.25, 60],
    [100, -20, 0.01, 3],
    [60, 21, 0.05, 0],
]


def _draw(rng):
    temp = rng.randint(50, 100) if rng.random() < 0.6 else rng.randint(-20, 100)
    room = rng.randint(15, 25) if rng.random() < 0.6 else rng.randint(-20, 100)
    k = rng.choice([0.05, 0.1, 0.2, 0.5]) if rng.random() < 0.4 else _dec(rng, 0, 1, 2)
    minutes = rng.randint(0, 60) if rng.random() < 0.5 else rng.randint(0, 10)
    return [temp, room, k, minutes]


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
