"""Random inputs for algorithm_map_characters: [text, source, target]: a text and two strings of the same length; text 0 to 30 characters of lowercase letters and spaces; source and target 0 to 8 lowercase letters each, of equal length, with no letter twice in source."""
import json

NAME = 'algorithm_map_characters'

EDGE_CASES = [
    ['', '', ''],
    ['hello', '', ''],
    ['hello', 'l', 'r'],
    ['abc', 'abc', 'bca'],
    ['banana split', 'an', 'na'],
    ['zzz', 'z', 'a'],
    ['swap', 'ab', 'ba'],
]


LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _draw(rng):
    text = _words(rng, 30, VOCAB, 5) if rng.random() < 0.7 else _text(rng, 30, "abcde ")
    present = sorted(set(text.replace(" ", "")))
    n = rng.randint(0, 8)
    pool = present if present and rng.random() < 0.7 else list(LETTERS)
    source = rng.sample(pool, min(n, len(pool)))
    if rng.random() < 0.3:
        target = list(source)
        rng.shuffle(target)
    else:
        target = [rng.choice(LETTERS) for _ in source]
    return [text, "".join(source), "".join(target)]


VOCAB = ["a", "an", "the", "of", "and", "to", "in", "on", "or", "cat", "sky", "apple", "string", "rhythm",
         "orange", "yellow", "quiet", "under", "brown", "jumps", "over", "lazy", "dog", "eagle", "island",
         "school", "three", "queen", "banana", "strength", "it", "is", "spring", "tree", "idea", "umbrella",
         "level", "noon", "window", "river", "music", "go", "we", "book", "little", "garden", "stop"]


def _words(rng, max_len, vocab, max_words=9):
    """Words from vocab (sometimes random letters) joined by single spaces, at most max_len characters."""
    words = []
    for _ in range(rng.randint(0, max_words)):
        if rng.random() < 0.8:
            w = rng.choice(vocab)
        else:
            w = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 9)))
        if len(" ".join(words + [w])) > max_len:
            break
        words.append(w)
    return " ".join(words)


def _text(rng, max_len, alphabet):
    """A string: random characters, a palindrome, one repeated character, or words."""
    n = rng.randint(0, max_len)
    shape = rng.random()
    if shape < 0.45:
        return "".join(rng.choice(alphabet) for _ in range(n))
    if shape < 0.6:
        half = "".join(rng.choice(alphabet) for _ in range(n // 2))
        return half + (rng.choice(alphabet) if n % 2 else "") + half[::-1]
    if shape < 0.7:
        return rng.choice(alphabet) * n
    letters = alphabet.replace(" ", "") or alphabet
    words = []
    while sum(len(w) + 1 for w in words) < n:
        words.append("".join(rng.choice(letters) for _ in range(rng.randint(1, 6))))
    return " ".join(words)[:max_len]


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
