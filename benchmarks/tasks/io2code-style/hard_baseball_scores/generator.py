"""Random inputs for hard_baseball_scores: list of score-keeper records: a number as a string such as "5" or "-2", or one of "+", "D" and "C"; 0 to 12 records; numbers between -30 and 30; "+" always comes after at least two kept scores, "D" and "C" after at least one."""
import json

NAME = 'hard_baseball_scores'

EDGE_CASES = [
    [],
    ['5'],
    ['5', 'C'],
    ['5', '2', 'C', 'D', '+'],
    ['5', '-2', '4', 'C', 'D', '9', '+', '+'],
    ['1', 'D', 'D', 'D'],
    ['-30', '30', '+'],
]


def _draw(rng):
    records, kept = [], 0
    for _ in range(rng.randint(0, 12)):
        choices = ["n", "n"] + ["D", "C"] * (kept >= 1) + ["+", "+"] * (kept >= 2)
        c = rng.choice(choices)
        if c == "n":
            records.append(str(rng.randint(-30, 30) if rng.random() < 0.3 else rng.randint(-9, 9)))
            kept += 1
        else:
            records.append(c)
            kept += -1 if c == "C" else 1
    return records


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
