"""Random inputs for algorithm_scrabble_score: a word; 0 to 15 letters, either case."""
import json

NAME = 'algorithm_scrabble_score'

EDGE_CASES = [
    '',
    'a',
    'Q',
    'cabbage',
    'Quiz',
    'OXYPHENBUTAZONE',
    'zzz',
]


WORDS = ["hello", "Python", "jazz", "quiz", "Kayak", "street", "ox", "fjord", "rhythm", "zebra", "MAXIMUM"]


def _draw(rng):
    if rng.random() < 0.4:
        return rng.choice(WORDS)
    letters = "abcdefghijklmnopqrstuvwxyz"
    if rng.random() < 0.5:
        letters += letters.upper()
    return "".join(rng.choice(letters) for _ in range(rng.randint(0, 15)))


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
