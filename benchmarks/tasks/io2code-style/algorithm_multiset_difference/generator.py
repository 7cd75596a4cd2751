"""Random inputs for algorithm_multiset_difference: two lists of integers; each list 0 to 10 integers between -9 and 9."""
import json

NAME = 'algorithm_multiset_difference'

EDGE_CASES = [
    [[], []],
    [[1, 2, 1], [1]],
    [[1, 2, 3], []],
    [[], [1]],
    [[5, 5, 5], [5, 5]],
    [[1, 2], [3, 4]],
    [[-1, 2, -1, 3], [-1, 3, 3]],
]


def _draw(rng):
    a = _ints(rng, -9, 9, 0, 10)
    r = rng.random()
    if r < 0.6 and a:
        b = rng.sample(a, rng.randint(0, len(a)))
        if rng.random() < 0.4 and len(b) < 10:
            b.append(rng.randint(-9, 9))
        rng.shuffle(b)
    else:
        b = _ints(rng, -9, 9, 0, 10)
    return [a, b]


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
