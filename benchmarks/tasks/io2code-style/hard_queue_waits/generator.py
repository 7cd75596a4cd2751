"""Random inputs for hard_queue_waits: customers: list of [arrival time, service duration], arrivals in non-decreasing order; 0 to 10 customers; arrival times between 0 and 50, durations between 1 and 10."""
import json

NAME = 'hard_queue_waits'

EDGE_CASES = [
    [],
    [[0, 1]],
    [[50, 10]],
    [[0, 5], [0, 5], [0, 5]],
    [[0, 3], [3, 3], [6, 3]],
    [[1, 10], [2, 1], [30, 2], [30, 2]],
]


def _draw(rng):
    n = rng.randint(0, 10)
    spread = rng.choice([5, 20, 50])
    arrivals = sorted(rng.randint(0, spread) for _ in range(n))
    return [[a, rng.randint(1, 10)] for a in arrivals]


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
