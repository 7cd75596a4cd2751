"""Random inputs for hard_bmi_report: [weight, height]: a weight in kilograms and a height in centimetres; weight from 30 to 200 and height from 100 to 220, both integers."""
import json

NAME = 'hard_bmi_report'

EDGE_CASES = [
    [30, 220],
    [200, 100],
    [70, 175],
    [57, 175],
    [100, 200],
    [90, 190],
    [120, 120],
]


def _draw(rng):
    if rng.random() < 0.75:
        height = rng.randint(150, 200)
        weight = round(rng.uniform(16, 35) * (height / 100) ** 2)
        return [min(200, max(30, weight)), height]
    return [rng.randint(30, 200), rng.randint(100, 220)]


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
