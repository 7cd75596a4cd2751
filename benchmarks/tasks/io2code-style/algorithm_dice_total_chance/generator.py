"""Random inputs for algorithm_dice_total_chance: [n, total]: a number of six-sided dice and a total; n from 1 to 4; total from 0 to 26."""
import json

NAME = 'algorithm_dice_total_chance'

EDGE_CASES = [
    [1, 0],
    [1, 1],
    [1, 6],
    [2, 7],
    [2, 12],
    [2, 13],
    [3, 10],
    [4, 4],
    [4, 24],
    [4, 14],
]


def _draw(rng):
    n = rng.randint(1, 4)
    if rng.random() < 0.75:
        total = rng.randint(n, 6 * n)
    else:
        total = rng.randint(0, 26)
    return [n, total]


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
