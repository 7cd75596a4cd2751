"""Random inputs for algorithm_find_substring: a pair [text, pattern] of strings; text has 0 to 30 characters and pattern 0 to 5, all from a-d."""
import json

NAME = 'algorithm_find_substring'

EDGE_CASES = [
    ['', ''],
    ['', 'a'],
    ['abc', ''],
    ['abcabc', 'cab'],
    ['aaaa', 'aa'],
    ['abc', 'abcd'],
    ['dcba', 'a'],
]


def _draw(rng):
    letters = rng.choice(["ab", "abc", "abcd"])
    text = "".join(rng.choice(letters) for _ in range(rng.randint(0, 30)))
    if text and rng.random() < 0.5:
        i = rng.randrange(len(text))
        pattern = text[i:i + rng.randint(1, 5)]
    else:
        pattern = "".join(rng.choice(letters) for _ in range(rng.randint(0, 5)))
    return [text, pattern]


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
