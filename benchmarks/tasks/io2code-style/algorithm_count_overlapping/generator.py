"""Random inputs for algorithm_count_overlapping: [s, pattern]: two strings of lowercase letters; s 0 to 24 letters and pattern 1 to 4 letters, both from a-c."""
import json

NAME = 'algorithm_count_overlapping'

EDGE_CASES = [
    ['', 'a'],
    ['aaaa', 'aa'],
    ['abababa', 'aba'],
    ['abc', 'abca'],
    ['cccc', 'c'],
    ['abcabc', 'ca'],
]


def _draw(rng):
    letters = rng.choice(["ab", "abc", "a"]) if rng.random() < 0.8 else "abc"
    n = rng.randint(0, 24)
    if rng.random() < 0.4:
        unit = "".join(rng.choice(letters) for _ in range(rng.randint(1, 3)))
        s = (unit * 24)[:n]
    else:
        s = "".join(rng.choice(letters) for _ in range(n))
    pattern = "".join(rng.choice(letters) for _ in range(rng.randint(1, 4)))
    return [s, pattern]


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
