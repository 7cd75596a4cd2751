"""Random inputs for hard_binary_greater_lsb_first: two binary numbers [a, b] as bit lists of equal length, least significant bit first; 1 to 12 bits each."""
import json

NAME = 'hard_binary_greater_lsb_first'

EDGE_CASES = [
    [[0], [0]],
    [[1], [0]],
    [[0], [1]],
    [[1, 0], [0, 1]],
    [[0, 1], [1, 0]],
    [[1, 1, 1, 0], [0, 0, 0, 1]],
    [[1, 0, 1], [1, 0, 1]],
]


def _draw(rng):
    n = rng.randint(1, 12)
    a = [rng.randint(0, 1) for _ in range(n)]
    b = [rng.randint(0, 1) for _ in range(n)]
    if rng.random() < 0.5:
        # Equal high bits, so that a low bit decides (or none does).
        k = rng.randint(0, n)
        b = b[:k] + a[k:]
    return [a, b]


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
