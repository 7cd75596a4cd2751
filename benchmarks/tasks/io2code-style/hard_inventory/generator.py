"""Random inputs for hard_inventory: operations: list of ["add" or "remove", item, quantity]; 0 to 12 operations; items apple, pear, fig or kiwi; quantities between 1 and 9."""
import json

NAME = 'hard_inventory'

EDGE_CASES = [
    [],
    [['remove', 'fig', 3]],
    [['add', 'apple', 9]],
    [['add', 'pear', 2], ['remove', 'pear', 2]],
    [['add', 'kiwi', 3], ['remove', 'kiwi', 9], ['add', 'kiwi', 1]],
    [['add', 'fig', 1], ['add', 'apple', 2], ['add', 'fig', 4]],
]


def _draw(rng):
    items = rng.sample(["apple", "pear", "fig", "kiwi"], rng.randint(1, 4))
    return [[rng.choice(["add", "add", "remove"]), rng.choice(items), rng.randint(1, 9)] for _ in range(rng.randint(0, 12))]


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
