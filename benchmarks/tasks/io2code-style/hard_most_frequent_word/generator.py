"""Random inputs for hard_most_frequent_word: a text; 0 to 60 characters: letters, spaces and the punctuation . , ! ?."""
import json

NAME = 'hard_most_frequent_word'

EDGE_CASES = [
    '',
    '!!',
    'a',
    'the cat and the hat',
    'B b a A',
    'One, two. Two? one!',
    'x y z',
    'Go go GO, stop.',
]


def _draw(rng):
    pool = rng.sample(VOCAB, rng.randint(2, 6))
    out = ""
    for _ in range(rng.randint(0, 12)):
        w = rng.choice(pool)
        r = rng.random()
        if r < 0.2:
            w = w.capitalize()
        elif r < 0.25:
            w = w.upper()
        out += w + rng.choice([" ", " ", " ", ", ", ". ", "! ", "?"])
    return out[:60].rstrip(" ")


VOCAB = ["a", "an", "the", "of", "and", "to", "in", "on", "or", "cat", "sky", "apple", "string", "rhythm",
         "orange", "yellow", "quiet", "under", "brown", "jumps", "over", "lazy", "dog", "eagle", "island",
         "school", "three", "queen", "banana", "strength", "it", "is", "spring", "tree", "idea", "umbrella",
         "level", "noon", "window", "river", "music", "go", "we", "book", "little", "garden", "stop"]


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
