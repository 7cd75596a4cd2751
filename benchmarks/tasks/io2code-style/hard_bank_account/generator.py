"""Random inputs for hard_bank_account: transactions: list of ["deposit", amount] or ["withdraw", amount]; 0 to 12 transactions; amounts between 1 and 100."""
import json

NAME = 'hard_bank_account'

EDGE_CASES = [
    [],
    [['withdraw', 1]],
    [['deposit', 100]],
    [['deposit', 5], ['withdraw', 5]],
    [['deposit', 5], ['withdraw', 6], ['withdraw', 3]],
    [['deposit', 1], ['withdraw', 50], ['withdraw', 50]],
]


def _draw(rng):
    out = []
    for _ in range(rng.randint(0, 12)):
        kind = rng.choice(["deposit", "withdraw", "withdraw"])
        out.append([kind, rng.randint(1, 100) if rng.random() < 0.5 else rng.randint(1, 20)])
    return out


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
