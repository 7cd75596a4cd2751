"""Random inputs for hard_you_have_plural: [n, noun]: a count and a singular English noun; n from 0 to 1000; noun 1 to 12 lowercase letters."""
import json

NAME = 'hard_you_have_plural'

EDGE_CASES = [
    [0, 'apple'],
    [1, 'box'],
    [2, 'box'],
    [3, 'cherry'],
    [2, 'day'],
    [5, 'church'],
    [1000, 'bus'],
    [7, 'dish'],
    [2, 'y'],
    [1, 'cherry'],
]


NOUNS = ["apple", "box", "cherry", "day", "church", "bus", "dish", "cat", "toy", "key", "fox", "city", "baby",
         "glass", "brush", "watch", "pen", "tree", "boy", "lady", "book", "kiss", "monkey", "story", "hat"]


def _draw(rng):
    r = rng.random()
    if r < 0.2:
        n = 0
    elif r < 0.4:
        n = 1
    elif r < 0.8:
        n = rng.randint(2, 20)
    else:
        n = rng.randint(2, 1000)
    if rng.random() < 0.85:
        noun = rng.choice(NOUNS)
    else:
        noun = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 6)))
        noun += rng.choice(["", "y", "s", "sh", "ch", "x", "ay"])
    return [n, noun[:12]]


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
