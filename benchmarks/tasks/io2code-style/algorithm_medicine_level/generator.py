"""Random inputs for algorithm_medicine_level: [dose, keep, every, hours]: a dose in mg, the percentage of the medicine the body keeps each hour, the hours between doses and the number of hours; dose from 1 to 500; keep from 0 to 100; every from 1 to 24; hours from 0 to 72; all integers."""
import json

NAME = 'algorithm_medicine_level'

EDGE_CASES = [
    [100, 50, 1, 0],
    [100, 50, 1, 1],
    [100, 100, 24, 72],
    [500, 0, 1, 10],
    [200, 80, 6, 24],
    [1, 99, 5, 72],
    [250, 90, 8, 25],
]


def _draw(rng):
    dose = rng.choice([50, 100, 200, 250, 500]) if rng.random() < 0.5 else rng.randint(1, 500)
    keep = rng.randint(50, 95) if rng.random() < 0.6 else rng.randint(0, 100)
    every = rng.choice([4, 6, 8, 12, 24]) if rng.random() < 0.6 else rng.randint(1, 24)
    hours = rng.randint(0, 72) if rng.random() < 0.6 else rng.randint(0, 12)
    return [dose, keep, every, hours]


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
