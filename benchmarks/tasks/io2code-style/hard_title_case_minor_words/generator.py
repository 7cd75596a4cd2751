"""Random inputs for hard_title_case_minor_words: a title: words of letters separated by single spaces; 0 to 50 characters, in any case."""
import json

NAME = 'hard_title_case_minor_words'

EDGE_CASES = [
    '',
    'the',
    'of mice and men',
    'a tale of two cities',
    'THE LORD OF THE RINGS',
    'war and peace',
    'gone with the wind',
    'what to look at',
]


def _draw(rng):
    s = _sentence(rng, 50)
    r = rng.random()
    if r < 0.2:
        return s.upper()
    if r < 0.5:
        return "".join(c.upper() if rng.random() < 0.3 else c for c in s)
    return s


VOCAB = ["a", "an", "the", "of", "and", "to", "in", "on", "or", "cat", "sky", "apple", "string", "rhythm",
         "orange", "yellow", "quiet", "under", "brown", "jumps", "over", "lazy", "dog", "eagle", "island",
         "school", "three", "queen", "banana", "strength", "it", "is", "spring", "tree", "idea", "umbrella"]


def _sentence(rng, max_len):
    """Words from VOCAB (sometimes random letters) separated by single spaces, at most max_len characters."""
    words = []
    for _ in range(rng.randint(0, 8)):
        if rng.random() < 0.75:
            w = rng.choice(VOCAB)
        else:
            w = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 9)))
        if len(" ".join(words + [w])) > max_len:
            break
        words.append(w)
    return " ".join(words)


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
