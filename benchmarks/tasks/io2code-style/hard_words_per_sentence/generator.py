"""Random inputs for hard_words_per_sentence: a short text; 0 to 60 characters: letters, spaces and the punctuation . , ! ?."""
import json

NAME = 'hard_words_per_sentence'

EDGE_CASES = [
    '',
    '...',
    'Hi there. Bye!',
    'one,two,three',
    'Wait... what?!',
    'no end here',
    'A. B c. D e f?',
    '  ,  ',
]


def _draw(rng):
    out = ""
    for _ in range(rng.randint(0, 5)):
        words = _words(rng, 24, VOCAB, 6)
        if words and rng.random() < 0.5:
            words = words[0].upper() + words[1:]
        if words and rng.random() < 0.25:
            words = words.replace(" ", rng.choice([", ", ","]), 1)
        end = rng.choice([".", ".", "!", "?", "...", "?!", "", " "])
        out += words + end + rng.choice([" ", " ", ""])
    return out[:60].rstrip(" ") if rng.random() < 0.8 else out[:60]


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
