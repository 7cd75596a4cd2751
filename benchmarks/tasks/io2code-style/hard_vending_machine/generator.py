"""Random inputs for hard_vending_machine: events: list of ["coin", value], ["select", "A"|"B"|"C"] or ["refund"]; 0 to 12 events; coin values between 1 and 25."""
import json

NAME = 'hard_vending_machine'

EDGE_CASES = [
    [],
    [['refund']],
    [['coin', 25], ['coin', 10], ['select', 'A']],
    [['coin', 3], ['coin', 25], ['select', 'B'], ['refund']],
    [['coin', 25], ['coin', 25], ['coin', 25], ['select', 'C'], ['select', 'C']],
    [['select', 'A'], ['coin', 5], ['refund'], ['refund']],
]


def _draw(rng):
    out = []
    for _ in range(rng.randint(0, 12)):
        r = rng.random()
        if r < 0.55:
            coin = rng.choice([5, 10, 25, 25]) if rng.random() < 0.85 else rng.randint(1, 25)
            out.append(["coin", coin])
        elif r < 0.9:
            out.append(["select", rng.choice("ABC")])
        else:
            out.append(["refund"])
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
