"""Random inputs for hard_exam_summary: list of exam scores; 1 to 12 integers between 0 and 100."""
import json

NAME = 'hard_exam_summary'

EDGE_CASES = [
    [0],
    [100],
    [50],
    [49, 50],
    [0, 100],
    [55, 60, 65, 70],
    [12, 34, 56, 78, 90],
    [33, 33, 34],
]


def _draw(rng):
    if rng.random() < 0.6:
        n = rng.randint(1, 12)
        centre = rng.randint(30, 85)
        return [min(100, max(0, round(rng.gauss(centre, 15)))) for _ in range(n)]
    xs = _ints(rng, 0, 100, 1, 12)
    return xs or [rng.randint(0, 100)]


def _ints(rng, lo, hi, min_len, max_len):
    """A list of integers whose shape (random, constant, few values, sorted) varies."""
    n = rng.randint(min_len, max_len)
    shape = rng.random()
    if shape < 0.55:
        return [rng.randint(lo, hi) for _ in range(n)]
    if shape < 0.65:
        return [rng.randint(lo, hi)] * n
    if shape < 0.8:
        pool = [rng.randint(lo, hi) for _ in range(3)]
        return [rng.choice(pool) for _ in range(n)]
    xs = sorted(rng.sample(range(lo, hi + 1), min(n, hi - lo + 1)))
    return xs[::-1] if shape >= 0.9 else xs


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
