"""Random inputs for hard_bouncing_ball_distance: [height, ratio, bounces]: the height a ball is dropped from in metres, the fraction of its height it keeps at each bounce and the number of bounces; height from 0 to 100 with at most one decimal; ratio from 0 to 1 with at most two decimals; bounces an integer from 0 to 30."""
import json
import math

NAME = 'hard_bouncing_ball_distance'

EDGE_CASES = [
    [0, 0.5, 10],
    [10, 0.5, 0],
    [10, 0.5, 1],
    [10, 1, 30],
    [100, 0.75, 30],
    [1.5, 0, 5],
    [2, 0.9, 3],
]


def _draw(rng):
    height = _dec(rng, 0, 100, 1)
    ratio = rng.choice([0.25, 0.5, 0.6, 0.75, 0.8, 0.9]) if rng.random() < 0.4 else _dec(rng, 0, 1, 2)
    bounces = rng.randint(0, 30) if rng.random() < 0.5 else rng.randint(0, 6)
    return [height, ratio, bounces]


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
