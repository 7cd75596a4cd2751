"""Random inputs for algorithm_receipt_line: [item, quantity, price]: the name of an item, how many were bought and the price of one in cents; item 1 to 12 lowercase letters; quantity from 1 to 99; price from 0 to 9999."""
import json

NAME = 'algorithm_receipt_line'

EDGE_CASES = [
    ['a', 1, 0],
    ['pen', 2, 105],
    ['apple', 99, 9999],
    ['bread', 1, 250],
    ['egg', 12, 5],
    ['coffee', 3, 100],
    ['gum', 1, 7],
]


ITEMS = ["apple", "pen", "bread", "milk", "egg", "coffee", "tea", "banana", "notebook", "soap", "cheese",
         "rice", "juice", "stamp", "candle"]


def _draw(rng):
    item = rng.choice(ITEMS) if rng.random() < 0.85 else "".join(
        rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 12)))
    quantity = 1 if rng.random() < 0.3 else rng.choice([rng.randint(2, 12), rng.randint(1, 99)])
    r = rng.random()
    if r < 0.2:
        price = rng.randint(0, 99)
    elif r < 0.4:
        price = rng.randint(0, 99) * 100 + rng.choice([0, 50, 99])
    else:
        price = rng.randint(0, 9999)
    return [item, quantity, price]


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
