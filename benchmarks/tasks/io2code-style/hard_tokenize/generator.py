"""Random inputs for hard_tokenize: string; at most 40 characters from letters, digits, _, space and + - * / ( ) = < > !."""
import json

NAME = 'hard_tokenize'

EDGE_CASES = [
    '',
    ' ',
    'x',
    'x1 = 42',
    'a==b',
    'if(x<=10)y=y*2',
    '__a1_b 007!x',
    '3+4 - -5',
    '<=>=!===',
]


def _draw(rng):
    parts = []
    for _ in range(rng.randint(0, 10)):
        r = rng.random()
        if r < 0.3:
            parts.append(str(rng.randint(0, 999)))
        elif r < 0.6:
            parts.append(rng.choice("abxyz_") + "".join(rng.choice("ab1_") for _ in range(rng.randint(0, 3))))
        else:
            parts.append(rng.choice(["+", "-", "*", "/", "(", ")", "=", "==", "!=", "<", "<=", ">=", "!", ">"]))
    out = ""
    for p in parts:
        out += p + (" " if rng.random() < 0.4 else "")
    return out[:40]


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
